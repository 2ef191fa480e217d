import { formatScore, plural } from "@/lib/format";
import type { SearchMode } from "@/lib/recall/merge";
import type { LoggedConfidence } from "@/lib/recall-log/types";
import { describeWithoutPool } from "./describe";
import { drawnPoint, emptyResult, layoutChart, pointLegendOf, type PreparedBase } from "./layout";
import { type MarkerDraft, cosineMarkers, finishMarker } from "./markers";
import { METRIC_LABELS, missingMetricReason } from "./metrics";
import { HISTOGRAM_COLOR } from "./palette";
import {
  type ChartView,
  type DistributionPoint,
  type MetricOption,
  type PointCategory,
  type PreparedScoreDistribution,
  type ResultInput,
  SCORE_METRICS,
  type ScoreDistributionInput,
  type ScoreMetric,
} from "./types";

// ---------------------------------------------------------------------------------------------
// Without the candidate pool (a remote memory service, or an ingested recall without a pool)
//
// lib/recall/README.md "Wire translation": the response does not carry the pool's raw cosines, so the chart draws what it can,
// in the space of the confidence block, and says plainly what it cannot:
// - semantic basis: the top score (cosine), the background mean derived as top / (1 + prominence)
//   (marked derived), the prominence bands at mean × (1 + band), the absolute guards and the
//   near-duplicate floor; the returned results are points only where their score is a raw cosine
//   (semantic mode), otherwise they get their own axis (the Hybrid / BM25 toggle) with no
//   thresholds;
// - keyword-only / degraded basis: the z-score bands need the background's mean and spread, which
//   are not reported, so only the top and the result scores are drawn (on the BM25 or hybrid axis).

/** The sentence a chart of a recall without its pool carries when the background was derived. */
export const NO_POOL_NOTE =
  "This store does not expose its candidate pool: no raw cosines beyond the top, so the background is derived " +
  "from the top score and prominence (both rounded to 3 dp by the service) and its spread is unknown.";

/** The phrase every chart (or empty reason) of a recall without its pool contains. */
export const NO_POOL_PHRASE = "This store does not expose its candidate pool";

const RESULT_SCORE_NAMES: Readonly<Record<ScoreMetric, string>> = Object.freeze({
  raw_cosine: "raw cosines",
  bm25: "raw BM25 scores",
  hybrid: "hybrid scores (normalized semantic + keyword)",
});

const RESULT_AXIS_LABELS: Readonly<Record<ScoreMetric, string>> = Object.freeze({
  raw_cosine: "Raw cosine (semantic similarity)",
  bm25: "BM25 score of the returned results (raw keyword score)",
  hybrid: "Hybrid score of the returned results (normalized semantic + keyword)",
});

interface NoPoolContext {
  conf: LoggedConfidence | null;
  mode: SearchMode | undefined;
  degraded: { reason: string } | null;
  rerank: boolean;
  /** The confidence block's numbers are cosines (semantic or single semantic basis). */
  cosineBasis: boolean;
  /**
   * What `results[].score` is (docs/reference-rules.md "The hybrid merge"): the raw cosine in semantic
   * mode, the raw BM25 in keyword mode or a degraded hybrid recall, the hybrid score otherwise;
   * null when the mode is unknown.
   */
  resultMetric: ScoreMetric | null;
  /** Where a keyword-only (fallback) block's top score lives: raw BM25, or hybrid for a hybrid pool without cosines. */
  fallbackMetric: ScoreMetric;
  results: readonly ResultInput[];
  /** Results with a finite score. */
  scored: number;
}

function noPoolContext(view: ScoreDistributionInput): NoPoolContext {
  const conf = view.confidence;
  const mode = view.request?.search_mode ?? undefined;
  const degraded = view.degraded ?? null;
  const basis = conf?.basis;
  const results = view.results ?? [];
  const resultMetric: ScoreMetric | null =
    degraded !== null || mode === "keyword" ? "bm25" : mode === "semantic" ? "raw_cosine" : mode === "hybrid" ? "hybrid" : null;
  return {
    conf,
    mode,
    degraded,
    rerank: view.request?.use_rerank === true,
    cosineBasis: basis === "semantic" || basis === "single_semantic",
    resultMetric,
    fallbackMetric: mode === "hybrid" && degraded === null ? "hybrid" : "bm25",
    results,
    scored: results.filter((r) => r.score !== null && Number.isFinite(r.score)).length,
  };
}

