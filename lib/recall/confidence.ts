/**
 * The recall confidence block, reproducing the reference memory service exactly
 * (docs/reference-rules.md: "The rules", "Numbers", "Rationale templates", "Golden cases").
 *
 * Rule order: (1) the semantic path if any raw cosine exists, otherwise the z-score fallback;
 * (2) a single semantic candidate is judged by the strong-cosine cutoff alone; (3) otherwise the
 * prominence bands when the background mean is usable (> bg_eps), or the absolute cosine bands;
 * (4) the near-duplicate floor last. Every comparison is `>=` on unrounded values; rounding
 * (`round3`, `format2`) is for display only.
 *
 * Beyond the reference's wire keys the result carries `background_mean`, `background_std`,
 * `basis`, the profile name and a machine-readable `trace` of the rules that fired.
 */
import {
  MAX_ABS_SCORE,
  MAX_POOL_SCORES,
  type ConfidenceInput,
  type ConfidenceResult,
  type RecallConfidenceBlock,
  type TraceStep,
} from "./confidence-types";
import { RecallInputError, summarize, type RecallIssue } from "./errors";
import type { Level } from "./level";
import { fmean, format2, pstdev, round3 } from "./numeric";
import { DEFAULT_THRESHOLDS, resolveThresholds, type Thresholds } from "./thresholds";

// The level and the shapes have their own modules; the domain's callers know them from here.
export * from "./confidence-types";
export * from "./level";

// ---------------------------------------------------------------------------------------------
// Input validation

function checkScores(value: unknown, field: string, issues: RecallIssue[]): number[] {
  if (!Array.isArray(value)) {
    issues.push({ path: [field], message: "must be an array of numbers" });
    return [];
  }
  const list: unknown[] = value;
  if (list.length > MAX_POOL_SCORES) {
    throw new RecallInputError("too_many_scores", `${field} has ${list.length} scores; at most ${MAX_POOL_SCORES} are allowed`, [
      { path: [field], message: `at most ${MAX_POOL_SCORES} scores are allowed, got ${list.length}` },
    ]);
  }
  const out: number[] = [];
  for (let i = 0; i < list.length; i++) {
    const x = list[i];
    if (typeof x !== "number") {
      issues.push({ path: [field, i], message: `must be a number, got ${x === null ? "null" : typeof x}` });
    } else if (Number.isNaN(x)) {
      issues.push({ path: [field, i], message: "must be a finite number, got NaN" });
    } else if (!Number.isFinite(x)) {
      issues.push({ path: [field, i], message: `must be a finite number, got ${x > 0 ? "Infinity" : "-Infinity"}` });
    } else if (Math.abs(x) > MAX_ABS_SCORE) {
      issues.push({ path: [field, i], message: `must be within ±${MAX_ABS_SCORE}` });
    } else {
      out.push(x);
    }
  }
  return out;
}

function validateInput(input: unknown): { hybrid: number[]; semantic: number[] } {
  if (typeof input !== "object" || input === null) {
    throw new RecallInputError("invalid_scores", "Confidence input must be an object", [
      { path: [], message: "must be an object with hybridScores and optional semanticRaw" },
    ]);
  }
  const { hybridScores, semanticRaw } = input as { hybridScores?: unknown; semanticRaw?: unknown };
  const issues: RecallIssue[] = [];
  const hybrid = checkScores(hybridScores, "hybrid_scores", issues);
  const semantic = semanticRaw === undefined || semanticRaw === null ? [] : checkScores(semanticRaw, "semantic_raw", issues);
  if (issues.length > 0) throw new RecallInputError("invalid_scores", summarize("Invalid scores", issues), issues);
  return { hybrid, semantic };
}

// ---------------------------------------------------------------------------------------------
// The rules

const descending = (a: number, b: number): number => b - a; // stable, like Python sorted(reverse=True)

const SEMANTIC_NOTES: Record<Level, string> = {
  high: "top hit is a strong, clearly-separated match",
  moderate: "top hit is a plausible match",
  low: "top hit is weak — relevance uncertain, consider going external",
  none: "top hit barely exceeds the background — likely nothing relevant",
};

const FALLBACK_NOTES: Record<Level, string> = {
  high: "clear separation from background",
  moderate: "some separation from background",
  low: "weak separation — relevance uncertain",
  none: "top hit indistinguishable from background — likely nothing relevant",
};

const SINGLE_SEMANTIC_NOTES: Record<"moderate" | "low", string> = {
  moderate: "single strong absolute match, no background to corroborate",
  low: "single candidate; absolute match strength is modest",
};

export const RATIONALE_EMPTY = "No candidates retrieved — likely nothing relevant in this context.";
export const RATIONALE_SINGLE = "Single candidate — no background distribution to assess separation.";

