import { plural } from "@/lib/format";
import type { SearchMode } from "@/lib/recall/merge";
import type { LoggedCandidate } from "@/lib/recall-log/types";
import { describe } from "./describe";
import { HISTOGRAM_MIN_POOL, histogramBins } from "./histogram";
import { LANE_Y, drawnPoint, emptyResult, layoutChart, pointLegendOf, type PreparedBase } from "./layout";
import { cosineMarkers, finishMarker, scoreMarkers, zscoreMarkers } from "./markers";
import {
  AXIS_LABELS,
  fallbackMetric,
  fallbackValueOf,
  isKeywordOnlyPool,
  metricOption,
  missingMetricReason,
  valueOf,
} from "./metrics";
import { HISTOGRAM_COLOR, TOP_POINT_RADIUS } from "./palette";
import {
  type ChartView,
  type DistributionPoint,
  type MissingBm25,
  type PointCategory,
  type PreparedScoreDistribution,
  SCORE_METRICS,
  type ScoreDistributionInput,
  type ScoreMetric,
} from "./types";

// ---------------------------------------------------------------------------------------------
// Prepare, with the candidate pool

const MISSING_BM25_TEXT: Readonly<Record<MissingBm25, string>> = Object.freeze({
  not_run: "no BM25 score (the keyword arm did not run)",
  no_match: "no BM25 score (no keyword match)",
  not_fetched: "no BM25 score fetched (outside the keyword arm's fetch window: not fetched, not necessarily no match)",
});

/**
 * What a null BM25 means here. Both arms fetch the same window; a keyword arm that returned fewer
 * hits than the semantic arm ran out of matches, so its nulls are "no match". One that returned as
 * many filled its window, so a candidate it did not return may still match below it: "not
 * fetched" (the buried-hit case: a BM25 of 1.16 that the merge counted as 0).
 */
export function missingBm25Of(candidates: readonly LoggedCandidate[], mode: SearchMode | undefined): MissingBm25 {
  if (mode === "semantic") return "not_run";
  const keyword = candidates.filter((c) => valueOf(c, "bm25") !== null).length;
  const semantic = candidates.filter((c) => valueOf(c, "raw_cosine") !== null).length;
  if (keyword === 0 && mode === undefined) return "not_run";
  return keyword >= semantic ? "not_fetched" : "no_match";
}

/**
 * Prepares the score distribution of a recall whose candidate pool the store exposed.
 *
 * @param view the recall's candidates and confidence block (and, optionally, its request, whose
 *   search mode makes the reasons more precise; its results and degraded flag, used when the pool
 *   is not exposed)
 * @param metric the score to put on the x axis
 */