function hasTop(conf: LoggedConfidence | null): conf is LoggedConfidence & { top_score: number } {
  return conf !== null && conf.top_score !== null && Number.isFinite(conf.top_score);
}

function noPoolMetricOption(ctx: NoPoolContext, metric: ScoreMetric): MetricOption {
  const label = METRIC_LABELS[metric];
  const no = (reason: string): MetricOption => ({ metric, label, available: false, reason });
  if (!hasTop(ctx.conf)) return no(`${NO_POOL_PHRASE}, and it reported no top score.`);
  const degradedReason = "this recall ran degraded (the semantic arm failed), so the hybrid search was served by BM25 alone";
  if (metric === "raw_cosine") {
    if (ctx.cosineBasis) return { metric, label, available: true };
    if (ctx.degraded !== null) return no(`No raw cosines: ${degradedReason}.`);
    return no(missingMetricReason("raw_cosine", ctx.mode));
  }
  const space = ctx.cosineBasis ? ctx.resultMetric : ctx.fallbackMetric;
  if (metric === space) {
    // A keyword-only block's top is on this axis even when no result carries a score.
    if (!ctx.cosineBasis || ctx.scored > 0) return { metric, label, available: true };
    return no(ctx.results.length === 0 ? "No results were returned." : "No returned result carries a score.");
  }
  if (space === null) return no("The search mode is not known, so the results' scores cannot be named.");
  if (metric === "hybrid" && ctx.degraded !== null) return no(`No hybrid scores: ${degradedReason}; its scores are raw BM25.`);
  if (ctx.mode === "semantic" || ctx.mode === "keyword") return no(missingMetricReason(metric, ctx.mode));
  return no(`${NO_POOL_PHRASE}: no per-arm ${label} scores, only the results' ${RESULT_SCORE_NAMES[space]}.`);
}

/** The defaults of a recall without its pool: the cosine view for a semantic block, else the fallback's own axis. */
export function noPoolDefaultMetric(input: ScoreDistributionInput): ScoreMetric {
  const ctx = noPoolContext(input);
  return hasTop(ctx.conf) && !ctx.cosineBasis ? ctx.fallbackMetric : "raw_cosine";
}

/** What is missing without the pool, for the block's basis (always opens with NO_POOL_PHRASE). */
function noPoolSentence(conf: LoggedConfidence): string {
  switch (conf.basis) {
    case "semantic":
      if (conf.background_mean === null) {
        return `${NO_POOL_PHRASE}: no raw cosines beyond the top, and without a prominence the background cannot be derived, so its mean and spread are unknown.`;
      }
      if (conf.background_derived === true) return NO_POOL_NOTE;
      return `${NO_POOL_PHRASE}: no raw cosines beyond the top, so the background mean is the one logged with this recall and its spread is unknown.`;
    case "single_semantic":
      return `${NO_POOL_PHRASE}: it reported a single semantic candidate, whose cosine is the top score.`;
    case "zscore": {
      const z = conf.relative_margin;
      return (
        `${NO_POOL_PHRASE}: the level came from the z-score of the top over the pool's background` +
        `${z === null ? "" : ` (z ${formatScore(z)})`}, but the service reports neither the background's mean nor its ` +
        "spread, so the z-score bands cannot be drawn without the pool: the top score is drawn with the returned results' scores."
      );
    }
    case "single":
      return `${NO_POOL_PHRASE}: it reported a single keyword-only candidate, which is always moderate, so there are no bands to draw.`;
    case "empty":
      return `${NO_POOL_PHRASE}, and it reported no candidates.`;
  }
}

/**
 * The returned results as points on `plotted`, where their scores live there (null scores are
 * gaps, cosines outside [-1, 1] are not cosines); the notes say what was left out.
 */
