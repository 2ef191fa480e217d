/**
 * What a fitted rule does on the labeled examples, beside the reference constants: the level ×
 * present/absent matrices (apart kinds left out), the accuracy per kind (apart kinds included,
 * so near-misses are shown rather than averaged away) and the signals to draw. Pure.
 */
import { computeConfidence, type Level } from "@/lib/recall/confidence";
import { DEFAULT_THRESHOLDS, type Thresholds } from "@/lib/recall/thresholds";
import { confidenceInputFromCandidates } from "../level";
import { balancedAccuracy, countsFromConfusion, emptyConfusion, type LevelConfusion } from "../metrics";
import type { PoolSignals } from "../signals";
import { DEFAULT_APART_KINDS, type FitExample, type FitResult, type FittedRule, type KindReport } from "./types";

export function levelOf(e: FitExample, t: Thresholds, poolSize: number | null): Level {
  return computeConfidence(confidenceInputFromCandidates(e.candidates, poolSize ?? e.k), t).level;
}

const worth = (l: Level) => l === "high" || l === "moderate";

/** The fitted rule and the reference on every example; `signals` are the examples' at the rule's pool size. */
export function reportFit(
  examples: readonly FitExample[],
  rule: FittedRule,
  signals: readonly PoolSignals[],
  apart: ReadonlySet<string>,
): Pick<FitResult, "confusion" | "reference" | "by_kind" | "points"> {
  const confusion = emptyConfusion();
  const reference = emptyConfusion();
  const byKind: Record<string, KindReport> = {};
  const points: FitResult["points"] = [];
  examples.forEach((e, i) => {
    const fitted = levelOf(e, rule.thresholds, rule.pool_size);
    const ref = levelOf(e, DEFAULT_THRESHOLDS, null);
    const kind = e.kind ?? (e.present ? "present" : "absent");
    const r = (byKind[kind] ??= {
      count: 0,
      present: 0,
      absent: 0,
      fitted_accuracy: 0,
      reference_accuracy: 0,
      fitted_worth_reading: 0,
      reference_worth_reading: 0,
    });
    r.count++;
    r[e.present ? "present" : "absent"]++;
    if (worth(fitted) === e.present) r.fitted_accuracy!++;
    if (worth(ref) === e.present) r.reference_accuracy!++;
    if (worth(fitted)) r.fitted_worth_reading++;
    if (worth(ref)) r.reference_worth_reading++;
    const s = signals[i]!;
    points.push({ top: s.top, prominence: s.prominence, present: e.present, kind: e.kind ?? null });
    if (!e.kind || !apart.has(e.kind)) {
      confusion[fitted][e.present ? "present" : "absent"]++;
      reference[ref][e.present ? "present" : "absent"]++;
    }
  });
  for (const r of Object.values(byKind)) {
    r.fitted_accuracy = r.count ? r.fitted_accuracy! / r.count : null;
    r.reference_accuracy = r.count ? r.reference_accuracy! / r.count : null;
  }
  return {
    confusion,
    reference: { balanced_accuracy: balancedAccuracy(countsFromConfusion(reference)), confusion: reference },
    by_kind: byKind,
    points,
  };
}

/** Balanced accuracy and the level matrix of a given profile on labeled examples (apart kinds excluded). */
export function evaluateProfile(
  examples: readonly FitExample[],
  profile: { thresholds: Thresholds; pool_size: number | null },
  apartKinds: readonly string[] = DEFAULT_APART_KINDS,
): { balanced_accuracy: number | null; confusion: LevelConfusion } {
  const apart = new Set(apartKinds);
  const confusion = emptyConfusion();
  for (const e of examples) {
    if (e.kind && apart.has(e.kind)) continue;
    confusion[levelOf(e, profile.thresholds, profile.pool_size)][e.present ? "present" : "absent"]++;
  }
  return { balanced_accuracy: balancedAccuracy(countsFromConfusion(confusion)), confusion };
}
