import { describe, expect, it } from "vitest";
import { MEMORY_ROLLUP_STEP_MS, ROLLUP_STEP_MS, splitRange } from "./range";

const d = (iso: string) => new Date(iso);
const iso = (span: { from: Date; to: Date } | null) => (span ? [span.from.toISOString(), span.to.toISOString()] : null);

describe("splitRange", () => {
  it("reads whole quarter-hours from the rollup and the slivers at both ends from the recalls", () => {
    const split = splitRange(d("2025-01-09T06:05:00Z"), d("2025-01-11T20:00:00.001Z"), ROLLUP_STEP_MS);
    expect(iso(split.whole)).toEqual(["2025-01-09T06:15:00.000Z", "2025-01-11T20:00:00.000Z"]);
    expect(split.edges.map(iso)).toEqual([
      ["2025-01-09T06:05:00.000Z", "2025-01-09T06:15:00.000Z"],
      ["2025-01-11T20:00:00.000Z", "2025-01-11T20:00:00.001Z"],
    ]);
  });

  it("needs no edge when the range is aligned", () => {
    const split = splitRange(d("2025-01-09T05:00:00Z"), d("2025-01-12T05:00:00Z"), ROLLUP_STEP_MS);
    expect(iso(split.whole)).toEqual(["2025-01-09T05:00:00.000Z", "2025-01-12T05:00:00.000Z"]);
    expect(split.edges).toEqual([]);
  });

  it("reads a range inside one bucket from the recalls alone", () => {
    const split = splitRange(d("2025-01-09T12:10:00Z"), d("2025-01-09T12:10:00.001Z"), ROLLUP_STEP_MS);
    expect(split.whole).toBeNull();
    expect(split.edges.map(iso)).toEqual([["2025-01-09T12:10:00.000Z", "2025-01-09T12:10:00.001Z"]]);
    // Touching one boundary: still no whole bucket.
    const near = splitRange(d("2025-01-09T12:00:00Z"), d("2025-01-09T12:14:00Z"), ROLLUP_STEP_MS);
    expect(near.whole).toBeNull();
    expect(near.edges).toHaveLength(1);
  });

  it("aligns hours for the memory rollup, and can skip the rollups entirely", () => {
    const split = splitRange(d("2025-01-09T06:30:00Z"), d("2025-01-09T09:45:00Z"), MEMORY_ROLLUP_STEP_MS);
    expect(iso(split.whole)).toEqual(["2025-01-09T07:00:00.000Z", "2025-01-09T09:00:00.000Z"]);
    const raw = splitRange(d("2025-01-09T06:30:00Z"), d("2025-01-09T09:45:00Z"), MEMORY_ROLLUP_STEP_MS, false);
    expect(raw.whole).toBeNull();
    expect(raw.edges.map(iso)).toEqual([["2025-01-09T06:30:00.000Z", "2025-01-09T09:45:00.000Z"]]);
  });

  it("answers nothing for an empty range", () => {
    expect(splitRange(d("2025-01-09T06:00:00Z"), d("2025-01-09T06:00:00Z"), ROLLUP_STEP_MS)).toEqual({ whole: null, edges: [] });
  });
});