function resultPoints(ctx: NoPoolContext, plotted: ScoreMetric, notes: string[]): DistributionPoint[] {
  if (ctx.resultMetric !== plotted) return [];
  const points: DistributionPoint[] = [];
  let missing = 0;
  let outOfRange = 0;
  ctx.results.forEach((r, i) => {
    const x = r.score;
    if (x === null || !Number.isFinite(x)) {
      missing++;
      return;
    }
    if (plotted === "raw_cosine" && Math.abs(x) > 1) {
      outOfRange++;
      return;
    }
    const dropped = r.dropped === true;
    const category: PointCategory = dropped ? "dropped" : "returned";
    points.push(
      drawnPoint({
        x,
        lane: "returned",
        memoryId: r.memory_id,
        summary: r.summary,
        rank: i + 1,
        // The results are drawn from the candidate pool (docs/reference-rules.md "The candidate pool").
        inPool: true,
        returned: true,
        dropped,
        category,
        scores: {
          raw_cosine: plotted === "raw_cosine" ? x : null,
          bm25: plotted === "bm25" ? x : null,
          hybrid: plotted === "hybrid" ? x : null,
        },
      }),
    );
  });
  if (missing > 0) {
    const left = missing === 1 ? "it is left out" : "they are left out";
    notes.push(`${plural(missing, "returned result has", "returned results have")} no score; ${left}, not drawn at 0.`);
  }
  if (outOfRange > 0) {
    notes.push(
      `${plural(outOfRange, "returned result has a score", "returned results have scores")} outside [-1, 1], ` +
        "which cannot be a cosine; left out of this axis.",
    );
  }
  return points;
}

/** An empty chart's reason for a recall without its pool, saying so if the reason does not. */
function withPoolPhrase(reason: string | undefined): string {
  if (reason === undefined) return `${NO_POOL_PHRASE}.`;
  if (reason.includes(NO_POOL_PHRASE)) return reason;
  return `${reason} ${NO_POOL_PHRASE}, so only its confidence block and the returned results' scores can be drawn.`;
}

function rerankNote(ctx: NoPoolContext, plotted: ScoreMetric): string | null {
  if (!ctx.rerank || plotted !== "hybrid") return null;
  return "A rerank was requested: where the reranker ran, a result's score is its relevance score, not the hybrid score.";
}

