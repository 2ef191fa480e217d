/**
 * The cut search: for one prominence threshold, the cosine cut with the best balanced accuracy
 * over labeled pools, smoothed so a broad good region wins over a lucky spike. Pure.
 */
import { DEFAULT_THRESHOLDS } from "@/lib/recall/thresholds";
import type { PoolSignals } from "../signals";

type Call = "forced" | "never" | "cut";

/** How an example's verdict depends on the cut, for a fixed prominence threshold. */
function callFor(s: PoolSignals, mp: number): Call {
  const strong = DEFAULT_THRESHOLDS.strong_abs_cosine;
  switch (s.basis) {
    case "empty":
      return "never";
    case "single":
      return "forced";
    case "zscore":
      return (s.z as number) >= DEFAULT_THRESHOLDS.z_moderate ? "forced" : "never";
    case "single_semantic":
      return (s.top as number) >= strong ? "cut" : "never";
    case "semantic":
      if (!s.backgroundUsable) return "cut";
      return (s.prominence as number) >= mp || (s.top as number) >= strong ? "cut" : "never";
  }
}

export interface CutChoice {
  /** Balanced accuracy at the chosen cut (unsmoothed). */
  ba: number | null;
  /** The smoothed score that chose it. */
  score: number;
  cut: number;
}

/** Cuts are tried on this grid (cosine units): readable constants, and fine enough for USE-lite's spread. */
export const CUT_STEP = 0.005;

/**
 * The cut with the best balanced accuracy averaged over cuts within ±`smoothing` of it: a
 * regularizer that prefers a broad good region to a lucky spike between two examples (on the
 * demo set the spike at 0.455 is 0.01 wide). Ties go to the middle of the best run.
 */
export function bestCut(signals: readonly PoolSignals[], present: readonly boolean[], mp: number, smoothing: number): CutChoice {
  let pos = 0;
  let neg = 0;
  let tpFixed = 0;
  let fpFixed = 0;
  const posTops: number[] = [];
  const negTops: number[] = [];
  signals.forEach((s, i) => {
    const p = present[i]!;
    if (p) pos++;
    else neg++;
    const call = callFor(s, mp);
    if (call === "forced") {
      if (p) tpFixed++;
      else fpFixed++;
    } else if (call === "cut") (p ? posTops : negTops).push(s.top as number);
  });
  if (pos === 0 || neg === 0) return { ba: null, score: -1, cut: DEFAULT_THRESHOLDS.abs_low_cosine };
  posTops.sort((a, b) => a - b);
  negTops.sort((a, b) => a - b);
  const all = [...posTops, ...negTops];
  const lo = Math.max(-1, Math.floor(((all.length ? Math.min(...all) : 0) - 2 * CUT_STEP) / CUT_STEP) * CUT_STEP);
  const hi = Math.min(1, Math.ceil(((all.length ? Math.max(...all) : 0) + 2 * CUT_STEP) / CUT_STEP) * CUT_STEP);
  const cuts: number[] = [];
  for (let n = 0; lo + n * CUT_STEP <= hi + 1e-9; n++) cuts.push(Math.round((lo + n * CUT_STEP) * 1000) / 1000);
  const atOrAbove = (sorted: readonly number[], cut: number): number => {
    let a = 0;
    let b = sorted.length;
    while (a < b) {
      const m = (a + b) >> 1;
      if (sorted[m]! >= cut) b = m;
      else a = m + 1;
    }
    return sorted.length - a;
  };
  const raw = cuts.map((cut) => {
    const tp = tpFixed + atOrAbove(posTops, cut);
    const fp = fpFixed + atOrAbove(negTops, cut);
    return (tp / pos + (neg - fp) / neg) / 2;
  });
  const half = Math.round(smoothing / CUT_STEP);
  const prefix = [0];
  for (const r of raw) prefix.push(prefix[prefix.length - 1]! + r);
  const smooth = raw.map((_, i) => {
    const a = Math.max(0, i - half);
    const b = Math.min(raw.length - 1, i + half);
    return (prefix[b + 1]! - prefix[a]!) / (b - a + 1);
  });
  const best = Math.max(...smooth);
  let bestRun: [number, number] = [0, 0];
  for (let i = 0; i < smooth.length; i++) {
    if (smooth[i]! < best - 1e-12) continue;
    let j = i;
    while (j + 1 < smooth.length && smooth[j + 1]! >= best - 1e-12) j++;
    if (j - i > bestRun[1] - bestRun[0] || i === 0 || smooth[bestRun[0]]! < best - 1e-12)
      bestRun = bestRun[1] - bestRun[0] >= j - i && smooth[bestRun[0]]! >= best - 1e-12 ? bestRun : [i, j];
    i = j;
  }
  const mid = Math.round((bestRun[0] + bestRun[1]) / 2);
  return { ba: raw[mid]!, score: best, cut: cuts[mid]! };
}
