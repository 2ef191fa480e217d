/**
 * The level of a logged recall under a profile, recomputed from its stored merged candidate list
 * with the reference rules (lib/recall/confidence.ts — one implementation of the rules), and the
 * same for recalls that kept no pool, from the values their confidence block stated.
 */
import {
  computeConfidence,
  type Basis,
  type ConfidenceInput,
  type ConfidenceResult,
  type Level,
  type TraceStep,
} from "@/lib/recall/confidence";
import type { KeywordEvidence } from "@/lib/recall/keyword-evidence";
import { DEFAULT_THRESHOLDS, type Thresholds } from "@/lib/recall/thresholds";
import {
  predictVerdict,
  recallSignals,
  statedSignals,
  type CalibrationMethod,
  type RecallSignals,
  type StoreNull,
} from "./model";
import { poolSizeFor, type Profile } from "./profile";

/** What the rules need of a stored candidate (a `recall_candidates` row or a LoggedCandidate). */
export interface StoredCandidate {
  raw_cosine: number | null;
  hybrid_score: number | null;
  keyword_score: number | null;
}

/** The page sizes k-sensitivity reports. */
export const SENSITIVITY_KS: readonly number[] = [5, 10, 20];

/**
 * The confidence input of the first `n` merged candidates (merged rank order). The score each
 * contributes is the one the store used: the hybrid score, else the raw cosine (semantic mode),
 * else the raw BM25 (keyword mode, degraded hybrid) — so the in-pool candidates of a logged
 * recall give back exactly the block it logged.
 */
export function confidenceInputFromCandidates(candidates: readonly StoredCandidate[], n: number): ConfidenceInput {
  const hybridScores: number[] = [];
  const semanticRaw: number[] = [];
  const end = Math.min(n, candidates.length);
  for (let i = 0; i < end; i++) {
    const c = candidates[i]!;
    const h = c.hybrid_score ?? c.raw_cosine ?? c.keyword_score;
    if (h !== null && h !== undefined) hybridScores.push(h);
    if (c.raw_cosine !== null && c.raw_cosine !== undefined) semanticRaw.push(c.raw_cosine);
  }
  return { hybridScores, semanticRaw };
}

/** The profile's block for a recall of page size k: the rules over its first `pool_size ?? k` candidates. */
export function profileConfidence(
  candidates: readonly StoredCandidate[],
  k: number,
  profile: Pick<Profile, "thresholds" | "pool_size">,
): ConfidenceResult {
  return computeConfidence(confidenceInputFromCandidates(candidates, poolSizeFor(profile, k)), profile.thresholds);
}

export interface KSensitivityPoint {
  k: number;
  /** The reference rules' level over the first k merged candidates. */
  level: Level;
  /** How many candidates that pool held (fewer than k when the stored list is shorter). */
  pool: number;
  /** The store's profile's level at this k (only when the profile is not the reference). */
  profile_level?: Level;
}

/**
 * The level at k = 5, 10, 20 from one stored merged list. Only an approximation of rerunning at
 * that k (a larger k also fetches more per arm, which can change a hybrid score), but the ranks
 * the pool is cut from are the same.
 */
export function kSensitivity(
  candidates: readonly StoredCandidate[],
  profile?: Pick<Profile, "thresholds" | "pool_size" | "name"> | null,
  ks: readonly number[] = SENSITIVITY_KS,
): KSensitivityPoint[] {
  return ks.map((k) => {
    const level = computeConfidence(confidenceInputFromCandidates(candidates, k)).level;
    const point: KSensitivityPoint = { k, level, pool: Math.min(k, candidates.length) };
    if (profile && profile.name !== DEFAULT_THRESHOLDS.name)
      point.profile_level = profileConfidence(candidates, k, profile).level;
    return point;
  });
}

/** True when the triage verdict (worth reading vs go external) differs between the points. */
export function verdictDependsOnK(points: readonly { level: Level }[]): boolean {
  const worth = new Set(points.map((p) => p.level === "high" || p.level === "moderate"));
  return worth.size > 1;
}

/** What a confidence block states, for recalls without a stored pool. */
export interface StatedConfidence {
  basis: Basis | string | null;
  background_mean?: number | null;
  background_std?: number | null;
  top_score: number | null;
  prominence: number | null;
  relative_margin: number | null;
  result_count?: number | null;
}

/**
 * The level under other thresholds from the stated (rounded) top_score, prominence and
 * relative_margin, following the rules' order: the pool size cannot change here, since the pool
 * itself is unknown. A missing basis is inferred the way lib/recalls/from-wire does.
 */
