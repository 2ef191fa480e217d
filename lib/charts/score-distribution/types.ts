import type { SearchMode } from "@/lib/recall/merge";
import type { LoggedRecall, LoggedResult, LoggedSelectorTrace, RecallNotice } from "@/lib/recall-log/types";

// ---------------------------------------------------------------------------------------------
// Types

/** The score the chart puts on its x axis. */
export type ScoreMetric = "raw_cosine" | "bm25" | "hybrid";

export const SCORE_METRICS: readonly ScoreMetric[] = ["raw_cosine", "bm25", "hybrid"];

/**
 * What the chart shows:
 * - `cosine`: raw cosines with the confidence thresholds in cosine space;
 * - `zscore`: a keyword-only pool's scores with the z-score bands the level came from;
 * - `score`: BM25 or hybrid scores with that score's own background mean and top only.
 */
export type ChartView = "cosine" | "zscore" | "score";

/**
 * The row a point sits in: the confidence pool, fetched but outside it, or (for a store that does
 * not expose its pool) the returned page, whose result scores are all there is.
 */
export type LaneId = "pool" | "outside" | "returned";

/**
 * How a point is drawn: in the confidence pool, fetched but outside it, a returned result of a
 * store without a pool, or dropped by the selector.
 */
export type PointCategory = "pool" | "outside" | "returned" | "dropped";

export type PointSymbol = "circle" | "ring" | "cross";

export type MarkerKind =
  | "background_mean"
  | "top"
  | "prominence_band"
  | "absolute_guard"
  | "near_duplicate"
  | "z_band"
  /** Where the score-gap selector cut the page (its trace's `score_gap.cut`), on the raw cosine axis. */
  | "selector_cut";

export type BandLevel = "high" | "moderate" | "low";

export interface DistributionPoint {
  /** The score on the x axis (unrounded). */
  x: number;
  /** Lane centre plus a small deterministic dodge so that equal scores stay distinguishable. */
  y: number;
  lane: LaneId;
  memoryId: string;
  /** The summary, truncated for the tooltip ("(no summary)" when the store gave none). */
  summary: string;
  rank: number;
  inPool: boolean;
  returned: boolean;
  dropped: boolean;
  /** The pool's best score on this axis (one point at most). */
  isTop: boolean;
  category: PointCategory;
  fill: string;
  stroke: string;
  symbol: PointSymbol;
  /** Radius in px. */
  radius: number;
  /**
   * Every score of the candidate, for the tooltip (null = not scored by that arm). For a returned
   * result of a store without a pool, only the result score is known, under the metric it is.
   */
  scores: { raw_cosine: number | null; bm25: number | null; hybrid: number | null };
  /** The kind of the notice about this memory (e.g. `buried_best_hit`), drawn highlighted. */
  notice?: string;
  /** A BM25 computed for display only (a notice carried it): not used by the merge. */
  displayBm25?: number;
}

/**
 * What a candidate without a BM25 score means in this recall: the keyword arm did not run, it
 * ran out of matches (so the candidate did not match), or it filled its fetch window (so the
 * candidate may match below it: not fetched, never "no match").
 */
export type MissingBm25 = "not_run" | "no_match" | "not_fetched";

/** A notice of the recall (`notices[]`) as the chart shows it, naming its memory. */
export interface ChartCallout {
  kind: string;
  memoryId: string | null;
  message: string;
  /** The memory is a point of this chart (highlighted). */
  onChart: boolean;
}

export interface HistogramBin {
  /** Inclusive lower edge. */
  x0: number;
  /** Upper edge: exclusive, except for the last bin, which includes the pool maximum. */
  x1: number;
  count: number;
  /** Bar extent in lane units (drawn behind the pool lane). */
  y0: number;
  y1: number;
}