export function prepareWithoutPool(
  view: ScoreDistributionInput,
  metric: ScoreMetric,
  ariaPrefix: string,
): PreparedScoreDistribution {
  const ctx = noPoolContext(view);
  const metricOptions = SCORE_METRICS.map((m) => noPoolMetricOption(ctx, m));
  const availableMetrics = metricOptions.filter((o) => o.available).map((o) => o.metric);
  const base: PreparedBase = { metric, availableMetrics, metricOptions, poolExposed: false };
  const conf = ctx.conf;

  if (conf === null) {
    return emptyResult(
      base,
      `${NO_POOL_PHRASE}, and this recall has no confidence block (no top score, no prominence), so there is nothing to draw.`,
      ariaPrefix,
    );
  }
  if (!hasTop(conf)) {
    const reason =
      conf.result_count === 0
        ? `${NO_POOL_PHRASE}, and it found no candidates for this query (confidence none), so there is nothing to draw.`
        : `${NO_POOL_PHRASE}, and its confidence block has no top score, so there is nothing to draw. ` +
          "The level and rationale it sent are in the confidence panel.";
    return emptyResult(base, reason, ariaPrefix);
  }
  const top = conf.top_score;
  const option = metricOptions.find((o) => o.metric === metric);

  const notes: string[] = [noPoolSentence(conf)];
  if (ctx.degraded !== null) {
    notes.push(
      `This recall ran degraded (${ctx.degraded.reason}): the hybrid search was served by BM25 alone, so confidence ` +
        "used the keyword-only fallback.",
    );
  }

  let chartView: ChartView;
  let plotted: ScoreMetric;
  let points: DistributionPoint[];
  let drafts: MarkerDraft[];
  const anchors: number[] = [top];

  if (ctx.cosineBasis && metric === "raw_cosine") {
    // The confidence block's cosine space: markers always, the results only when they are cosines.
    chartView = "cosine";
    plotted = "raw_cosine";
    drafts = cosineMarkers(view, top, notes, true);
    if (conf.background_mean !== null) anchors.push(conf.background_mean);
    points = resultPoints(ctx, "raw_cosine", notes);
    if (ctx.resultMetric === "raw_cosine") {
      if (points.length > 0) {
        notes.push(
          `The points are the ${plural(points.length, "returned result", "returned results")}: in semantic mode a result's ` +
            "score is its raw cosine, so they share this axis with the markers. The rest of the pool is not shown.",
        );
      } else {
        notes.push(
          `${ctx.results.length === 0 ? "No results were returned" : "No returned result has a cosine"}, so only the markers are drawn.`,
        );
      }
    } else if (ctx.resultMetric === null) {
      notes.push(
        "The search mode is not known, so the returned results' scores cannot be placed on this axis: only the markers are drawn.",
      );
    } else if (ctx.scored > 0) {
      notes.push(
        `The returned results' scores are ${RESULT_SCORE_NAMES[ctx.resultMetric]}, not cosines, so they are not drawn ` +
          `on this axis: switch to ${METRIC_LABELS[ctx.resultMetric]} to see them. Only the markers are drawn here.`,
      );
    } else {
      notes.push("No returned result carries a score, so only the markers are drawn.");
    }
  } else if (ctx.cosineBasis) {
    // The results' own axis (hybrid or BM25 scores): no thresholds, they live in cosine space.
    if (option?.available !== true || ctx.resultMetric !== metric) {
      return emptyResult(base, withPoolPhrase(option?.reason), ariaPrefix);
    }
    chartView = "score";
    plotted = metric;
    drafts = [];
    points = resultPoints(ctx, metric, notes);
    if (points.length === 0)
      return emptyResult(base, `${NO_POOL_PHRASE}, and no returned result has a score on this axis.`, ariaPrefix);
    notes.push(
      `The points are the ${plural(points.length, "returned result", "returned results")}' ${RESULT_SCORE_NAMES[metric]}, ` +
        "on their own axis: the confidence thresholds live in raw-cosine space, so none is drawn here (see Raw cosine).",
    );
    const rerank = rerankNote(ctx, metric);
    if (rerank !== null) notes.push(rerank);
  } else {
    // Keyword-only / degraded block: its top on its own axis, with the results when they share it.
    if (metric !== "raw_cosine" && metric !== ctx.fallbackMetric) {
      return emptyResult(base, withPoolPhrase(option?.reason), ariaPrefix);
    }
    chartView = "score";
    plotted = ctx.fallbackMetric;
    const single = conf.basis === "single";
    const z = conf.relative_margin;
    drafts = [
      {
        id: "top",
        kind: "top",
        x: top,
        label: single
          ? `top ${formatScore(top)} (the only candidate)`
          : `top ${formatScore(top)} · z ${z === null ? "n/a" : formatScore(z)}`,
        shortLabel: "top",
      },
    ];
    points = resultPoints(ctx, plotted, notes);
    if (points.length > 0) {
      notes.push(
        `The points are the ${plural(points.length, "returned result", "returned results")}' ${RESULT_SCORE_NAMES[plotted]}, ` +
          "in the same space as the top.",
      );
    } else if (ctx.resultMetric !== null && ctx.resultMetric !== plotted && ctx.scored > 0) {
      notes.push(`The returned results' scores are ${RESULT_SCORE_NAMES[ctx.resultMetric]}, so they are not drawn on this axis.`);
    } else {
      notes.push("No returned result has a score on this axis, so only the top is drawn.");
    }
    const rerank = rerankNote(ctx, plotted);
    if (rerank !== null) notes.push(rerank);
  }

  const markers = drafts.map(finishMarker);
  const bounded = chartView === "cosine";
  const { domain, ticks, labelRows, lanes, yDomain } = layoutChart(points, markers, bounded, anchors);

  return {
    ...base,
    status: "ok",
    notes,
    note: notes.join(" "),
    plottedMetric: plotted,
    view: chartView,
    axisLabel: RESULT_AXIS_LABELS[plotted],
    domain,
    ticks,
    yDomain,
    lanes,
    points,
    bins: [],
    showHistogram: false,
    binColor: HISTOGRAM_COLOR,
    markers,
    labelRows,
    pointLegend: pointLegendOf(points),
    callouts: [],
    ariaLabel: describeWithoutPool(conf, chartView, plotted, points.length, markers),
  };
}
