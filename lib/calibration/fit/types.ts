/** The fit's inputs, options and result shapes, and its defaults. Pure. */
import type { Thresholds } from "@/lib/recall/thresholds";
import type { StoredCandidate } from "../level";
import type { LevelConfusion } from "../metrics";
import type { RecallSignals } from "../model/features";

export interface FitExample {
  /** Examples sharing a group (one query logged at several k) stay in one fold. */
  group?: string;
  present: boolean;
  kind?: string | null;
  /** The page size the recall ran with (the reference pool is its first k candidates). */
  k: number;
  /** The stored merged candidate list, in rank order. */
  candidates: readonly StoredCandidate[];
  /** The verdict's signals as the recall logged them (with the keyword evidence), when it did. */
  signals?: RecallSignals | null;
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

/** The options with every default filled in. */
export type ResolvedFitOptions = Required<FitOptions>;

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
/** Near-misses: no bi-encoder signal separates them, so they are reported apart. */
export const DEFAULT_APART_KINDS: readonly string[] = ["near_miss"];

export function resolveFitOptions(options: FitOptions = {}): ResolvedFitOptions {
  return {
    folds: options.folds ?? 5,
    seed: options.seed ?? 1,
    poolSizes: options.poolSizes ?? DEFAULT_POOL_SIZES,
    // Simplest first: the choice among shapes relies on this order.
    shapes: options.shapes ?? ["top_score", "prominence_and_top"],
    prominenceGrid: options.prominenceGrid ?? DEFAULT_PROMINENCE_GRID,
    simplicityTolerance: options.simplicityTolerance ?? 0.01,
    smoothing: options.smoothing ?? 0.05,
    apartKinds: options.apartKinds ?? DEFAULT_APART_KINDS,
    name: options.name ?? "fitted",
  };
}

/** Labels that cannot be fitted (no present or no absent example). */
export class FitInputError extends Error {
  override readonly name = "FitInputError";
}
