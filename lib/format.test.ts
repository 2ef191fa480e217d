import { describe, expect, it } from "vitest";
import { countOf, formatBm25, formatNumber, formatPercent, formatScore, MISSING, plural, shortenId } from "./format";

// Moved with the functions from lib/recall-log/format.test.ts and lib/insights/format.test.ts.
describe("formatNumber", () => {
  it("formats with fixed decimals", () => {
    expect(formatNumber(0.5, 3)).toBe("0.500");
    expect(formatNumber(12.3456, 2)).toBe("12.35");
    expect(formatNumber(3, 0)).toBe("3");
  });

  it("rounds like the reference (half-to-even on the exact binary value)", () => {
    // 0.0625 is exact in binary: a true tie, rounds to even.
    expect(formatNumber(0.0625, 3)).toBe("0.062");
    // 2.675 is 2.67499999… in binary, so it rounds down.
    expect(formatNumber(2.675, 2)).toBe("2.67");
  });

  it("shows a dash for missing or non-finite values", () => {
    expect(formatNumber(null, 3)).toBe(MISSING);
    expect(formatNumber(undefined, 3)).toBe(MISSING);
    expect(formatNumber(Number.NaN, 3)).toBe(MISSING);
    expect(formatNumber(Number.POSITIVE_INFINITY, 3)).toBe(MISSING);
    expect(MISSING).toBe("—");
  });

  it("keeps negative values but never prints a negative zero", () => {
    expect(formatNumber(-0.25, 3)).toBe("-0.250");
    expect(formatNumber(-0.0001, 3)).toBe("0.000");
    expect(formatNumber(-0, 2)).toBe("0.00");
    expect(formatNumber(-0.4, 0)).toBe("0");
  });

  it("has 3-decimal score and 2-decimal BM25 shorthands", () => {
    expect(formatScore(0.81234)).toBe("0.812");
    expect(formatScore(null)).toBe("—");
    expect(formatBm25(7.4567)).toBe("7.46");
    expect(formatBm25(undefined)).toBe("—");
  });
});

describe("plural", () => {
  it("picks the singular only for exactly one", () => {
    expect(plural(0, "candidate")).toBe("0 candidates");
    expect(plural(1, "candidate")).toBe("1 candidate");
    expect(plural(2, "candidate")).toBe("2 candidates");
    expect(plural(2, "memory", "memories")).toBe("2 memories");
  });
});

describe("shortenId", () => {
  it("keeps short ids whole", () => {
    expect(shortenId("mem-42")).toBe("mem-42");
    expect(shortenId("abcdefghijklmn")).toBe("abcdefghijklmn"); // exactly 14
  });

  it("shortens long ids in the middle, keeping both ends", () => {
    expect(shortenId("3f2a1b9c-5d6e-4f70-8a9b-0c1d2e3f4a5b")).toBe("3f2a1b9c…4a5b");
    expect(shortenId("abcdefghijklmno")).toBe("abcdefgh…lmno");
  });

  it("honours custom limits", () => {
    expect(shortenId("abcdefghij", 6, 2, 2)).toBe("ab…ij");
    // Shortening that would not save anything leaves the id alone.
    expect(shortenId("abcdef", 4, 3, 2)).toBe("abcdef");
  });

  it("never splits a surrogate pair", () => {
    const id = "😀".repeat(20);
    const short = shortenId(id);
    expect(short).toBe(`${"😀".repeat(8)}…${"😀".repeat(4)}`);
  });
});

describe("insight formatting", () => {
  it("formats shares as percentages, never rounding a non-zero share to 0% or a partial one to 100%", () => {
    expect(formatPercent(29 / 44)).toBe("65.9%");
    expect(formatPercent(0.5)).toBe("50%");
    expect(formatPercent(1)).toBe("100%");
    expect(formatPercent(0)).toBe("0%");
    expect(formatPercent(0.00001)).toBe("<0.1%");
    expect(formatPercent(0.99999)).toBe(">99.9%");
    expect(formatPercent(null)).toBe("—");
    expect(formatPercent(Number.NaN)).toBe("—");
  });

  it("counts with their noun", () => {
    expect(countOf(1, "recall")).toBe("1 recall");
    expect(countOf(3000, "recall")).toBe("3,000 recalls");
  });
});
