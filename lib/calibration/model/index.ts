/**
 * The store's verdict (lib/calibration/README.md "Threshold profiles"): a calibrated probability that
 * something relevant is stored for the query, from several signals of the recall
 * (features.ts) combined by a logistic model (logistic.ts), and a level that is a cut on that
 * probability, so "high" says how often something relevant was there. Fitted with stratified,
 * grouped cross-validation (fit/folds.ts); the estimate it reports is held-out only. Pure and
 * client-safe.
 *
 * The classes are weighted to even odds in the fit: the probability is stated for a store where
 * a query is as likely to have an answer as not, so it does not lean on the labeled set's own
 * mix. Near-misses are left out of the fit and reported apart: no bi-encoder signal separates
 * them from present queries.
 */
import type { Level } from "@/lib/recall/level";
import { FEATURE_NAMES, featureRow, type FeatureName, type RecallSignals } from "./features";
import { fitLogistic, predictLogistic, type LogisticModel } from "./logistic";
import { priorWeight, type PriorUse, type VerdictPrior } from "./prior";
import { calibrationEstimate, reliability, type CalibrationEstimate, type ReliabilityBin, type Scored } from "./reliability";
import { relativeSignals, type StoreNull } from "./store-null";
import { assignFolds } from "../fit/folds";

export * from "./features";
export * from "./prior";
export * from "./reliability";
export * from "./store-null";
export { fitLogistic, predictLogistic, sigmoid, type LogisticModel } from "./logistic";

/** Probability cuts of the levels: high ≥ 0.85, moderate ≥ 0.6, low ≥ 0.3, else none. */
export interface LevelCuts {
  high: number;
  moderate: number;
  low: number;
}
export const DEFAULT_CUTS: Readonly<LevelCuts> = Object.freeze({ high: 0.85, moderate: 0.6, low: 0.3 });

/** What the levels mean, in words a user can read. */
export const LEVEL_MEANINGS: Readonly<Record<Level, string>> = Object.freeze({
  high: "something relevant is very likely stored (≥ 85 %)",
  moderate: "something relevant is likely stored (60–85 %)",
  low: "unlikely (30–60 %): check elsewhere too",
  none: "nothing relevant is likely stored (< 30 %)",
});

export type CalibrationMethod = "shipped" | "label_free" | "labels";

export interface VerdictModel {
  kind: "logistic";
  features: FeatureName[];
  logistic: LogisticModel;
  /** Per feature: the value a missing signal takes (its training mean: no pull either way). */
  fill: number[];
  cuts: LevelCuts;
  method: CalibrationMethod;
  /** Examples the model was fitted on (labels only: the prior's examples are under `prior`). */
  trained_on: { examples: number; present: number; absent: number };
  /** Set when a labeled fit leaned on the store's label-free examples (prior.ts). */
  prior?: PriorUse | null;
  /** The cross-validated figures (held-out predictions only); null when too few for folds. */
  estimate: CalibrationEstimate | null;
  folds: number;
  /**
   * Set when the model reads store-relative signals (store-null.ts): the null of the store it was
   * fitted on, used for a store that has not calibrated itself yet.
   */
  relative_to: StoreNull | null;
  /**
   * The same fit without the keyword arm's signals, for a recall that has none (a semantic-only
   * recall, a remote store's stated block): the training mean in their place would read as
   * middling keyword evidence, which is not what a missing arm means.
   */
  without_keyword?: { logistic: LogisticModel; fill: number[] } | null;
  /** Set on a fit from too few labels (fewer than MIN_LABELS_PER_CLASS of a class): said wherever it is shown. */
  warning?: string | null;
}

const KEYWORD_FEATURES: readonly FeatureName[] = ["bm25_ratio", "idf_coverage"];
const withoutKeyword = (s: RecallSignals): RecallSignals => ({ ...s, bm25_ratio: null, idf_coverage: null });

export interface VerdictExample {
  signals: RecallSignals;
  present: boolean;
  /** Examples sharing a group (one query at several k) stay in one fold. */
  group?: string;
  kind?: string | null;
}

