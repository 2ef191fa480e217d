/**
 * Score distributions over time (`GET /api/insights/distributions`, README "HTTP API"): per
 * bucket, store and top-score scale, the percentiles of `top_score` and of `prominence` — the
 * numbers behind the levels. Client-safe (types only); the query is Insights' own
 * (`InsightsQuerySchema`, lib/insights/schema.ts).
 */
import type { TopScoreUnit } from "@/lib/recall-log/format";
import type { InsightsWindow } from "./schema";

/** The percentiles of every band, lowest first. */
export const BAND_QUANTILES = [0.1, 0.25, 0.5, 0.75, 0.9] as const;

/** The percentiles of one number over one bucket's recalls (continuous, as `percentile_cont`). */
export interface ScoreBands {
  /** Recalls that stated the number. */
  n: number;
  /** null when n is 0. */
  p10: number | null;
  p25: number | null;
  p50: number | null;
  p75: number | null;
  p90: number | null;
}

export interface DistributionPoint {
  /** As the Insights series: the bucket's wall-clock start in the zone, and its instants. */
  local_start: string;
  start: string;
  end: string;
  top_score: ScoreBands;
  prominence: ScoreBands;
}

/**
 * One store's recalls on one top-score scale: raw cosines, hybrid scores and raw BM25 are never
 * mixed in one band (lib/recall-log/format.ts `topScoreUnit`).
 */
export interface DistributionSeries {
  /** `store` + "\u0000" + `unit`: unique in an answer. */
  key: string;
  store: string;
  unit: TopScoreUnit;
  /** Recalls in the range (ok, with a known scale). */
  recalls: number;
  /** Every bucket of the range, empty ones included (n 0). */
  points: DistributionPoint[];
}

export interface DistributionsResponse extends InsightsWindow {
  /** Most recalls first. */
  series: DistributionSeries[];
}
