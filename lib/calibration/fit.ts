/**
 * Fitting a profile from labels: search the constants and the pool size for the best balanced
 * triage accuracy (worth reading = high/moderate vs go external = low/none, against present vs
 * absent), with stratified, grouped k-fold cross-validation for an honest estimate.
 *
 * The search is deliberately small so that a fit on ~100 queries generalizes: one cosine cut
 * (the absolute guards ABS_LOW/ABS_MODERATE, which decide worth-reading once prominence admits
 * the pool), one prominence threshold (0 in the `top_score` shape, so the guard alone decides),
 * and the pool size. Monotone constraints hold by construction: high ≥ moderate ≥ low for the
 * prominence bands (strictly, as validateThresholds wants) and strong ≥ abs_moderate ≥ abs_low for
 * the cosines. Among shapes, the simplest whose cross-validated estimate is within
 * `simplicityTolerance` of the best wins. Near-misses (kind `near_miss`) are left out of the
 * objective and reported apart: no bi-encoder signal separates them (docs/ARCHITECTURE.md,
 * "Threshold profiles").
 */
import { computeConfidence, type Level } from "@/lib/recall/confidence";
import { DEFAULT_THRESHOLDS, resolveThresholds, type Thresholds } from "@/lib/recall/thresholds";
import { confidenceInputFromCandidates, type StoredCandidate } from "./level";
import { balancedAccuracy, countsFromCalls, countsFromConfusion, emptyConfusion, type LevelConfusion } from "./metrics";
import { poolSignals, worthReading, type PoolSignals } from "./signals";

export interface FitExample {
  /** Examples sharing a group (one query logged at several k) stay in one fold. */
  group?: string;
  present: boolean;
  kind?: string | null;
  /** The page size the recall ran with (the reference pool is its first k candidates). */
  k: number;
  /** The stored merged candidate list, in rank order. */
  candidates: readonly StoredCandidate[];
}

export type FitShape = "top_score" | "prominence_and_top";

export interface FitOptions {
  folds?: number;
  seed?: number;
  poolSizes?: readonly (number | null)[];
  shapes?: readonly FitShape[];
  /** Prominence thresholds tried by the `prominence_and_top` shape. */
  prominenceGrid?: readonly number[];
  simplicityTolerance?: number;
  /** Half-width (cosine units) of the window balanced accuracy is averaged over when choosing a cut. */
  smoothing?: number;
  /** Kinds reported apart and left out of the objective. */
  apartKinds?: readonly string[];
  name?: string;
}

export interface FittedRule {
  shape: FitShape;
  pool_size: number | null;
  thresholds: Thresholds;
  train_balanced_accuracy: number | null;
}

export interface KindReport {
  count: number;
  present: number;
  absent: number;
  /** Share of correct triage calls (present → worth reading, absent → go external). */
  fitted_accuracy: number | null;
  reference_accuracy: number | null;
  fitted_worth_reading: number;
  reference_worth_reading: number;
}

export interface FitResult extends FittedRule {
  estimate: {
    balanced_accuracy: number | null;
    train_balanced_accuracy: number | null;
    folds: number;
    fold_scores: (number | null)[];
  };
  confusion: LevelConfusion;
  reference: { balanced_accuracy: number | null; confusion: LevelConfusion };
  by_kind: Record<string, KindReport>;
  /** Every shape's cross-validated estimate, the evidence for the one chosen. */
  shapes: {
    shape: FitShape;
    balanced_accuracy: number | null;
    train_balanced_accuracy: number | null;
    pool_size: number | null;
  }[];
  examples: number;
  /** Examples in the objective (present + absent, apart kinds excluded). */
  used: number;
  /** The signals at the fitted pool size, for drawing the rule on the distributions. */
  points: { top: number | null; prominence: number | null; present: boolean; kind: string | null }[];
}