interface Background {
  bg: number[];
  mean: number;
  std: number;
  step: TraceStep;
}

function background(sorted: readonly number[]): Background {
  const top = sorted[0] as number;
  const bg = sorted.slice(1); // excludes exactly one copy of the max
  const mean = fmean(bg);
  const std = bg.length > 1 ? pstdev(bg) : 0;
  let ties = 0;
  for (const x of bg) if (x === top) ties++;
  return { bg, mean, std, step: { rule: "background", count: bg.length, mean, std, top, top_ties: ties } };
}

function fromSemantic(sem: readonly number[], resultCount: number, t: Thresholds): ConfidenceResult {
  const top = sem[0] as number;
  const trace: TraceStep[] = [];

  if (sem.length === 1) {
    const level = top >= t.strong_abs_cosine ? "moderate" : "low";
    trace.push({ rule: "basis", basis: "single_semantic", candidate_count: resultCount, semantic_count: 1 });
    trace.push({ rule: "single_candidate", path: "semantic", band: level, value: top, threshold: t.strong_abs_cosine });
    return {
      level,
      top_score: round3(top),
      prominence: null,
      relative_margin: null,
      result_count: resultCount,
      rationale: `Single semantic candidate (cosine ${format2(top)}); ${SINGLE_SEMANTIC_NOTES[level]}.`,
      background_mean: null,
      background_std: null,
      basis: "single_semantic",
      thresholds: t.name,
      trace,
    };
  }

  trace.push({ rule: "basis", basis: "semantic", candidate_count: resultCount, semantic_count: sem.length });
  const { mean: meanBg, std: stdBg, step } = background(sem);
  trace.push(step);
  const z = stdBg > t.std_eps ? (top - meanBg) / stdBg : null;
  if (z === null) {
    trace.push({ rule: "flat_background", path: "semantic", std: stdBg, threshold: t.std_eps, effect: "relative_margin_null" });
  }

  let prominence: number | null;
  let level: Level;
  if (meanBg > t.bg_eps) {
    trace.push({ rule: "background_frame", usable: true, value: meanBg, threshold: t.bg_eps });
    const p = (top - meanBg) / meanBg;
    prominence = p;
    // The reference's if/else-if chain, with a trace entry whenever an absolute guard blocks a band.
    if (p >= t.high_prominence && top >= t.abs_moderate_cosine) {
      level = "high";
    } else {
      if (p >= t.high_prominence) {
        trace.push({
          rule: "absolute_guard",
          blocked: "high",
          value: top,
          threshold: t.abs_moderate_cosine,
          prominence: p,
          prominence_threshold: t.high_prominence,
        });
      }
      if (p >= t.moderate_prominence && top >= t.abs_low_cosine) {
        level = "moderate";
      } else {
        if (p >= t.moderate_prominence) {
          trace.push({
            rule: "absolute_guard",
            blocked: "moderate",
            value: top,
            threshold: t.abs_low_cosine,
            prominence: p,
            prominence_threshold: t.moderate_prominence,
          });
        }
        level = p >= t.low_prominence ? "low" : "none"; // no absolute guard on low
      }
    }
    const edge = { high: t.high_prominence, moderate: t.moderate_prominence, low: t.low_prominence, none: t.low_prominence };
    trace.push({ rule: "prominence_band", band: level, value: p, threshold: edge[level] });
  } else {
    // ~zero or negative background: no frame for a ratio, judge the top cosine alone.
    trace.push({ rule: "background_frame", usable: false, value: meanBg, threshold: t.bg_eps });
    prominence = null;
    if (top >= t.strong_abs_cosine) level = "high";
    else if (top >= t.abs_moderate_cosine) level = "moderate";
    else if (top >= t.abs_low_cosine) level = "low";
    else level = "none";
    const edge = { high: t.strong_abs_cosine, moderate: t.abs_moderate_cosine, low: t.abs_low_cosine, none: t.abs_low_cosine };
    trace.push({ rule: "absolute_bands", band: level, value: top, threshold: edge[level] });
  }

  if (top >= t.strong_abs_cosine && (level === "low" || level === "none")) {
    trace.push({ rule: "near_duplicate_floor", from: level, band: "moderate", value: top, threshold: t.strong_abs_cosine });
    level = "moderate";
  }

  const pText = prominence === null ? "n/a" : format2(prominence);
  return {
    level,
    top_score: round3(top),
    prominence: prominence === null ? null : round3(prominence),
    relative_margin: z === null ? null : round3(z),
    result_count: resultCount,
    rationale:
      `Top semantic cosine ${format2(top)}, prominence ${pText} above the candidate-pool mean ` +
      `(${format2(meanBg)}); ${SEMANTIC_NOTES[level]}.`,
    background_mean: meanBg,
    background_std: stdBg,
    basis: "semantic",
    thresholds: t.name,
    trace,
  };
}

