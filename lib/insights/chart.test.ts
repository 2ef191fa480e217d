import { describe, expect, it } from "vitest";
import { countAxis, LEVEL_STACK, LOW_VOLUME_RECALLS, niceMax, prepareLevelChart, prepareSelectorChart } from "./chart";
import { toStats, ZERO_SUMS, type CounterSums } from "./rates";
import type { InsightSeriesPoint, InsightsResponse } from "./schema";

function point(local: string, patch: Partial<CounterSums>, partial = false): InsightSeriesPoint {
  return {
    start: `${local}:00.000Z`,
    end: `${local}:00.000Z`,
    local_start: local,
    partial,
    ...toStats({ ...ZERO_SUMS, ...patch }),
  };
}

function data(
  series: InsightSeriesPoint[],
  totals: Partial<CounterSums>,
): Pick<InsightsResponse, "series" | "totals" | "bucket"> {
  return { series, totals: toStats({ ...ZERO_SUMS, ...totals }), bucket: "day" };
}

const busy = {
  recalls: 40,
  applied: 30,
  counted: 30,
  kept: 60,
  dropped: 30,
  lost_any: 15,
  level_high: 10,
  level_moderate: 10,
  level_low: 10,
  level_none: 10,
};

describe("prepareSelectorChart", () => {
  it("draws the drop rate in percent with its counts, and an empty bucket as a gap", () => {
    const chart = prepareSelectorChart(
      data(
        [
          point("2025-01-09T00:00", busy),
          point("2025-01-10T00:00", {}),
          point("2025-01-11T00:00", { recalls: 3, failed: 1, applied: 2, counted: 2, kept: 1, dropped: 1, lost_any: 1 }),
        ],
        { recalls: 43, failed: 1, applied: 32, counted: 32, kept: 61, dropped: 31 },
      ),
    );
    expect(chart.empty).toBeNull();
    const [a, gap, thin] = chart.points;
    expect(a).toMatchObject({
      key: "2025-01-09T00:00",
      tick: "Jan 9",
      title: "Thu, Jan 9, 2025",
      applied: 30,
      dropRate: (30 / 90) * 100,
      lostAnyRate: 50,
      thin: false,
      notes: [],
    });
    expect(a!.tooltip[0]).toEqual({ label: "Drop rate", value: "33.3% (30 of 90 results)", color: "#b42318" });
    expect(gap).toMatchObject({ applied: 0, dropRate: null, lostAnyRate: null, thin: false });
    expect(gap!.tooltip[0]!.value).toBe("no data");
    // Two recalls with counts: a rate that stands on little, drawn hollow and said so.
    expect(thin).toMatchObject({ dropRate: 50, thin: true });
    expect(thin!.notes[0]).toMatch(/^Few recalls \(2 with counts\)/);
    expect(thin!.tooltip.at(-1)).toEqual({ label: "All recalls", value: "3 (1 failed)", muted: true });
    expect(chart.note).toBe("1 failed recall in this range counts in volume only, not in these rates.");
    expect(chart.countAxis).toEqual({ max: 40, ticks: [0, 10, 20, 30, 40] });
  });

  it("says why there is no drop rate to draw", () => {
    expect(prepareSelectorChart(data([], {})).empty).toMatch(/^No recalls in this range/);
    expect(prepareSelectorChart(data([], { recalls: 4, failed: 4 })).empty).toMatch(/^All 4 recalls in this range failed/);
    expect(prepareSelectorChart(data([], { recalls: 5 })).empty).toMatch(/did not run on any of the 5 recalls/);
    expect(prepareSelectorChart(data([], { recalls: 5, applied: 2 })).empty).toMatch(/ran on 2 recalls, but none of them stated/);
  });

  it("marks a bucket the range covers only in part", () => {
    const chart = prepareSelectorChart(data([point("2025-01-09T00:00", busy, true)], busy));
    expect(chart.points[0]!.notes).toContain("The range covers only part of this bucket.");
  });
});

describe("prepareLevelChart", () => {
  it("stacks counts per level with the weak-hit rate, none at the bottom", () => {
    expect(LEVEL_STACK.map((l) => l.level)).toEqual(["none", "low", "moderate", "high"]);
    const chart = prepareLevelChart(
      data([point("2025-01-09T00:00", { ...busy, recalls: 43, failed: 2 })], { ...busy, recalls: 43, failed: 2 }),
    );
    const [p] = chart.points;
    expect(p).toMatchObject({ none: 10, low: 10, moderate: 10, high: 10, weakHitRate: 50, thin: false });
    expect(p!.tooltip.map((l) => l.label)).toEqual([
      "Weak hits (none + low)",
      "High",
      "Moderate",
      "Low",
      "None",
      "No level stated",
      "Failed (not in the mix)",
    ]);
    expect(p!.tooltip[1]!.value).toBe("10 (25%)");
    expect(chart.countAxis).toEqual({ max: 40, ticks: [0, 10, 20, 30, 40] });
  });

  it("calls a rate over fewer than the threshold thin", () => {
    const few = LOW_VOLUME_RECALLS - 1;
    const chart = prepareLevelChart(
      data([point("2025-01-09T00:00", { recalls: few, level_low: few })], { recalls: few, level_low: few }),
    );
    expect(chart.points[0]).toMatchObject({ thin: true, weakHitRate: 100 });
  });

  it("says why there is no mix to draw", () => {
    expect(prepareLevelChart(data([], {})).empty).toMatch(/^No recalls/);
    expect(prepareLevelChart(data([], { recalls: 2, failed: 2 })).empty).toMatch(
      /failed; a failed recall has no confidence level/,
    );
    expect(prepareLevelChart(data([], { recalls: 2 })).empty).toMatch(
      /None of the 2 recalls in this range carried a confidence level/,
    );
  });
});

describe("axis helpers", () => {
  it("rounds a count axis up to 1, 2 or 5 × 10^n", () => {
    expect([0, 1, 3, 7, 10, 11, 240, 3001].map(niceMax)).toEqual([1, 1, 5, 10, 10, 20, 500, 5000]);
  });
  it("splits a count axis into four whole, round steps", () => {
    expect(countAxis(0)).toEqual({ max: 4, ticks: [0, 1, 2, 3, 4] });
    expect(countAxis(3)).toEqual({ max: 4, ticks: [0, 1, 2, 3, 4] });
    expect(countAxis(7)).toEqual({ max: 8, ticks: [0, 2, 4, 6, 8] });
    expect(countAxis(50)).toEqual({ max: 80, ticks: [0, 20, 40, 60, 80] });
    expect(countAxis(3000)).toEqual({ max: 4000, ticks: [0, 1000, 2000, 3000, 4000] });
    expect(countAxis(3001).max).toBeGreaterThanOrEqual(3001);
  });
});