export interface VerdictFitOptions {
  folds?: number;
  seed?: number;
  l2?: number;
  cuts?: LevelCuts;
  method?: CalibrationMethod;
  apartKinds?: readonly string[];
  /** Fit on store-relative signals: every example's signals measured against this null. */
  relativeTo?: StoreNull | null;
  /**
   * Label-free examples the fit leans on (prior.ts): added to every training fold, never held out,
   * weighted to count as `pseudoLabels` labels of each class.
   */
  prior?: VerdictPrior | null;
}

export interface VerdictFit {
  model: VerdictModel;
  /** Held-out probability of every example (near-misses included, scored by the fold's model). */
  cv: (Scored & { kind: string | null })[];
  reliability: ReliabilityBin[];
  /** Near-misses (apart kinds) scored held-out, reported apart. */
  apart: Record<string, CalibrationEstimate>;
}

/** A labeled fit's verdict model as `POST /api/profiles/fit` answers it under `verdict`. */
export interface VerdictFitReport {
  model: VerdictModel;
  /** "N labels" or "N labels + label-free prior (weight w)" (prior.ts). */
  basis: string;
  /** Why a fit from few labels had no prior, else null. */
  prior_note: string | null;
  reliability: ReliabilityBin[];
  apart: Record<string, CalibrationEstimate>;
  /** Fewer than MIN_LABELS_PER_CLASS labels of a class. */
  warning: string | null;
}

export class VerdictFitError extends Error {
  override readonly name = "VerdictFitError";
}

export function levelForProbability(p: number, cuts: LevelCuts = DEFAULT_CUTS): Level {
  return p >= cuts.high ? "high" : p >= cuts.moderate ? "moderate" : p >= cuts.low ? "low" : "none";
}

/** The verdict of one recall; `storeNullOf` is the store's own null where it calibrated itself. */
export function predictVerdict(
  model: VerdictModel,
  signals: RecallSignals,
  storeNullOf?: StoreNull | null,
): { probability: number; level: Level } {
  const nul = storeNullOf ?? model.relative_to;
  const row = nul && model.relative_to ? relativeSignals(signals, nul) : signals;
  const sub = KEYWORD_FEATURES.every((f) => signals[f] === null) && model.without_keyword ? model.without_keyword : model;
  const probability = predictLogistic(sub.logistic, featureRow(row, sub.fill));
  return { probability: Math.round(probability * 1e4) / 1e4, level: levelForProbability(probability, model.cuts) };
}

/** Label-free examples as fit rows: probes absent, memory-made queries present. */
function priorRows(prior: VerdictPrior | null, nul: StoreNull | null): VerdictExample[] {
  if (!prior) return [];
  const rel = (s: RecallSignals) => (nul ? relativeSignals(s, nul) : s);
  return [
    ...prior.examples.probes.map((s) => ({ signals: rel(s), present: false })),
    ...prior.examples.memories.map((s) => ({ signals: rel(s), present: true })),
  ];
}

/**
 * One logistic fit. Labels weigh 1 each and each class of the prior's examples `pseudoLabels` in
 * all; then each class is scaled to half the total (even odds). The penalty is set against that
 * effective count, not the row count, so a few hundred light prior rows do not weaken it.
 */
function fitOnce(
  examples: readonly VerdictExample[],
  l2: number,
  prior: { rows: readonly VerdictExample[]; pseudoLabels: number } | null = null,
): { logistic: LogisticModel; fill: number[] } {
  const rows = prior ? [...examples, ...prior.rows] : examples;
  const count = (list: readonly VerdictExample[], cls: boolean) => list.filter((e) => e.present === cls).length;
  const priorCount = { true: prior ? count(prior.rows, true) : 0, false: prior ? count(prior.rows, false) : 0 };
  const base = rows.map((e, i) => (i < examples.length ? 1 : prior!.pseudoLabels / priorCount[e.present ? "true" : "false"]));
  const classTotal = { true: 0, false: 0 };
  rows.forEach((e, i) => (classTotal[e.present ? "true" : "false"] += base[i]!));
  const effective = classTotal.true + classTotal.false;
  // Even odds: each class weighs half of the effective total.
  const weights = rows.map((e, i) => (base[i]! * effective) / (2 * classTotal[e.present ? "true" : "false"]));
  // The fill is the mean over the examples as they came (a prior row at its share), as before the prior.
  const fill = FEATURE_NAMES.map((name) => {
    let sum = 0;
    let weight = 0;
    rows.forEach((e, i) => {
      const v = e.signals[name];
      if (v === null) return;
      sum += v * base[i]!;
      weight += base[i]!;
    });
    return weight > 0 ? sum / weight : 0;
  });
  const logistic = fitLogistic(
    rows.map((e) => featureRow(e.signals, fill)),
    rows.map((e) => e.present),
    { l2: (l2 * rows.length) / effective, sampleWeights: weights },
  );
  return { logistic, fill };
}