export const DEFAULT_POOL_SIZES: readonly (number | null)[] = [10, 20, 5, null];
export const DEFAULT_PROMINENCE_GRID: readonly number[] = Array.from(
  { length: 20 },
  (_, i) => Math.round((i + 1) * 0.02 * 100) / 100,
);
const DEFAULTS = {
  folds: 5,
  seed: 1,
  shapes: ["top_score", "prominence_and_top"] as readonly FitShape[],
  simplicityTolerance: 0.01,
  smoothing: 0.05,
  apartKinds: ["near_miss"] as readonly string[],
};

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

interface CutChoice {
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
function bestCut(signals: readonly PoolSignals[], present: readonly boolean[], mp: number, smoothing: number): CutChoice {
  let pos = 0;
  let neg = 0;
  let tpFixed = 0;
  let fpFixed = 0;
  const posTops: number[] = [];
  const negTops: number[] = [];
  signals.forEach((s, i) => {
    const p = present[i]!;
    p ? pos++ : neg++;
    const call = callFor(s, mp);
    if (call === "forced") p ? tpFixed++ : fpFixed++;
    else if (call === "cut") (p ? posTops : negTops).push(s.top as number);
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

function signalsAt(examples: readonly FitExample[], poolSize: number | null): PoolSignals[] {
  return examples.map((e) => poolSignals(confidenceInputFromCandidates(e.candidates, poolSize ?? e.k)));
}

interface SignalCache {
  get(poolSize: number | null): PoolSignals[];
}

function cacheFor(examples: readonly FitExample[]): SignalCache {
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
function fitRule(
  cache: SignalCache,
  index: readonly number[],
  present: readonly boolean[],
  o: Required<Omit<FitOptions, "name">> & { name: string },
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

/** Stratified (by present), grouped fold assignment, deterministic for a seed. */
export function assignFolds(examples: readonly FitExample[], folds: number, seed: number): number[] {
  const groups = new Map<string, { present: boolean; members: number[] }>();
  examples.forEach((e, i) => {
    const key = e.group ?? `#${i}`;
    const g = groups.get(key);
    if (g) g.members.push(i);
    else groups.set(key, { present: e.present, members: [i] });
  });
  const rng = mulberry32(seed);
  const out = new Array<number>(examples.length).fill(0);
  for (const cls of [true, false]) {
    const keys = [...groups.entries()].filter(([, g]) => g.present === cls).map(([k]) => k);
    for (let i = keys.length - 1; i > 0; i--) {
      const j = Math.floor(rng() * (i + 1));
      [keys[i], keys[j]] = [keys[j]!, keys[i]!];
    }
    keys.forEach((key, n) => {
      for (const m of groups.get(key)!.members) out[m] = n % folds;
    });
  }
  return out;
}

function mulberry32(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** Cross-validated balanced accuracy of fitting with these options (pooled held-out calls). */
function crossValidate(
  examples: readonly FitExample[],
  cache: SignalCache,
  used: readonly number[],
  o: Required<Omit<FitOptions, "name">> & { name: string },
): { ba: number | null; folds: number; fold_scores: (number | null)[] } {
  const present = examples.map((e) => e.present);
  const groupsOf = (cls: boolean) =>
    new Set(used.filter((i) => present[i] === cls).map((i) => examples[i]!.group ?? `#${i}`)).size;
  const folds = Math.min(o.folds, groupsOf(true), groupsOf(false));
  if (folds < 2) return { ba: null, folds: 0, fold_scores: [] };
  const usedExamples = used.map((i) => examples[i]!);
  const foldOf = assignFolds(usedExamples, folds, o.seed);
  const calls: { present: boolean; worth: boolean }[] = [];
  const foldScores: (number | null)[] = [];
  for (let f = 0; f < folds; f++) {
    const train = used.filter((_, n) => foldOf[n] !== f);
    const test = used.filter((_, n) => foldOf[n] === f);
    const rule = fitRule(cache, train, present, o);
    const signals = cache.get(rule.pool_size);
    const foldCalls = test.map((i) => ({ present: present[i]!, worth: worthReading(signals[i]!, rule.thresholds) }));
    calls.push(...foldCalls);
    foldScores.push(balancedAccuracy(countsFromCalls(foldCalls)));
  }
  return { ba: balancedAccuracy(countsFromCalls(calls)), folds, fold_scores: foldScores };
}

function levelOf(e: FitExample, t: Thresholds, poolSize: number | null): Level {
  return computeConfidence(confidenceInputFromCandidates(e.candidates, poolSize ?? e.k), t).level;
}

const worth = (l: Level) => l === "high" || l === "moderate";

/** Fits a profile. Throws when the objective has no present or no absent example. */
export function fitProfile(examples: readonly FitExample[], options: FitOptions = {}): FitResult {
  const o = {
    folds: options.folds ?? DEFAULTS.folds,
    seed: options.seed ?? DEFAULTS.seed,
    poolSizes: options.poolSizes ?? DEFAULT_POOL_SIZES,
    shapes: options.shapes ?? DEFAULTS.shapes,
    prominenceGrid: options.prominenceGrid ?? DEFAULT_PROMINENCE_GRID,
    simplicityTolerance: options.simplicityTolerance ?? DEFAULTS.simplicityTolerance,
    smoothing: options.smoothing ?? DEFAULTS.smoothing,
    apartKinds: options.apartKinds ?? DEFAULTS.apartKinds,
    name: options.name ?? "fitted",
  };
  const apart = new Set(o.apartKinds);
  const used = examples.flatMap((e, i) => (e.kind && apart.has(e.kind) ? [] : [i]));
  const present = examples.map((e) => e.present);
  if (!used.some((i) => present[i]) || !used.some((i) => !present[i])) {
    throw new FitInputError("A fit needs at least one labeled present and one labeled absent recall with a stored pool.");
  }
  const cache = cacheFor(examples);

  const shapes = o.shapes.map((shape) => {
    const so = { ...o, shapes: [shape] };
    const cv = crossValidate(examples, cache, used, so);
    const rule = fitRule(cache, used, present, so);
    return { shape, cv, rule };
  });
  const bestCv = Math.max(...shapes.map((s) => s.cv.ba ?? -1));
  // Shapes are listed simplest first.
  const chosen = shapes.find((s) => (s.cv.ba ?? -1) >= bestCv - o.simplicityTolerance) ?? shapes[0]!;
  const rule = chosen.rule;

  const confusion = emptyConfusion();
  const reference = emptyConfusion();
  const byKind: Record<string, KindReport> = {};
  const signals = cache.get(rule.pool_size);
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
    e.present ? r.present++ : r.absent++;
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
    ...rule,
    estimate: {
      balanced_accuracy: chosen.cv.ba,
      train_balanced_accuracy: balancedAccuracy(countsFromConfusion(confusion)),
      folds: chosen.cv.folds,
      fold_scores: chosen.cv.fold_scores,
    },
    confusion,
    reference: { balanced_accuracy: balancedAccuracy(countsFromConfusion(reference)), confusion: reference },
    by_kind: byKind,
    shapes: shapes.map((s) => ({
      shape: s.shape,
      balanced_accuracy: s.cv.ba,
      train_balanced_accuracy: s.rule.train_balanced_accuracy,
      pool_size: s.rule.pool_size,
    })),
    examples: examples.length,
    used: used.length,
    points,
  };
}

/** Labels that cannot be fitted (no present or no absent example). */
export class FitInputError extends Error {
  override readonly name = "FitInputError";
}

/** Balanced accuracy and the level matrix of a given profile on labeled examples (apart kinds excluded). */
export function evaluateProfile(
  examples: readonly FitExample[],
  profile: { thresholds: Thresholds; pool_size: number | null },
  apartKinds: readonly string[] = DEFAULTS.apartKinds,
): { balanced_accuracy: number | null; confusion: LevelConfusion } {
  const apart = new Set(apartKinds);
  const confusion = emptyConfusion();
  for (const e of examples) {
    if (e.kind && apart.has(e.kind)) continue;
    confusion[levelOf(e, profile.thresholds, profile.pool_size)][e.present ? "present" : "absent"]++;
  }
  return { balanced_accuracy: balancedAccuracy(countsFromConfusion(confusion)), confusion };
}