function fallbackZ(s: readonly number[], t: Thresholds): ConfidenceResult {
  const trace: TraceStep[] = [];
  if (s.length === 0) {
    trace.push({ rule: "basis", basis: "empty", candidate_count: 0, semantic_count: 0 });
    trace.push({ rule: "empty_pool", band: "none" });
    return {
      level: "none",
      top_score: null,
      prominence: null,
      relative_margin: null,
      result_count: 0,
      rationale: RATIONALE_EMPTY,
      background_mean: null,
      background_std: null,
      basis: "empty",
      thresholds: t.name,
      trace,
    };
  }
  const top = s[0] as number;
  if (s.length === 1) {
    trace.push({ rule: "basis", basis: "single", candidate_count: 1, semantic_count: 0 });
    trace.push({ rule: "single_candidate", path: "fallback", band: "moderate", value: top, threshold: null });
    return {
      level: "moderate",
      top_score: top, // NOT rounded on the fallback path
      prominence: null,
      relative_margin: null,
      result_count: 1,
      rationale: RATIONALE_SINGLE,
      background_mean: null,
      background_std: null,
      basis: "single",
      thresholds: t.name,
      trace,
    };
  }

  trace.push({ rule: "basis", basis: "zscore", candidate_count: s.length, semantic_count: 0 });
  const { mean: meanBg, std: stdBg, step } = background(s);
  trace.push(step);
  let z: number;
  let method: "std" | "relative_gap";
  if (stdBg > t.std_eps) {
    z = (top - meanBg) / stdBg;
    method = "std";
  } else {
    const denominator = Math.abs(meanBg) > t.std_eps ? Math.abs(meanBg) : 1.0; // relative gap
    z = (top - meanBg) / denominator;
    method = "relative_gap";
    trace.push({
      rule: "flat_background",
      path: "fallback",
      std: stdBg,
      threshold: t.std_eps,
      effect: "relative_gap",
      denominator,
    });
  }
  const level: Level = z >= t.z_high ? "high" : z >= t.z_moderate ? "moderate" : z >= t.z_low ? "low" : "none";
  const edge = { high: t.z_high, moderate: t.z_moderate, low: t.z_low, none: t.z_low };
  trace.push({ rule: "zscore_band", band: level, value: z, threshold: edge[level], method });
  return {
    level,
    top_score: top, // NOT rounded on the fallback path
    prominence: null,
    relative_margin: round3(z),
    result_count: s.length,
    rationale:
      `Keyword-only pool: top hit sits ${format2(z)} background-std-devs above the candidate-pool ` +
      `background; ${FALLBACK_NOTES[level]}.`,
    background_mean: meanBg,
    background_std: stdBg,
    basis: "zscore",
    thresholds: t.name,
    trace,
  };
}

/**
 * Computes the confidence block for a candidate pool.
 *
 * @param input the pool's hybrid (or raw) scores and, where present, its raw cosines. Order does
 *   not matter. Each list holds at most `MAX_POOL_SCORES` finite numbers.
 * @param thresholds a partial profile merged over `DEFAULT_THRESHOLDS` and validated.
 * @throws RecallInputError (`invalid_scores`, `too_many_scores`) or ThresholdsError.
 */
export function computeConfidence(input: ConfidenceInput, thresholds?: Partial<Thresholds>): ConfidenceResult {
  const t = thresholds === undefined ? DEFAULT_THRESHOLDS : resolveThresholds(thresholds);
  const { hybrid, semantic } = validateInput(input);
  if (semantic.length > 0) {
    const sem = [...semantic].sort(descending);
    return fromSemantic(sem, hybrid.length > 0 ? hybrid.length : sem.length, t);
  }
  return fallbackZ([...hybrid].sort(descending), t);
}

/** The reference's wire block only (drops the dashboard's extra keys). */
export function toWireConfidence(result: RecallConfidenceBlock): RecallConfidenceBlock {
  const { level, top_score, prominence, relative_margin, result_count, rationale } = result;
  return { level, top_score, prominence, relative_margin, result_count, rationale };
}

/**
 * Background mean recovered from a remote block, whose pool cosines are not returned:
 * `top / (1 + prominence)`. Approximate, because both inputs were rounded to 3 dp.
 * Null when either is missing (fallback path, single candidate, unusable background).
 */
export function backgroundMeanFromProminence(
  topScore: number | null | undefined,
  prominence: number | null | undefined,
): number | null {
  if (topScore === null || topScore === undefined || prominence === null || prominence === undefined) return null;
  if (!Number.isFinite(topScore) || !Number.isFinite(prominence)) return null;
  const denominator = 1 + prominence;
  if (denominator === 0) return null;
  return topScore / denominator;
}
