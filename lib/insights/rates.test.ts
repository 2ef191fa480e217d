import { describe, expect, it } from "vitest";
import { ratio, sumsFromRow, toCounts, toRates, toStats, ZERO_SUMS, type CounterSums } from "./rates";

const sums = (patch: Partial<CounterSums>): CounterSums => ({ ...ZERO_SUMS, ...patch });

describe("insight rates", () => {
  it("derives ok, not applied and unknown levels from the sums", () => {
    const counts = toCounts(
      sums({ recalls: 11, failed: 1, applied: 7, level_high: 3, level_moderate: 2, level_low: 2, level_none: 2 }),
    );
    expect(counts).toMatchObject({ recalls: 11, failed: 1, ok: 10, applied: 7, not_applied: 3, unknown_level: 1 });
  });

  it("keeps failed recalls out of every rate's denominator", () => {
    const stats = toStats(
      sums({ recalls: 10, failed: 6, applied: 2, counted: 2, kept: 3, dropped: 1, lost_any: 1, level_low: 1, level_high: 3 }),
    );
    expect(stats.applied_rate).toBe(2 / 4);
    expect(stats.drop_rate).toBe(1 / 4);
    expect(stats.lost_any_rate).toBe(1 / 2);
    expect(stats.weak_hit_rate).toBe(1 / 4);
    expect(stats.level_mix).toEqual({ high: 0.75, moderate: 0, low: 0.25, none: 0 });
  });

  it("computes the drop rate from the counts, however short the id lists were", () => {
    // 22 dropped of 25, of which only 20 listed: the rate still says 22/25.
    expect(toStats(sums({ recalls: 1, applied: 1, counted: 1, kept: 3, dropped: 22, listed_dropped: 20 })).drop_rate).toBe(
      22 / 25,
    );
  });

  it("answers null, never 0, when there is nothing under a rate", () => {
    expect(toRates(toCounts(ZERO_SUMS))).toEqual({
      applied_rate: null,
      drop_rate: null,
      lost_any_rate: null,
      failure_rate: null,
      top_dropped_rate: null,
      weak_hit_rate: null,
      level_mix: null,
    });
    // Only failures: no rate at all.
    expect(toStats(sums({ recalls: 3, failed: 3 }))).toMatchObject({ applied_rate: null, weak_hit_rate: null });
    // Applied without counts: an applied rate, no drop rate.
    expect(toStats(sums({ recalls: 2, applied: 2 }))).toMatchObject({ applied_rate: 1, drop_rate: null, lost_any_rate: 0 });
    // A failure and a run: the failure rate is over both.
    expect(toStats(sums({ recalls: 2, applied: 1, selector_failed: 1 }))).toMatchObject({
      tried: 2,
      failure_rate: 0.5,
      top_dropped_rate: 0,
    });
    expect(ratio(0, 5)).toBe(0);
    expect(ratio(5, 0)).toBeNull();
  });

  it("reads SQL rows: numbers, numeric strings and nulls", () => {
    expect(sumsFromRow({ recalls: "12", failed: null, applied: 3, kept: 4.0 })).toEqual(
      sums({ recalls: 12, applied: 3, kept: 4 }),
    );
  });
});
