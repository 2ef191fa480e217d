/**
 * The label-free prior of a labeled fit (lib/calibration/README.md "Threshold profiles"): while a
 * store's labels are few, its verdict model is fitted on the labels plus the examples its last
 * label-free calibration ran — the probes (nothing relevant stored) and the queries made from its
 * own memories (something relevant stored) — down-weighted so the prior counts as a fixed number
 * of labels of each class. Labels dominate as they grow; past PRIOR_UNTIL_LABELS of each class the
 * prior is left out. Cross-validation holds out labels only: the prior is in every training fold
 * and in no test fold, so the estimate is still measured on labels. Pure.
 *
 * The two sides are not equally faithful. The probes are the store's null by construction (the
 * label-free calibration rests on them), so they stand in for off-topic queries well. A query made
 * from a memory's own words is easier than a user's question about it, so as a present example it
 * pulls the cut up and makes real present queries read less likely. So the memory-made side is
 * used only while the present labels are themselves too few to trust (fewer than
 * MIN_LABELS_PER_CLASS); the probe side while the absent labels are fewer than PRIOR_UNTIL_LABELS
 * (in labeled sets the absent class is usually the scarce one).
 *
 * The constants follow from the model and the rule, not from any one corpus:
 * - PRIOR_PSEUDO_LABELS = MIN_LABELS_PER_CLASS (20): at the fewest labels a fit is trusted from,
 *   labels and prior weigh the same; below it the prior leads (a fit from five labels of a class
 *   is mostly noise), above it the labels do, so the prior never outweighs a label set the app
 *   would trust.
 * - PRIOR_UNTIL_LABELS = 100: the model has seven parameters (six weights and the intercept), and
 *   the usual rule of about ten events per parameter for a stable logistic fit asks for ~70 of the
 *   rarer class; 100 leaves a margin. There the prior weighs 20 / 120 = 1/6 of the class, so
 *   leaving it out past the gate is a small step, and a large label set is judged by its own
 *   labels alone.
 */
import { FEATURE_NAMES, type RecallSignals } from "./features";

/** Fewer labels of a class than this and a labeled fit is marked, loudly (the rule). */
export const MIN_LABELS_PER_CLASS = 20;
/** Labels of each class the prior counts as (the fewest trusted labels of a class). */
export const PRIOR_PSEUDO_LABELS = MIN_LABELS_PER_CLASS;
/** From this many labels of each class on, a labeled fit leaves the prior out. */
export const PRIOR_UNTIL_LABELS = 100;

/** A store's label-free examples: its probes' signals (absent) and its memory-made queries' (present). */
export interface LabelFreeExamples {
  probes: readonly RecallSignals[];
  memories: readonly RecallSignals[];
}

/** The prior a fit takes: label-free examples and the labels each class of them counts as. */
export interface VerdictPrior {
  examples: LabelFreeExamples;
  pseudoLabels: number;
  /** Where the examples come from (e.g. "store notes, calibrated 2026-12-03"): said in the report. */
  source?: string;
}

/** What a fit with a prior says about it. */
export interface PriorUse {
  /** Labels of each class the prior counted as. */
  pseudo_labels: number;
  /** Label-free examples it held. */
  probes: number;
  memories: number;
  /** The prior's share of the fit's weight (the mean of its share in each class, the classes weighing alike). */
  weight: number;
  source?: string | null;
}

/**
 * The prior for a fit from `present` and `absent` labels: the probes while the absent labels are
 * fewer than PRIOR_UNTIL_LABELS, the memory-made queries while the present labels are fewer than
 * MIN_LABELS_PER_CLASS; null when neither side is left.
 */
export function priorFor(
  labels: { present: number; absent: number },
  examples: LabelFreeExamples | null | undefined,
  source?: string,
): VerdictPrior | null {
  if (!examples) return null;
  const kept: LabelFreeExamples = {
    probes: labels.absent < PRIOR_UNTIL_LABELS ? examples.probes : [],
    memories: labels.present < MIN_LABELS_PER_CLASS ? examples.memories : [],
  };
  if (kept.probes.length + kept.memories.length === 0) return null;
  return { examples: kept, pseudoLabels: PRIOR_PSEUDO_LABELS, ...(source ? { source } : {}) };
}

/** The prior's share of a fit from these labels (0 for a class the prior has no example of). */
export function priorWeight(labels: { present: number; absent: number }, prior: VerdictPrior): number {
  const share = (n: number, m: number) => (m > 0 ? prior.pseudoLabels / (n + prior.pseudoLabels) : 0);
  return (share(labels.present, prior.examples.memories.length) + share(labels.absent, prior.examples.probes.length)) / 2;
}

/** How a labeled fit was made, in words: "24 labels + label-free prior (weight 0.45)". */
export function fitBasis(labels: number, prior: Pick<PriorUse, "weight"> | null | undefined): string {
  const n = `${labels} label${labels === 1 ? "" : "s"}`;
  return prior ? `${n} + label-free prior (weight ${prior.weight.toFixed(2)})` : n;
}

/** Label-free examples as kept in the database: one row of the features' values per recall. */
export interface PackedExamples {
  features: string[];
  probes: (number | null)[][];
  memories: (number | null)[][];
}

export function packExamples(examples: LabelFreeExamples): PackedExamples {
  const row = (s: RecallSignals) => FEATURE_NAMES.map((name) => s[name]);
  return { features: [...FEATURE_NAMES], probes: examples.probes.map(row), memories: examples.memories.map(row) };
}

/** The examples back, or null when they were kept under other features (a model of another shape). */
export function unpackExamples(packed: unknown): LabelFreeExamples | null {
  const p = packed as Partial<PackedExamples> | null | undefined;
  if (!p || !Array.isArray(p.features) || !Array.isArray(p.probes) || !Array.isArray(p.memories)) return null;
  if (p.features.join() !== FEATURE_NAMES.join()) return null;
  const signals = (row: (number | null)[]): RecallSignals =>
    Object.fromEntries(FEATURE_NAMES.map((name, j) => [name, typeof row[j] === "number" ? row[j] : null])) as RecallSignals;
  return { probes: p.probes.map(signals), memories: p.memories.map(signals) };
}