export function prepareWithPool(
  view: ScoreDistributionInput & { candidates: LoggedCandidate[] },
  metric: ScoreMetric,
  ariaPrefix: string,
): PreparedScoreDistribution {
  const candidates = view.candidates;

  const mode = view.request?.search_mode ?? undefined;
  const metricOptions = SCORE_METRICS.map((m) => metricOption(candidates, m, mode));
  const availableMetrics = metricOptions.filter((o) => o.available).map((o) => o.metric);
  const base: PreparedBase = { metric, availableMetrics, metricOptions, poolExposed: true };

  if (candidates.length === 0) {
    return emptyResult(base, "No candidates: the store found nothing for this query, so confidence is none.", ariaPrefix);
  }

  // Which view, and which values go on the axis.
  const keywordOnly = isKeywordOnlyPool(view);
  const zMetric = keywordOnly ? fallbackMetric(candidates) : null;
  let chartView: ChartView;
  let plotted: ScoreMetric = metric;
  let value: (c: LoggedCandidate) => number | null;
  const hasValues = candidates.some((c) => valueOf(c, metric) !== null);
  if (metric === "raw_cosine" && hasValues) {
    chartView = "cosine";
    value = (c) => valueOf(c, "raw_cosine");
  } else if (zMetric !== null && (metric === "raw_cosine" || metric === zMetric)) {
    chartView = "zscore";
    plotted = zMetric;
    value = fallbackValueOf;
  } else if (hasValues) {
    chartView = "score";
    value = (c) => valueOf(c, metric);
  } else {
    return emptyResult(base, missingMetricReason(metric, mode), ariaPrefix);
  }

  // Points (null is a gap, not zero).
  const notes: string[] = [];
  const points: DistributionPoint[] = [];
  let missing = 0;
  let missingInPool = 0;
  for (const c of candidates) {
    const x = value(c);
    if (x === null) {
      missing++;
      if (c.in_pool) missingInPool++;
      continue;
    }
    const category: PointCategory = c.dropped ? "dropped" : c.in_pool ? "pool" : "outside";
    points.push(
      drawnPoint({
        x,
        lane: c.in_pool ? "pool" : "outside",
        memoryId: c.memory_id,
        summary: c.summary,
        rank: c.rank,
        inPool: c.in_pool,
        returned: c.returned,
        dropped: c.dropped,
        category,
        scores: { raw_cosine: valueOf(c, "raw_cosine"), bm25: valueOf(c, "bm25"), hybrid: valueOf(c, "hybrid") },
      }),
    );
  }
  if (points.length === 0) {
    return emptyResult(base, missingMetricReason(plotted, mode), ariaPrefix);
  }

  const poolPoints = points.filter((p) => p.inPool);
  let topPoint: DistributionPoint | null = null;
  for (const p of poolPoints)
    if (topPoint === null || p.x > topPoint.x || (p.x === topPoint.x && p.rank < topPoint.rank)) topPoint = p;
  if (topPoint !== null) {
    topPoint.isTop = true;
    topPoint.radius = TOP_POINT_RADIUS;
  }
  const top = topPoint?.x ?? null;
  const poolValues = poolPoints.map((p) => p.x);

  const missingBm25 = missingBm25Of(candidates, mode);
  if (missing > 0) {
    const what =
      plotted === "raw_cosine"
        ? "no raw cosine (keyword-only hits)"
        : plotted === "bm25"
          ? MISSING_BM25_TEXT[missingBm25]
          : "no hybrid score";
    const inPool = missingInPool > 0 ? `, ${missingInPool} of them in the pool` : "";
    const left = missing === 1 ? "it is left out" : "they are left out";
    notes.push(`${plural(missing, "candidate has", "candidates have")} ${what}${inPool}; ${left}, not drawn at 0.`);
  }
  if (poolPoints.length === 0) notes.push("No candidate of the confidence pool has a value on this axis.");

  // Markers.
  const drafts =
    chartView === "cosine"
      ? cosineMarkers(view, top, notes)
      : chartView === "zscore"
        ? zscoreMarkers(view, top, plotted, notes)
        : scoreMarkers(view, poolValues, top, metric, zMetric, notes);
  const markers = drafts.map(finishMarker);

  const { domain, ticks, labelRows, lanes, yDomain } = layoutChart(points, markers, chartView === "cosine");
  const bins = histogramBins(poolValues, LANE_Y.pool);

  const ariaLabel = describe(view, chartView, plotted, points.length, poolPoints.length, markers);
  return {
    ...base,
    status: "ok",
    notes,
    ...(notes.length > 0 ? { note: notes.join(" ") } : {}),
    plottedMetric: plotted,
    view: chartView,
    axisLabel: chartView === "zscore" ? `${AXIS_LABELS[plotted]} — z-score view` : AXIS_LABELS[plotted],
    domain,
    ticks,
    yDomain,
    lanes,
    points,
    bins,
    showHistogram: poolValues.length >= HISTOGRAM_MIN_POOL,
    binColor: HISTOGRAM_COLOR,
    markers,
    labelRows,
    pointLegend: pointLegendOf(points, {
      size: candidates.filter((c) => c.in_pool).length,
      dropped: candidates.filter((c) => c.in_pool && c.dropped && value(c) !== null).length,
      missing: missingInPool,
    }),
    callouts: [],
    missingBm25,
    ariaLabel,
  };
}
