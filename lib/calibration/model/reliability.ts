/**
 * How far a probability can be trusted (lib/calibration/README.md "Threshold profiles"): the Brier
 * score, the reliability diagram and its expected calibration error, P(present | level), the
 * risk–coverage curve, balanced accuracy at the worth-reading cut and the AUC. Pure; every
 * undefined figure is null, never NaN.
 */
import { auc } from "@/lib/eval/roc";
import type { Level } from "@/lib/recall/level";
import { balancedAccuracy, countsFromCalls } from "../metrics";

export interface Scored {
  probability: number;
  present: boolean;
}

export interface ReliabilityBin {
  /** The bin's range of predicted probability, [from, to). */
  from: number;
  to: number;
  count: number;
  mean_predicted: number | null;
  observed_rate: number | null;
}

export interface CalibrationEstimate {
  count: number;
  present: number;
  absent: number;
  /** Present vs absent at the worth-reading cut (probability ≥ the moderate cut). */
  balanced_accuracy: number | null;
  auc: number | null;
  brier: number | null;
  /** Expected calibration error over RELIABILITY_BINS equal-width bins (weighted by count). */
  ece: number | null;
  p_present_by_level: Record<Level, { count: number; present_rate: number | null }>;
}

export const RELIABILITY_BINS = 10;

export function brier(scored: readonly Scored[]): number | null {
  if (scored.length === 0) return null;
  return scored.reduce((s, x) => s + (x.probability - (x.present ? 1 : 0)) ** 2, 0) / scored.length;
}

export function reliability(scored: readonly Scored[], bins = RELIABILITY_BINS): ReliabilityBin[] {
  const out = Array.from({ length: bins }, (_, i) => ({ from: i / bins, to: (i + 1) / bins, sum: 0, hits: 0, count: 0 }));
  for (const x of scored) {
    const b = out[Math.min(bins - 1, Math.max(0, Math.floor(x.probability * bins)))]!;
    b.count++;
    b.sum += x.probability;
    if (x.present) b.hits++;
  }
  return out.map((b) => ({
    from: b.from,
    to: b.to,
    count: b.count,
    mean_predicted: b.count ? b.sum / b.count : null,
    observed_rate: b.count ? b.hits / b.count : null,
  }));
}

/** Σ over bins of (bin count / n) · |mean predicted − observed rate|. */
export function expectedCalibrationError(scored: readonly Scored[], bins = RELIABILITY_BINS): number | null {
  if (scored.length === 0) return null;
  return reliability(scored, bins).reduce(
    (s, b) => (b.count ? s + (b.count / scored.length) * Math.abs(b.mean_predicted! - b.observed_rate!) : s),
    0,
  );
}

/** Coverage (share answered as worth reading) against risk (share of those with nothing relevant), by descending probability. */
export function riskCoverage(scored: readonly Scored[]): { coverage: number; risk: number; threshold: number }[] {
  const sorted = [...scored].sort((a, b) => b.probability - a.probability);
  const out: { coverage: number; risk: number; threshold: number }[] = [];
  let wrong = 0;
  sorted.forEach((x, i) => {
    if (!x.present) wrong++;
    const next = sorted[i + 1];
    if (next && next.probability === x.probability) return;
    out.push({ coverage: (i + 1) / sorted.length, risk: wrong / (i + 1), threshold: x.probability });
  });
  return out;
}

export function calibrationEstimate(scored: readonly Scored[], levelOf: (p: number) => Level): CalibrationEstimate {
  const byLevel = { high: [0, 0], moderate: [0, 0], low: [0, 0], none: [0, 0] } as Record<Level, [number, number]>;
  for (const x of scored) {
    const l = byLevel[levelOf(x.probability)];
    l[0]++;
    if (x.present) l[1]++;
  }
  const calls = scored.map((x) => {
    const level = levelOf(x.probability);
    return { present: x.present, worth: level === "high" || level === "moderate" };
  });
  return {
    count: scored.length,
    present: scored.filter((x) => x.present).length,
    absent: scored.filter((x) => !x.present).length,
    balanced_accuracy: balancedAccuracy(countsFromCalls(calls)),
    auc: auc(
      scored.filter((x) => x.present).map((x) => x.probability),
      scored.filter((x) => !x.present).map((x) => x.probability),
    ),
    brier: brier(scored),
    ece: expectedCalibrationError(scored),
    p_present_by_level: Object.fromEntries(
      Object.entries(byLevel).map(([level, [count, hits]]) => [level, { count, present_rate: count ? hits / count : null }]),
    ) as CalibrationEstimate["p_present_by_level"],
  };
}