/**
 * Fits the verdict model on every usable example and estimates it by k-fold cross-validation.
 * Throws VerdictFitError without a present and an absent example outside the apart kinds.
 */
export function fitVerdictModel(input: readonly VerdictExample[], options: VerdictFitOptions = {}): VerdictFit {
  const nul = options.relativeTo ?? null;
  const examples = nul ? input.map((e) => ({ ...e, signals: relativeSignals(e.signals, nul) })) : input;
  const apart = new Set(options.apartKinds ?? ["near_miss"]);
  const cuts = options.cuts ?? DEFAULT_CUTS;
  const l2 = options.l2 ?? 1;
  const used = examples.filter((e) => !(e.kind && apart.has(e.kind)));
  const present = used.filter((e) => e.present).length;
  const absent = used.length - present;
  if (present === 0 || absent === 0) {
    throw new VerdictFitError("A fit needs at least one present and one absent example (near-misses are left out).");
  }
  const prior = options.prior ?? null;
  const rows = priorRows(prior, nul);
  const withPrior = prior && rows.length ? { rows, pseudoLabels: prior.pseudoLabels } : null;
  const full = fitOnce(used, l2, withPrior);
  const noKeyword = fitOnce(
    used.map((e) => ({ ...e, signals: withoutKeyword(e.signals) })),
    l2,
    withPrior && { ...withPrior, rows: withPrior.rows.map((e) => ({ ...e, signals: withoutKeyword(e.signals) })) },
  );

  const groups = (cls: boolean) => new Set(used.flatMap((e, i) => (e.present === cls ? [e.group ?? `#${i}`] : []))).size;
  const folds = Math.min(options.folds ?? 5, groups(true), groups(false));
  const cv: (Scored & { kind: string | null })[] = [];
  const apartScored: Record<string, Scored[]> = {};
  if (folds >= 2) {
    const foldOf = assignFolds(used, folds, options.seed ?? 1);
    const usedIndex = new Map(used.map((e, i) => [e, i]));
    // A near-miss goes to the fold of its position among all examples, deterministically.
    for (let f = 0; f < folds; f++) {
      const train = used.filter((_, i) => foldOf[i] !== f);
      const m = fitOnce(train, l2, withPrior);
      examples.forEach((e, n) => {
        const i = usedIndex.get(e);
        const inFold = i === undefined ? n % folds === f : foldOf[i] === f;
        if (!inFold) return;
        const probability = predictLogistic(m.logistic, featureRow(e.signals, m.fill));
        if (i === undefined) (apartScored[e.kind!] ??= []).push({ probability, present: e.present });
        else cv.push({ probability, present: e.present, kind: e.kind ?? null });
      });
    }
  }
  const levelOf = (p: number) => levelForProbability(p, cuts);
  const model: VerdictModel = {
    kind: "logistic",
    features: [...FEATURE_NAMES],
    logistic: full.logistic,
    fill: full.fill,
    cuts: { ...cuts },
    method: options.method ?? "labels",
    trained_on: { examples: used.length, present, absent },
    prior:
      prior && withPrior
        ? {
            pseudo_labels: prior.pseudoLabels,
            probes: prior.examples.probes.length,
            memories: prior.examples.memories.length,
            weight: Math.round(priorWeight({ present, absent }, prior) * 1e4) / 1e4,
            source: prior.source ?? null,
          }
        : null,
    estimate: cv.length ? calibrationEstimate(cv, levelOf) : null,
    folds: folds >= 2 ? folds : 0,
    relative_to: nul,
    without_keyword: noKeyword,
  };
  return {
    model,
    cv,
    reliability: reliability(cv),
    apart: Object.fromEntries(Object.entries(apartScored).map(([kind, s]) => [kind, calibrationEstimate(s, levelOf)])),
  };
}
