/**
 * Counts → rates, the one place the insights' ratios are defined. Pure and client-safe.
 *
 * - failed recalls count in volume only; every rate's denominator is over the recalls that did
 *   not fail (`ok`) or a subset of them;
 * - applied rate = applied / ok;
 * - drop rate = dropped / (kept + dropped), summed over the applied recalls that state both
 *   counts (never from the capped id lists);
 * - lost-any rate = applied recalls that lost ≥ 1 result / applied;
 * - selector failure rate = failed selector runs / (applied + failed runs): of the recalls the
 *   selector ran or tried to run on, how often it failed (timeout, HTTP error, unreadable answer,
 *   invented id…). Off, unavailable and skipped runs are in neither (lib/recall/selector-reasons.ts);
 * - top-dropped rate = applied recalls whose level rests on a memory the selector dropped / applied;
 * - level mix and weak-hit rate ((none + low) / n) over the recalls with a level;
 * - a ratio with nothing under it is null, never 0.
 */
import type { InsightCounts, InsightRates, InsightStats } from "./schema";

/** The raw sums a rollup or a group yields (what SQL answers). */
export interface CounterSums {
  recalls: number;
  failed: number;
  applied: number;
  counted: number;
  kept: number;
  dropped: number;
  listed_dropped: number;
  lost_any: number;
  level_high: number;
  level_moderate: number;
  level_low: number;
  level_none: number;
  selector_failed: number;
  high_top_dropped: number;
  moderate_top_dropped: number;
  low_top_dropped: number;
  none_top_dropped: number;
  weak_kept_all: number;
  /** Counted recalls whose selector dropped nothing / kept nothing (its verdict). */
  kept_all: number;
  kept_none: number;
}

export const COUNTER_KEYS = [
  "recalls",
  "failed",
  "applied",
  "counted",
  "kept",
  "dropped",
  "listed_dropped",
  "lost_any",
  "level_high",
  "level_moderate",
  "level_low",
  "level_none",
  "selector_failed",
  "high_top_dropped",
  "moderate_top_dropped",
  "low_top_dropped",
  "none_top_dropped",
  "weak_kept_all",
  "kept_all",
  "kept_none",
] as const satisfies readonly (keyof CounterSums)[];

export const ZERO_SUMS: CounterSums = Object.freeze(
  Object.fromEntries(COUNTER_KEYS.map((key) => [key, 0])) as unknown as CounterSums,
) as CounterSums;

export function ratio(numerator: number, denominator: number): number | null {
  return denominator > 0 ? numerator / denominator : null;
}

export function toCounts(sums: CounterSums): InsightCounts {
  const ok = sums.recalls - sums.failed;
  const leveled = sums.level_high + sums.level_moderate + sums.level_low + sums.level_none;
  return {
    recalls: sums.recalls,
    failed: sums.failed,
    ok,
    applied: sums.applied,
    not_applied: ok - sums.applied,
    counted: sums.counted,
    kept: sums.kept,
    dropped: sums.dropped,
    listed_dropped: sums.listed_dropped,
    lost_any: sums.lost_any,
    high: sums.level_high,
    moderate: sums.level_moderate,
    low: sums.level_low,
    none: sums.level_none,
    unknown_level: ok - leveled,
    selector_failed: sums.selector_failed,
    tried: sums.applied + sums.selector_failed,
    top_dropped: sums.high_top_dropped + sums.moderate_top_dropped + sums.low_top_dropped + sums.none_top_dropped,
    high_top_dropped: sums.high_top_dropped,
    moderate_top_dropped: sums.moderate_top_dropped,
    low_top_dropped: sums.low_top_dropped,
    none_top_dropped: sums.none_top_dropped,
    weak_kept_all: sums.weak_kept_all,
  };
}

export function toRates(c: InsightCounts): InsightRates {
  const leveled = c.high + c.moderate + c.low + c.none;
  return {
    applied_rate: ratio(c.applied, c.ok),
    drop_rate: ratio(c.dropped, c.kept + c.dropped),
    lost_any_rate: ratio(c.lost_any, c.applied),
    failure_rate: ratio(c.selector_failed, c.tried),
    top_dropped_rate: ratio(c.top_dropped, c.applied),
    weak_hit_rate: ratio(c.none + c.low, leveled),
    level_mix:
      leveled > 0
        ? { high: c.high / leveled, moderate: c.moderate / leveled, low: c.low / leveled, none: c.none / leveled }
        : null,
  };
}

export function toStats(sums: CounterSums): InsightStats {
  const counts = toCounts(sums);
  return { ...counts, ...toRates(counts) };
}

/** Sums read from a SQL row (numbers, numeric strings or null) → numbers. */
export function sumsFromRow(row: Record<string, unknown>): CounterSums {
  const out = {} as CounterSums;
  for (const key of COUNTER_KEYS) {
    const value = row[key];
    out[key] = value === null || value === undefined ? 0 : Number(value);
  }
  return out;
}
