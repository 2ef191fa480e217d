import { describe, expect, it } from "vitest";
import { countLine, roundEstimate, splitLine } from "./history-count-line";
import { storeOptions } from "./history-filters";

const base = { grouped: 0, by_verdict: {}, by_level: {}, by_profile_level: {}, cap: 10_000 };

describe("countLine", () => {
  it("says an exact count as one, singular or plural", () => {
    expect(countLine({ ...base, total: 1, exact: true })).toBe("1 recall matches.");
    expect(countLine({ ...base, total: 1234, exact: true })).toBe("1,234 recalls match.");
  });

  it("says an estimate is one, rounded, and why it is not counted", () => {
    const line = countLine({ ...base, total: 1_234_567, exact: false });
    expect(line).toMatch(/^About 1\.2 million recalls match \(estimated/);
    expect(line).toContain("more than 10,000");
  });
});

describe("roundEstimate", () => {
  it("keeps two significant figures", () => {
    expect(roundEstimate(48_213)).toBe("48,000");
    expect(roundEstimate(10_001)).toBe("10,000");
    expect(roundEstimate(987)).toBe("990");
    expect(roundEstimate(2_050_000)).toBe("2.1 million");
  });
});

describe("splitLine", () => {
  it("lists levels strongest first, then the extra keys, skipping zeros", () => {
    expect(splitLine({ none: 2, high: 5, low: 0, unknown: 1 }, [["unknown", "failed"]])).toBe("high 5 · none 2 · failed 1");
    expect(splitLine({}, [])).toBe("");
  });
});

describe("storeOptions", () => {
  it("offers any store, the configured ones, the logged-only ones marked, and the URL's unknown value", () => {
    const stores = [
      { name: "embedded", configured: true },
      { name: "production", configured: false },
    ];
    expect(storeOptions(stores, undefined)).toEqual([
      ["", "Any store"],
      ["embedded", "embedded"],
      ["production", "production (in the log only)"],
    ]);
    expect(storeOptions(stores, "gone").at(-1)).toEqual(["gone", "gone (no recalls seen)"]);
    expect(storeOptions(stores, "embedded")).toHaveLength(3);
  });
});
