import { describe, expect, it } from "vitest";
import { computeConfidence, toWireConfidence, type RecallConfidenceBlock } from "./confidence";
import reference from "./fixtures/python-reference.json";

// Blocks computed by fixtures/python-reference.py: the spec's rules run with CPython's own
// statistics.fmean / statistics.pstdev / round / "{:.2f}". Every key must match bit for bit
// (Object.is, so even the sign of a zero counts), including the rationale text.

interface ReferenceCase {
  kind: string;
  hybrid: number[];
  semantic: number[] | null;
  expected: RecallConfidenceBlock;
}

const cases = (reference as { cases: ReferenceCase[] }).cases;

describe("agreement with CPython on generated pools", () => {
  it("covers every shape and level", () => {
    expect(cases.length).toBeGreaterThanOrEqual(300);
    const levels = new Set(cases.map((c) => c.expected.level));
    expect([...levels].sort()).toEqual(["high", "low", "moderate", "none"]);
    expect(new Set(cases.map((c) => c.kind)).size).toBeGreaterThanOrEqual(8);
  });

  const kinds = [...new Set(cases.map((c) => c.kind))];
  it.each(kinds)("%s pools match bit for bit", (kind) => {
    const mismatches: string[] = [];
    cases.forEach((c, i) => {
      if (c.kind !== kind) return;
      const got = toWireConfidence(computeConfidence({ hybridScores: c.hybrid, semanticRaw: c.semantic }));
      for (const key of Object.keys(c.expected) as (keyof RecallConfidenceBlock)[]) {
        if (!Object.is(got[key], c.expected[key])) {
          mismatches.push(`case #${i} ${key}: got ${String(got[key])}, expected ${String(c.expected[key])}`);
        }
      }
    });
    expect(mismatches).toEqual([]);
  });
});
