/**
 * The rule a fit searches (one cosine cut, one prominence threshold, the rest derived so the
 * constraints hold by construction) and the search itself over pool sizes, shapes and the
 * prominence grid, on pool signals computed once per pool size. Pure.
 */
import { DEFAULT_THRESHOLDS, resolveThresholds, type Thresholds } from "@/lib/recall/thresholds";
import { confidenceInputFromCandidates } from "../level";
import { poolSignals, type PoolSignals } from "../signals";
import { bestCut } from "./cut";
import type { FitExample, FittedRule, ResolvedFitOptions } from "./types";

/** The thresholds of a rule: one cosine cut, one prominence threshold, the rest derived. */
export function ruleThresholds(cut: number, moderateProminence: number, name = "fitted"): Thresholds {
  const t: Thresholds = {
    ...DEFAULT_THRESHOLDS,
    name,
    moderate_prominence: moderateProminence,
    // Kept a band apart below and above (strict order), at the reference's own spacing.
    low_prominence: moderateProminence - 0.12,
    high_prominence: Math.max(DEFAULT_THRESHOLDS.high_prominence, moderateProminence + 0.15),
    abs_low_cosine: cut,
    // Equal guards: worth reading means top ≥ cut on every semantic path (also without a background frame).
    abs_moderate_cosine: cut,
    strong_abs_cosine: Math.max(DEFAULT_THRESHOLDS.strong_abs_cosine, cut),
  };
  return resolveThresholds(t);
}

function signalsAt(examples: readonly FitExample[], poolSize: number | null): PoolSignals[] {
  return examples.map((e) => poolSignals(confidenceInputFromCandidates(e.candidates, poolSize ?? e.k)));
}

export interface SignalCache {
  get(poolSize: number | null): PoolSignals[];
}

export function cacheFor(examples: readonly FitExample[]): SignalCache {
  const memo = new Map<number | null, PoolSignals[]>();
  return {
    get(poolSize) {
      let s = memo.get(poolSize);
      if (!s) memo.set(poolSize, (s = signalsAt(examples, poolSize)));
      return s;
    },
  };
}

/** The best rule of the given shapes on these examples (indices into the cache). */
export function fitRule(
  cache: SignalCache,
  index: readonly number[],
  present: readonly boolean[],
  o: ResolvedFitOptions,
): FittedRule {
  let best: { rule: FittedRule; score: number; order: number } | null = null;
  const sub = index.map((i) => present[i]!);
  o.poolSizes.forEach((poolSize, poolOrder) => {
    const all = cache.get(poolSize);
    const signals = index.map((i) => all[i]!);
    for (const shape of o.shapes) {
      const grid = shape === "top_score" ? [0] : o.prominenceGrid;
      for (const mp of grid) {
        const c = bestCut(signals, sub, mp, o.smoothing);
        const order = (shape === "top_score" ? 0 : 1000) + poolOrder;
        // The smoothed score decides; ties go to the simpler shape, then the preferred pool size.
        const better =
          best === null || c.score > best.score + 1e-12 || (Math.abs(c.score - best.score) <= 1e-12 && order < best.order);
        if (better) {
          best = {
            rule: { shape, pool_size: poolSize, thresholds: ruleThresholds(c.cut, mp, o.name), train_balanced_accuracy: c.ba },
            score: c.score,
            order,
          };
        }
      }
    }
  });
  return best!.rule;
}
