import type { SearchMode } from "@/lib/recall/merge";
import { formatFixed } from "@/lib/recall/numeric";
import type { LoggedCandidate } from "@/lib/recall-log/types";
import type { MetricOption, ScoreDistributionInput, ScoreMetric } from "./types";

// ---------------------------------------------------------------------------------------------
// Small helpers

export const METRIC_LABELS: Readonly<Record<ScoreMetric, string>> = Object.freeze({
  raw_cosine: "Raw cosine",
  bm25: "BM25",
  hybrid: "Hybrid",
});

export const AXIS_LABELS: Readonly<Record<ScoreMetric, string>> = Object.freeze({
  raw_cosine: "Raw cosine (semantic similarity)",
  bm25: "BM25 score (raw keyword score)",
  hybrid: "Hybrid score (normalized semantic + keyword)",
});

export const SUMMARY_MAX = 90;

/** 1.4 → "1.40", 1.333 → "1.333": at least two and at most three decimals. */
export function formatFactor(x: number): string {
  const three = formatFixed(x, 3);
  return three.endsWith("0") ? three.slice(0, -1) : three;
}

export function truncate(text: string | null, max: number): string {
  if (text === null || text.trim() === "") return "(no summary)";
  const flat = text.replace(/\s+/g, " ").trim();
  return flat.length <= max ? flat : `${flat.slice(0, max - 1).trimEnd()}…`;
}

export function valueOf(c: LoggedCandidate, metric: ScoreMetric): number | null {
  const v = metric === "raw_cosine" ? c.raw_cosine : metric === "bm25" ? c.keyword_score : c.hybrid_score;
  return v !== null && Number.isFinite(v) ? v : null;
}

/** The value confidence's fallback path used for a candidate: its hybrid score, else its keyword score. */
export function fallbackValueOf(c: LoggedCandidate): number | null {
  return valueOf(c, "hybrid") ?? valueOf(c, "bm25");
}

function modeName(mode: SearchMode | undefined): string | null {
  return mode === undefined ? null : `${mode} mode`;
}

// ---------------------------------------------------------------------------------------------
// Metric availability

/** Whether the pool has values for `metric` (a recall without its pool: `noPoolMetricOption`). */
export function metricOption(
  candidates: readonly LoggedCandidate[],
  metric: ScoreMetric,
  mode: SearchMode | undefined,
): MetricOption {
  const label = METRIC_LABELS[metric];
  if (candidates.length === 0) return { metric, label, available: false, reason: "No candidates." };
  if (candidates.some((c) => valueOf(c, metric) !== null)) return { metric, label, available: true };
  return { metric, label, available: false, reason: missingMetricReason(metric, mode) };
}

/** Why no candidate has a value for `metric`, naming the search mode when it explains it. */
export function missingMetricReason(metric: ScoreMetric, mode: SearchMode | undefined): string {
  const ran = modeName(mode);
  switch (metric) {
    case "raw_cosine":
      if (mode === "keyword") return "No raw cosines: this recall ran in keyword mode, so no candidate has a vector score.";
      return `No raw cosines: no candidate came from the semantic (vector) arm${ran ? ` in this ${ran} recall` : ""}, so none has a vector score.`;
    case "bm25":
      if (mode === "semantic") return "No BM25 scores: this recall ran in semantic mode, so the keyword (BM25) arm did not run.";
      return `No BM25 scores: no candidate matched the query's keywords${ran ? ` in this ${ran} recall` : ""}.`;
    case "hybrid":
      if (mode === "semantic" || mode === "keyword") {
        return `No hybrid scores: this recall ran in ${mode} mode; hybrid scores exist only in hybrid mode.`;
      }
      return `No hybrid scores: no candidate carries a hybrid score${ran ? ` in this ${ran} recall` : ""}.`;
  }
}

/** Whether the confidence level came from the keyword-only (z-score) fallback. */
export function isKeywordOnlyPool(input: ScoreDistributionInput): boolean {
  const basis = input.confidence?.basis;
  return basis === "zscore" || basis === "single";
}

/** The score the z-score fallback ran on: hybrid scores when the pool has them, else BM25. */
export function fallbackMetric(candidates: readonly LoggedCandidate[]): ScoreMetric {
  const pool = candidates.filter((c) => c.in_pool);
  const from = pool.length > 0 ? pool : candidates;
  return from.some((c) => valueOf(c, "hybrid") !== null) ? "hybrid" : "bm25";
}

/** The metric a chart with the candidate pool opens on (see `defaultScoreMetric`). */
export function withPoolDefaultMetric(input: ScoreDistributionInput & { candidates: LoggedCandidate[] }): ScoreMetric {
  const candidates = input.candidates;
  if (candidates.some((c) => valueOf(c, "raw_cosine") !== null)) return "raw_cosine";
  if (candidates.length > 0 && isKeywordOnlyPool(input)) return fallbackMetric(candidates);
  for (const m of ["hybrid", "bm25"] as const) if (candidates.some((c) => valueOf(c, m) !== null)) return m;
  return "raw_cosine";
}
