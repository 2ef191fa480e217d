/**
 * The signals of one recall the store's verdict reads (lib/calibration/README.md "Threshold
 * profiles"): the semantic arm's top raw cosine and the pool's shape around it (gap to the
 * second, background mean and spread), and the keyword arm's evidence measured against the
 * query's own maximum (lib/recall/keyword-evidence.ts). Every signal is read from the first
 * SHAPE_POOL merged candidates whatever k, so one model serves every page size. Pure.
 */
import type { KeywordEvidence } from "@/lib/recall/keyword-evidence";
import type { StoredCandidate } from "../level";

/** Merged candidates the signals read (a fixed pool: the level does not move with k). */
export const SHAPE_POOL = 10;

export const FEATURE_NAMES = ["top_cosine", "gap", "bg_mean", "bg_std", "bm25_ratio", "idf_coverage"] as const;
export type FeatureName = (typeof FEATURE_NAMES)[number];

/** The signals of one recall; null where the recall cannot tell (no cosine, no keyword evidence). */
export type RecallSignals = Record<FeatureName, number | null>;

const round6 = (v: number): number => Math.round(v * 1e6) / 1e6;

export function recallSignals(
  candidates: readonly StoredCandidate[],
  evidence: KeywordEvidence | null | undefined,
): RecallSignals {
  const pool = candidates.slice(0, SHAPE_POOL);
  const cosines = pool
    .map((c) => c.raw_cosine)
    .filter((v): v is number => typeof v === "number" && Number.isFinite(v))
    .sort((a, b) => b - a);
  const top = cosines[0] ?? null;
  const rest = cosines.slice(1);
  const bgMean = rest.length ? rest.reduce((s, v) => s + v, 0) / rest.length : null;
  const bgStd = bgMean === null ? null : Math.sqrt(rest.reduce((s, v) => s + (v - bgMean) ** 2, 0) / rest.length);
  let topBm25 = 0;
  for (const c of pool) if (typeof c.keyword_score === "number" && c.keyword_score > topBm25) topBm25 = c.keyword_score;
  const usable = evidence && evidence.terms > 0 && evidence.max_bm25 > 0;
  const out: RecallSignals = {
    top_cosine: top,
    gap: top !== null && rest.length ? top - rest[0]! : null,
    bg_mean: bgMean,
    bg_std: bgStd,
    bm25_ratio: usable ? Math.min(1, topBm25 / evidence.max_bm25) : null,
    idf_coverage: usable && evidence.idf_total > 0 ? Math.min(1, evidence.idf_covered / evidence.idf_total) : null,
  };
  for (const key of FEATURE_NAMES) if (out[key] !== null) out[key] = round6(out[key]);
  return out;
}

/** The signals as the model's row, a missing one replaced by `fill` (the training mean: no pull either way). */
export function featureRow(signals: RecallSignals, fill: readonly number[]): number[] {
  return FEATURE_NAMES.map((name, j) => signals[name] ?? fill[j] ?? 0);
}

/**
 * The signals a store without a visible pool states (a remote service's block): its top score and
 * background; the gap and the keyword evidence are unknown and take the model's fill.
 */
export function statedSignals(stated: {
  top_score: number | null;
  background_mean?: number | null;
  background_std?: number | null;
}): RecallSignals {
  return {
    top_cosine: stated.top_score,
    gap: null,
    bg_mean: stated.background_mean ?? null,
    bg_std: stated.background_std ?? null,
    bm25_ratio: null,
    idf_coverage: null,
  };
}
