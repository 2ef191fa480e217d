/**
 * The shapes of the confidence computation (confidence.ts): its input and limits, the trace of
 * the rules that fired, the reference's wire block and the dashboard's richer result.
 */
import type { Level } from "./level";

/**
 * Which rule family decided the level:
 * - `semantic`: ≥ 2 raw cosines, prominence or absolute bands;
 * - `single_semantic`: exactly one raw cosine, strong-cosine cutoff;
 * - `zscore`: no raw cosines, ≥ 2 hybrid/BM25 scores, z-score bands;
 * - `single`: no raw cosines, one score, always moderate;
 * - `empty`: no candidates, none.
 */
export type Basis = "semantic" | "single_semantic" | "zscore" | "single" | "empty";

/** Upper bound on each score list (hybrid scores, raw cosines). */
export const MAX_POOL_SCORES = 10_000;

/**
 * Upper bound on |score|. Cosines lie in [-1, 1] and BM25 scores are far below this; the bound
 * keeps every derived number (means, z-scores) finite.
 */
export const MAX_ABS_SCORE = 1e15;

export interface ConfidenceInput {
  /** For every pool candidate: its `hybrid_score`, or else its `score` (nulls skipped). */
  hybridScores: readonly number[];
  /** For every pool candidate with a non-null `semantic_score_raw`: that raw cosine. */
  semanticRaw?: readonly number[] | null;
}

/**
 * One rule that fired, in evaluation order. Values are unrounded.
 *
 * Band steps (`prominence_band`, `absolute_bands`, `zscore_band`) share one convention: for a band
 * other than "none", `value >= threshold` where `threshold` is that band's lower edge; for "none",
 * `value < threshold` where `threshold` is the lowest band's edge.
 */
export type TraceStep =
  /** Always first: the path taken and the pool sizes. */
  | { rule: "basis"; basis: Basis; candidate_count: number; semantic_count: number }
  /** Nothing to judge: level none. */
  | { rule: "empty_pool"; band: "none" }
  /** One raw cosine: moderate when `value >= threshold` (strong_abs_cosine), else low. */
  | { rule: "single_candidate"; path: "semantic"; band: "moderate" | "low"; value: number; threshold: number }
  /** One score and no cosines: always moderate. */
  | { rule: "single_candidate"; path: "fallback"; band: "moderate"; value: number; threshold: null }
  /**
   * The background: the pool minus one copy of the top. `top_ties` counts copies of the top that
   * stay in the background.
   */
  | { rule: "background"; count: number; mean: number; std: number; top: number; top_ties: number }
  /** Semantic path: std ≤ std_eps, so `relative_margin` is null (informational only). */
  | { rule: "flat_background"; path: "semantic"; std: number; threshold: number; effect: "relative_margin_null" }
  /** Fallback path: std ≤ std_eps, so z is the relative gap (top − mean) / denominator. */
  | { rule: "flat_background"; path: "fallback"; std: number; threshold: number; effect: "relative_gap"; denominator: number }
  /** Semantic path: prominence is usable only when the background mean is strictly above bg_eps. */
  | { rule: "background_frame"; usable: boolean; value: number; threshold: number }
  /**
   * Prominence reached the `blocked` band (`prominence >= prominence_threshold`) but the top
   * cosine is below that band's absolute guard (`value < threshold`).
   */
  | {
      rule: "absolute_guard";
      blocked: "high" | "moderate";
      value: number;
      threshold: number;
      prominence: number;
      prominence_threshold: number;
    }
  /** The prominence band chosen (value = prominence). */
  | { rule: "prominence_band"; band: Level; value: number; threshold: number }
  /** No usable background: the band from the top cosine alone (value = top cosine). */
  | { rule: "absolute_bands"; band: Level; value: number; threshold: number }
  /** The top cosine is ≥ strong_abs_cosine, lifting a low/none verdict to moderate. */
  | { rule: "near_duplicate_floor"; from: "low" | "none"; band: "moderate"; value: number; threshold: number }
  /** Fallback verdict from the z-score (value = z). */
  | { rule: "zscore_band"; band: Level; value: number; threshold: number; method: "std" | "relative_gap" };

export type TraceRule = TraceStep["rule"];

/** The reference's `RecallConfidence` wire keys. */
export interface RecallConfidenceBlock {
  level: Level;
  top_score: number | null;
  prominence: number | null;
  relative_margin: number | null;
  result_count: number;
  rationale: string;
}

export interface ConfidenceResult extends RecallConfidenceBlock {
  /** Mean of the background (unrounded); null for empty and single-candidate pools. */
  background_mean: number | null;
  /** Population std dev of the background (unrounded; 0 for a one-item background); null when undefined. */
  background_std: number | null;
  basis: Basis;
  /** Name of the threshold profile used. */
  thresholds: string;
  trace: TraceStep[];
}