export interface DistributionMarker {
  /** Stable and unique within one prepared chart, e.g. "prominence_band-high". */
  id: string;
  kind: MarkerKind;
  /** The band a threshold marker belongs to (for guards: the band it guards). */
  band?: BandLevel;
  /** Position on the x axis (unrounded). */
  x: number;
  /** Full text for the legend, e.g. "high ≥ 0.700 (mean × 1.40)". */
  label: string;
  /** A word or two drawn on the chart next to the line. */
  shortLabel: string;
  /** `x` as displayed (3 dp). */
  valueText: string;
  color: string;
  /** SVG stroke-dasharray ("" = solid). */
  dash: string;
  strokeWidth: number;
  /** False when the marker lies outside what the chart can show (listed in the legend only). */
  inDomain: boolean;
  /** Row of the on-chart label (0 = nearest the plot), chosen so that labels do not overlap. */
  labelRow: number;
}

export interface LaneInfo {
  id: LaneId;
  y: number;
  label: string;
  count: number;
}

export interface MetricOption {
  metric: ScoreMetric;
  label: string;
  available: boolean;
  /** Why the metric has nothing to draw (when unavailable). */
  reason?: string;
}

export interface PointLegendItem {
  category: PointCategory;
  label: string;
  fill: string;
  stroke: string;
  symbol: PointSymbol;
  /** Points of this category drawn. */
  count: number;
  /** The count as shown: for the pool, its whole size when not every member is drawn as a pool point. */
  countText: string;
}

export interface PreparedScoreDistribution {
  status: "ok" | "empty";
  /** Set when status is "empty": why there is nothing to draw, in words a person understands. */
  emptyReason?: string;
  /** The caveats of the drawn chart, joined into one paragraph (undefined when there are none). */
  note?: string;
  /** The same caveats, one sentence group each. */
  notes: string[];
  /** The metric asked for. */
  metric: ScoreMetric;
  /** The metric whose values are on the x axis (differs from `metric` only for the z-score view). */
  plottedMetric: ScoreMetric;
  view: ChartView;
  axisLabel: string;
  domain: [number, number];
  ticks: number[];
  yDomain: [number, number];
  lanes: LaneInfo[];
  points: DistributionPoint[];
  /** Histogram of the pool's values on this axis ([] for fewer than two values). */
  bins: HistogramBin[];
  /** Whether the pool is large enough for the histogram to say more than the points. */
  showHistogram: boolean;
  binColor: string;
  markers: DistributionMarker[];
  /** Number of on-chart label rows used by the markers. */
  labelRows: number;
  availableMetrics: ScoreMetric[];
  metricOptions: MetricOption[];
  pointLegend: PointLegendItem[];
  /** One-sentence text alternative for the figure. */
  ariaLabel: string;
  /**
   * False when the store did not expose its candidate pool (`candidates === null`): the chart then
   * draws what the confidence block and the returned results allow (see `prepareWithoutPool`).
   */
  poolExposed: boolean;
  /** The recall's notices, each naming its memory (empty when it has none). */
  callouts: ChartCallout[];
  /** What a missing BM25 means, for the tooltip (set when the pool is exposed). */
  missingBm25?: MissingBm25;
}

/** A returned result, as far as the chart reads it (only used when the pool is not exposed). */
export type ResultInput = Pick<LoggedResult, "memory_id" | "summary" | "score" | "dropped">;

/**
 * What prepare reads: the candidates and confidence, the search mode (and rerank) when known, and,
 * for a recall whose store does not expose its pool, the returned results and whether the recall
 * ran degraded.
 */
export type ScoreDistributionInput = Pick<LoggedRecall, "candidates" | "confidence"> & {
  request?: { search_mode?: SearchMode; use_rerank?: boolean } | null;
  results?: readonly ResultInput[] | null;
  degraded?: { reason: string } | null;
  notices?: readonly RecallNotice[] | null;
  /** The selector's trace: the score gap's cut is drawn as a line (`selector-cut.ts`). */
  selector_trace?: Pick<LoggedSelectorTrace, "score_gap"> | null;
};