export function levelFromStated(stated: StatedConfidence, t: Thresholds): Level {
  const basis = stated.basis ?? (stated.prominence !== null ? "semantic" : stated.top_score === null ? "empty" : "semantic");
  const top = stated.top_score;
  switch (basis) {
    case "empty":
      return "none";
    case "single":
      return "moderate";
    case "zscore": {
      const z = stated.relative_margin;
      if (z === null) return "none";
      return z >= t.z_high ? "high" : z >= t.z_moderate ? "moderate" : z >= t.z_low ? "low" : "none";
    }
    case "single_semantic":
      return top !== null && top >= t.strong_abs_cosine ? "moderate" : "low";
    default: {
      if (top === null) return "none";
      const p = stated.prominence;
      let level: Level;
      if (p !== null) {
        if (p >= t.high_prominence && top >= t.abs_moderate_cosine) level = "high";
        else if (p >= t.moderate_prominence && top >= t.abs_low_cosine) level = "moderate";
        else level = p >= t.low_prominence ? "low" : "none";
      } else {
        level =
          top >= t.strong_abs_cosine
            ? "high"
            : top >= t.abs_moderate_cosine
              ? "moderate"
              : top >= t.abs_low_cosine
                ? "low"
                : "none";
      }
      if (top >= t.strong_abs_cosine && (level === "low" || level === "none")) level = "moderate";
      return level;
    }
  }
}

/** The profile's block for the wire: `{profile, level, trace, thresholds}` plus the signals it read. */
export interface ProfileConfidenceBlock {
  profile: string;
  level: Level;
  pool_size: number | null;
  /** How many candidates were judged (null when the level came from stated values). */
  judged: number | null;
  top_score: number | null;
  prominence: number | null;
  basis: Basis | null;
  rationale: string | null;
  trace: TraceStep[];
  thresholds: Thresholds;
  /**
   * A profile with a verdict model: the calibrated probability that something relevant is stored
   * (the level is its cut), the signals it read, and how the store was calibrated.
   */
  probability?: number;
  signals?: RecallSignals;
  calibration?: VerdictCalibration;
  /** The level the profile's thresholds give (the reference-shaped rule), beside the model's. */
  rules_level?: Level;
}

/** How the verdict's model was calibrated for this store, as the recall states it. */
export interface VerdictCalibration {
  /** shipped: the model fitted on the demo corpus; labels: a fit on this store's labels. */
  method: CalibrationMethod;
  /** The store measured against its own null (calibrated without labels), else the model's fitting store's. */
  store_relative: boolean;
  /** Labeled examples the model was fitted on. */
  examples: number;
  /** Cross-validated figures of the fit. */
  estimate: { balanced_accuracy: number | null; auc: number | null; ece: number | null; p_present_high: number | null } | null;
  /** A fit from too few labels says so. */
  warning?: string | null;
  /** A labeled fit that leaned on the store's label-free examples: the prior's share of its weight (model/prior.ts). */
  prior_weight?: number;
}

export interface VerdictInput {
  keywordEvidence?: KeywordEvidence | null;
  /** The store's own null when it calibrated itself without labels. */
  storeNull?: StoreNull | null;
}

export function profileConfidenceBlock(
  profile: Pick<Profile, "name" | "thresholds" | "pool_size" | "model">,
  input: { candidates: readonly StoredCandidate[] | null; k: number; stated: StatedConfidence | null } & VerdictInput,
): ProfileConfidenceBlock | null {
  const block = rulesBlock(profile, input);
  if (!block || !profile.model) return block;
  const signals = input.candidates
    ? recallSignals(input.candidates, input.keywordEvidence)
    : input.stated
      ? statedSignals(input.stated)
      : null;
  if (!signals) return block;
  const verdict = predictVerdict(profile.model, signals, input.storeNull);
  const e = profile.model.estimate;
  return {
    ...block,
    level: verdict.level,
    rules_level: block.level,
    probability: verdict.probability,
    signals,
    calibration: {
      method: profile.model.method,
      store_relative: !!input.storeNull && !!profile.model.relative_to,
      examples: profile.model.trained_on.examples,
      estimate: e
        ? {
            balanced_accuracy: e.balanced_accuracy,
            auc: e.auc,
            ece: e.ece,
            p_present_high: e.p_present_by_level.high.present_rate,
          }
        : null,
      ...(profile.model.warning ? { warning: profile.model.warning } : {}),
      ...(profile.model.prior ? { prior_weight: profile.model.prior.weight } : {}),
    },
  };
}

function rulesBlock(
  profile: Pick<Profile, "name" | "thresholds" | "pool_size">,
  input: { candidates: readonly StoredCandidate[] | null; k: number; stated: StatedConfidence | null },
): ProfileConfidenceBlock | null {
  if (input.candidates) {
    const n = poolSizeFor(profile, input.k);
    const r = profileConfidence(input.candidates, input.k, profile);
    return {
      profile: profile.name,
      level: r.level,
      pool_size: profile.pool_size,
      judged: Math.min(n, input.candidates.length),
      top_score: r.top_score,
      prominence: r.prominence,
      basis: r.basis,
      rationale: r.rationale,
      trace: r.trace,
      thresholds: profile.thresholds,
    };
  }
  if (!input.stated) return null;
  return {
    profile: profile.name,
    level: levelFromStated(input.stated, profile.thresholds),
    pool_size: profile.pool_size,
    judged: null,
    top_score: input.stated.top_score,
    prominence: input.stated.prominence,
    basis: (input.stated.basis as Basis | null) ?? null,
    rationale: null,
    trace: [],
    thresholds: profile.thresholds,
  };
}
