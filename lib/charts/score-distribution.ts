/**
 * The prepare step of the score distribution chart (DESIGN §1 "the visual the product exists for",
 * §3 chart doctrine): everything the chart draws is decided here, purely and testably: which
 * candidates become points and where, the histogram of the pool, the markers (background mean,
 * top, the confidence thresholds drawn in the score space), the axis domain and ticks, the colours,
 * and the sentences that explain an empty chart or a caveat. The Recharts component only renders.
 *
 * Doctrine kept here:
 * - null is a gap, not zero: a candidate without a value for the chosen score is not drawn (and the
 *   note says how many were left out), never plotted at 0;
 * - the thresholds live in raw-cosine space (prominence bands at `mean_bg × (1 + band)`, absolute
 *   guards, near-duplicate floor); a keyword-only pool gets the z-score view instead;
 * - markers outside the data range widen the domain so they stay visible, within reason (cosines
 *   never leave [-1, 1]); a marker that cannot be shown is flagged `inDomain: false`;
 * - a store that does not expose its pool (`candidates === null`) still gets a chart: the markers
 *   the confidence block allows (background derived from top / (1 + prominence), marked so), the
 *   returned results only where their score is in the axis' space, and a note that says plainly
 *   what is missing (`prepareWithoutPool`).
 *
 * Client-safe: no React, no I/O.
 */
import type { Basis, Level } from "@/lib/recall/confidence";
import type { SearchMode } from "@/lib/recall/merge";
import { fmean, formatFixed } from "@/lib/recall/numeric";
import type { Thresholds } from "@/lib/recall/thresholds";
import type { LoggedCandidate, LoggedConfidence, LoggedResult, LoggedRecall } from "@/lib/recall-log/types";

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
  | "z_band";

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
  count: number;
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
};

// ---------------------------------------------------------------------------------------------
// Colours (chosen for contrast on white: points and lines ≥ 4.5:1, histogram is decoration)

export const POINT_STYLES: Readonly<Record<PointCategory, { fill: string; stroke: string; symbol: PointSymbol; label: string }>> =
  Object.freeze({
    pool: { fill: "#334e68", stroke: "#1f2f40", symbol: "circle", label: "in the confidence pool" },
    outside: { fill: "#ffffff", stroke: "#5f6b7a", symbol: "ring", label: "fetched, outside the pool" },
    returned: { fill: "#3b4a8c", stroke: "#242f5e", symbol: "circle", label: "returned result (the page)" },
    dropped: { fill: "#b42318", stroke: "#b42318", symbol: "cross", label: "dropped by the selector" },
  });

export const BAND_COLORS: Readonly<Record<BandLevel, string>> = Object.freeze({
  high: "#17703a",
  moderate: "#2f5bd3",
  low: "#a05a00",
});

export const MARKER_COLORS: Readonly<Record<Exclude<MarkerKind, "prominence_band" | "z_band">, string>> = Object.freeze({
  background_mean: "#5b6573",
  top: "#111827",
  absolute_guard: "#6d28d9",
  near_duplicate: "#0f766e",
});

const MARKER_DASH: Readonly<Record<MarkerKind, string>> = Object.freeze({
  background_mean: "6 4",
  top: "",
  prominence_band: "4 3",
  absolute_guard: "2 3",
  near_duplicate: "8 3 2 3",
  z_band: "4 3",
});

export const HISTOGRAM_COLOR = "#dfe5ee";

const POINT_RADIUS = 5;
const TOP_POINT_RADIUS = 7;

// ---------------------------------------------------------------------------------------------
// Small helpers

export const METRIC_LABELS: Readonly<Record<ScoreMetric, string>> = Object.freeze({
  raw_cosine: "Raw cosine",
  bm25: "BM25",
  hybrid: "Hybrid",
});

const AXIS_LABELS: Readonly<Record<ScoreMetric, string>> = Object.freeze({
  raw_cosine: "Raw cosine (semantic similarity)",
  bm25: "BM25 score (raw keyword score)",
  hybrid: "Hybrid score (normalized semantic + keyword)",
});

const SUMMARY_MAX = 90;

/** Shows a score as on the chart: 3 decimals, like the confidence panel. */
export function formatScore(x: number): string {
  return Number.isFinite(x) ? formatFixed(x, 3) : String(x);
}

/** 1.4 → "1.40", 1.333 → "1.333": at least two and at most three decimals. */
function formatFactor(x: number): string {
  const three = formatFixed(x, 3);
  return three.endsWith("0") ? three.slice(0, -1) : three;
}

function truncate(text: string | null, max: number): string {
  if (text === null || text.trim() === "") return "(no summary)";
  const flat = text.replace(/\s+/g, " ").trim();
  return flat.length <= max ? flat : `${flat.slice(0, max - 1).trimEnd()}…`;
}

function plural(n: number, one: string, many: string): string {
  return `${n} ${n === 1 ? one : many}`;
}

function valueOf(c: LoggedCandidate, metric: ScoreMetric): number | null {
  const v = metric === "raw_cosine" ? c.raw_cosine : metric === "bm25" ? c.keyword_score : c.hybrid_score;
  return v !== null && Number.isFinite(v) ? v : null;
}

/** The value confidence's fallback path used for a candidate: its hybrid score, else its keyword score. */
function fallbackValueOf(c: LoggedCandidate): number | null {
  return valueOf(c, "hybrid") ?? valueOf(c, "bm25");
}

function modeName(mode: SearchMode | undefined): string | null {
  return mode === undefined ? null : `${mode} mode`;
}

// ---------------------------------------------------------------------------------------------
// Metric availability

/** Whether the pool has values for `metric` (a recall without its pool: `noPoolMetricOption`). */
function metricOption(candidates: readonly LoggedCandidate[], metric: ScoreMetric, mode: SearchMode | undefined): MetricOption {
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
function isKeywordOnlyPool(input: ScoreDistributionInput): boolean {
  const basis = input.confidence?.basis;
  return basis === "zscore" || basis === "single";
}

/** The score the z-score fallback ran on: hybrid scores when the pool has them, else BM25. */
function fallbackMetric(candidates: readonly LoggedCandidate[]): ScoreMetric {
  const pool = candidates.filter((c) => c.in_pool);
  const from = pool.length > 0 ? pool : candidates;
  return from.some((c) => valueOf(c, "hybrid") !== null) ? "hybrid" : "bm25";
}

/**
 * The metric a chart should open on: raw cosine when any candidate has one; for a keyword-only
 * pool the score its z-score came from; otherwise the first metric with values. Without the pool:
 * raw cosine for a semantic confidence block, else the keyword-only block's own axis.
 */
export function defaultScoreMetric(input: ScoreDistributionInput): ScoreMetric {
  if (input.candidates === null) return noPoolDefaultMetric(input);
  const candidates = input.candidates;
  if (candidates.some((c) => valueOf(c, "raw_cosine") !== null)) return "raw_cosine";
  if (candidates.length > 0 && isKeywordOnlyPool(input)) return fallbackMetric(candidates);
  for (const m of ["hybrid", "bm25"] as const) if (candidates.some((c) => valueOf(c, m) !== null)) return m;
  return "raw_cosine";
}

// ---------------------------------------------------------------------------------------------
// Axis: domain and ticks

/** A "nice" step (1, 2 or 5 × 10^n) at least `raw`. */
export function niceStep(raw: number): number {
  if (!(raw > 0) || !Number.isFinite(raw)) return 1;
  const exp = Math.floor(Math.log10(raw));
  const base = 10 ** exp;
  const f = raw / base;
  const nf = f <= 1 ? 1 : f <= 2 ? 2 : f <= 5 ? 5 : 10;
  return nf * base;
}

function decimalsOf(step: number): number {
  return Math.max(0, -Math.floor(Math.log10(step) + 1e-9));
}

const TARGET_TICKS = 8;

/**
 * A padded domain around `[lo, hi]`, rounded outward to nice ticks. Cosines are clamped to [-1, 1].
 */
export function niceDomain(lo: number, hi: number, bounded: boolean): { domain: [number, number]; ticks: number[] } {
  let a = lo;
  let b = hi;
  const span = b - a;
  const magnitude = Math.max(Math.abs(a), Math.abs(b));
  const pad = span > 0 ? span * 0.06 : bounded ? 0.05 : Math.max(magnitude * 0.1, 0.05);
  a -= pad;
  b += pad;
  if (bounded) {
    a = Math.max(a, -1);
    b = Math.min(b, 1);
  }
  const step = niceStep((b - a) / TARGET_TICKS);
  const digits = decimalsOf(step);
  const fix = (v: number): number => Number(v.toFixed(Math.min(digits + 2, 20)));
  const i0 = Math.floor(a / step + 1e-9);
  const i1 = Math.ceil(b / step - 1e-9);
  let dLo = fix(i0 * step);
  let dHi = fix(i1 * step);
  if (bounded) {
    dLo = Math.max(dLo, -1);
    dHi = Math.min(dHi, 1);
  }
  const ticks: number[] = [];
  for (let i = i0; i <= i1; i++) {
    const t = fix(i * step);
    if (t >= dLo - 1e-12 && t <= dHi + 1e-12) ticks.push(t);
  }
  return { domain: [dLo, dHi], ticks };
}

// ---------------------------------------------------------------------------------------------
// Histogram

/** Pools smaller than this are clearer as points alone. */
export const HISTOGRAM_MIN_POOL = 12;

/**
 * Equal-width bins over `[min, max]` of the values (Sturges' rule, 4–20 bins). Every value lands
 * in exactly one bin; the last bin includes the maximum. Bar heights are scaled into the pool
 * lane below `laneY`.
 */
export function histogramBins(values: readonly number[], laneY = 1): HistogramBin[] {
  if (values.length < 2) return [];
  let min = Infinity;
  let max = -Infinity;
  for (const v of values) {
    if (v < min) min = v;
    if (v > max) max = v;
  }
  let count = Math.min(20, Math.max(4, Math.ceil(Math.log2(values.length) + 1)));
  let width = (max - min) / count;
  if (!(width > 0)) {
    count = 1;
    width = 0;
  }
  const counts = new Array<number>(count).fill(0);
  for (const v of values) {
    const i = width > 0 ? Math.min(count - 1, Math.floor((v - min) / width)) : 0;
    counts[i] = (counts[i] ?? 0) + 1;
  }
  const peak = Math.max(...counts);
  const base = laneY - 0.45;
  return counts.map((n, i) => ({
    x0: min + i * width,
    x1: i === count - 1 ? max : min + (i + 1) * width,
    count: n,
    y0: base,
    y1: base + (0.9 * n) / peak,
  }));
}

// ---------------------------------------------------------------------------------------------
// Points: lanes and dodge

const LANE_Y: Readonly<Record<LaneId, number>> = Object.freeze({ pool: 1, outside: 0, returned: 1 });
const DODGE_STEP = 0.1;
const DODGE_MAX = 4;
/** Two points closer than this fraction of the domain width would overlap (≈ 9 px at 600 px). */
const COLLISION_FRACTION = 0.015;

/**
 * Assigns each point of one lane a vertical offset so that points closer than `gap` on x take
 * different offsets (0, +1, −1, +2, −2, … steps), deterministically by x then rank.
 */
function dodge(points: DistributionPoint[], gap: number): void {
  const ordered = [...points].sort((p, q) => p.x - q.x || p.rank - q.rank);
  const placed: { x: number; slot: number }[] = [];
  const slots = [0];
  for (let k = 1; k <= DODGE_MAX; k++) slots.push(k, -k);
  for (const p of ordered) {
    const near = placed.filter((q) => p.x - q.x < gap);
    const taken = new Set(near.map((q) => q.slot));
    let slot = slots.find((s) => !taken.has(s));
    if (slot === undefined) {
      // Every slot is taken: reuse the least crowded one.
      const use = new Map<number, number>();
      for (const q of near) use.set(q.slot, (use.get(q.slot) ?? 0) + 1);
      slot = slots.reduce((best, s) => ((use.get(s) ?? 0) < (use.get(best) ?? 0) ? s : best), 0);
    }
    placed.push({ x: p.x, slot });
    p.y = LANE_Y[p.lane] + slot * DODGE_STEP;
  }
}

// ---------------------------------------------------------------------------------------------
// Marker labels: rows so they do not overlap

/** Assumed plot width and character width, to estimate how much of the axis a label covers. */
const ASSUMED_PLOT_PX = 600;
const LABEL_CHAR_PX = 6.4;
const LABEL_PAD_PX = 10;
export const MAX_LABEL_ROWS = 4;

function layoutLabels(markers: DistributionMarker[], domain: [number, number]): number {
  const span = domain[1] - domain[0] || 1;
  const visible = markers.filter((m) => m.inDomain).sort((a, b) => a.x - b.x || a.id.localeCompare(b.id));
  const rowEnds: number[] = [];
  for (const m of visible) {
    const centre = (m.x - domain[0]) / span;
    const half = (m.shortLabel.length * LABEL_CHAR_PX + LABEL_PAD_PX) / ASSUMED_PLOT_PX / 2;
    const left = centre - half;
    let row = rowEnds.findIndex((end) => end <= left);
    if (row === -1) {
      if (rowEnds.length < MAX_LABEL_ROWS) {
        row = rowEnds.length;
        rowEnds.push(-Infinity);
      } else {
        row = rowEnds.indexOf(Math.min(...rowEnds));
      }
    }
    rowEnds[row] = centre + half;
    m.labelRow = row;
  }
  return rowEnds.length;
}

// ---------------------------------------------------------------------------------------------
// Markers

type MarkerDraft = Omit<DistributionMarker, "valueText" | "color" | "dash" | "strokeWidth" | "inDomain" | "labelRow">;

function finishMarker(d: MarkerDraft): DistributionMarker {
  const color =
    d.kind === "prominence_band" || d.kind === "z_band" ? BAND_COLORS[d.band ?? "low"] : MARKER_COLORS[d.kind];
  return {
    ...d,
    valueText: formatScore(d.x),
    color,
    dash: MARKER_DASH[d.kind],
    strokeWidth: d.kind === "top" ? 2 : 1.5,
    inDomain: true,
    labelRow: 0,
  };
}

const BANDS: readonly BandLevel[] = ["high", "moderate", "low"];

function prominenceOf(t: Thresholds, band: BandLevel): number {
  return band === "high" ? t.high_prominence : band === "moderate" ? t.moderate_prominence : t.low_prominence;
}

function zOf(t: Thresholds, band: BandLevel): number {
  return band === "high" ? t.z_high : band === "moderate" ? t.z_moderate : t.z_low;
}

/**
 * The cosine-space markers for a semantic confidence block, plus the caveats they need.
 *
 * @param withoutPool the store did not expose its pool: the background mean (when there is one)
 *   may be derived from top / (1 + prominence), and a missing one cannot be explained by the pool
 */
function cosineMarkers(
  input: ScoreDistributionInput,
  top: number | null,
  notes: string[],
  withoutPool = false,
): MarkerDraft[] {
  const conf = input.confidence;
  const out: MarkerDraft[] = [];
  if (conf === null) {
    notes.push("This recall has no confidence block, so no thresholds are drawn.");
    if (top !== null) out.push({ id: "top", kind: "top", x: top, label: `top ${formatScore(top)}`, shortLabel: "top" });
    return out;
  }
  const t = conf.threshold_values;
  const topX = top ?? conf.top_score;
  const basis: Basis = conf.basis;

  if (basis === "single_semantic") {
    if (topX !== null) {
      out.push({ id: "top", kind: "top", x: topX, label: `top ${formatScore(topX)} (the only candidate)`, shortLabel: "top" });
    }
    out.push({
      id: "near_duplicate",
      kind: "near_duplicate",
      band: "moderate",
      x: t.strong_abs_cosine,
      label: `moderate ≥ ${formatScore(t.strong_abs_cosine)} (single-candidate cutoff; below it → low)`,
      shortLabel: "cutoff",
    });
    notes.push(
      "One candidate: no background to compare against, so there is no prominence. " +
        `A single semantic candidate is moderate when its cosine is ≥ ${formatScore(t.strong_abs_cosine)}, otherwise low.`,
    );
    return out;
  }

  if (basis !== "semantic") {
    // The chart has cosines but confidence did not use them (should not happen for a consistent log).
    notes.push("The confidence level was not computed from raw cosines, so no cosine thresholds are drawn.");
    if (topX !== null) out.push({ id: "top", kind: "top", x: topX, label: `top ${formatScore(topX)}`, shortLabel: "top" });
    return out;
  }

  const mean = conf.background_mean;
  const usable = mean !== null && mean > t.bg_eps;
  if (mean !== null) {
    const derived = conf.background_derived === true;
    out.push({
      id: "background_mean",
      kind: "background_mean",
      x: mean,
      label: derived
        ? `background mean ≈ ${formatScore(mean)}, derived from top / (1 + prominence)`
        : withoutPool
          ? `background mean ${formatScore(mean)} (as logged with the recall)`
          : `background mean ${formatScore(mean)} (the pool without its top)`,
      shortLabel: derived ? "mean ≈" : "mean",
    });
  }
  if (topX !== null) {
    const p = conf.prominence;
    out.push({
      id: "top",
      kind: "top",
      x: topX,
      label: `top ${formatScore(topX)} · prominence ${p === null ? "n/a" : formatScore(p)}`,
      shortLabel: "top",
    });
  }

  if (usable) {
    for (const band of BANDS) {
      const factor = 1 + prominenceOf(t, band);
      const x = mean * factor;
      out.push({
        id: `prominence_band-${band}`,
        kind: "prominence_band",
        band,
        x,
        label: `${band} ≥ ${formatScore(x)} (mean × ${formatFactor(factor)})`,
        shortLabel: band === "moderate" ? "mod." : band,
      });
    }
    out.push({
      id: "absolute_guard-high",
      kind: "absolute_guard",
      band: "high",
      x: t.abs_moderate_cosine,
      label: `high also needs top ≥ ${formatScore(t.abs_moderate_cosine)} (absolute guard)`,
      shortLabel: "guard H",
    });
    out.push({
      id: "absolute_guard-moderate",
      kind: "absolute_guard",
      band: "moderate",
      x: t.abs_low_cosine,
      label: `moderate also needs top ≥ ${formatScore(t.abs_low_cosine)} (absolute guard)`,
      shortLabel: "guard M",
    });
    out.push({
      id: "near_duplicate",
      kind: "near_duplicate",
      x: t.strong_abs_cosine,
      label: `near-duplicate floor ${formatScore(t.strong_abs_cosine)} (top ≥ this is at least moderate)`,
      shortLabel: "floor",
    });
  } else {
    const bands =
      `(high ≥ ${formatScore(t.strong_abs_cosine)}, moderate ≥ ${formatScore(t.abs_moderate_cosine)}, ` +
      `low ≥ ${formatScore(t.abs_low_cosine)})`;
    if (withoutPool && mean === null) {
      notes.push(
        "The service sent no prominence, so there are no prominence bands to draw. On the semantic path it leaves " +
          `prominence out when the background mean is not above ${String(t.bg_eps)}, and then the absolute cosine ` +
          `bands apply ${bands}.`,
      );
    } else {
      notes.push(
        `The background mean (${mean === null ? "n/a" : formatScore(mean)}) is not above ${String(t.bg_eps)}, so there is ` +
          `no frame for prominence and no prominence bands: the absolute cosine bands applied ${bands}.`,
      );
    }
    out.push({
      id: "near_duplicate",
      kind: "near_duplicate",
      band: "high",
      x: t.strong_abs_cosine,
      label: `high ≥ ${formatScore(t.strong_abs_cosine)} (absolute band)`,
      shortLabel: "high (abs)",
    });
    out.push({
      id: "absolute_guard-moderate",
      kind: "absolute_guard",
      band: "moderate",
      x: t.abs_moderate_cosine,
      label: `moderate ≥ ${formatScore(t.abs_moderate_cosine)} (absolute band)`,
      shortLabel: "mod. (abs)",
    });
    out.push({
      id: "absolute_guard-low",
      kind: "absolute_guard",
      band: "low",
      x: t.abs_low_cosine,
      label: `low ≥ ${formatScore(t.abs_low_cosine)} (absolute band)`,
      shortLabel: "low (abs)",
    });
  }
  return out;
}

/** The z-score view's markers for a keyword-only pool. */
function zscoreMarkers(input: ScoreDistributionInput, top: number | null, plotted: ScoreMetric, notes: string[]): MarkerDraft[] {
  const conf = input.confidence;
  const out: MarkerDraft[] = [];
  if (conf === null) return out;
  const t = conf.threshold_values;
  const scoreName = plotted === "hybrid" ? "hybrid scores" : "BM25 scores";
  const topX = top ?? conf.top_score;

  if (conf.basis === "single") {
    if (topX !== null) {
      out.push({ id: "top", kind: "top", x: topX, label: `top ${formatScore(topX)} (the only candidate)`, shortLabel: "top" });
    }
    notes.push(
      "One candidate: no background to compare against. " +
        `The pool has no raw cosines (only ${scoreName}), and a single keyword-only candidate is always moderate.`,
    );
    return out;
  }

  const mean = conf.background_mean;
  const std = conf.background_std;
  notes.push(
    `This pool has no raw cosines (only ${scoreName}), so the level comes from the z-score of the top over the ` +
      "background, not from prominence: the bands are drawn at mean + z × std.",
  );
  if (mean === null || std === null) return out;
  let denominator = std;
  let unit = "std";
  if (!(std > t.std_eps)) {
    if (Math.abs(mean) > t.std_eps) {
      denominator = Math.abs(mean);
      unit = "|mean|";
    } else {
      denominator = 1;
      unit = "1";
    }
    notes.push(
      `The background is flat (std ≈ 0), so z is the relative gap (top − mean) / ${unit} and the bands sit at mean + z × ${unit}.`,
    );
  }
  out.push({
    id: "background_mean",
    kind: "background_mean",
    x: mean,
    label: `background mean ${formatScore(mean)} (std ${formatScore(std)})`,
    shortLabel: "mean",
  });
  if (topX !== null) {
    const z = conf.relative_margin;
    out.push({
      id: "top",
      kind: "top",
      x: topX,
      label: `top ${formatScore(topX)} · z ${z === null ? "n/a" : formatScore(z)}`,
      shortLabel: "top",
    });
  }
  for (const band of BANDS) {
    const z = zOf(t, band);
    const x = mean + z * denominator;
    out.push({
      id: `z_band-${band}`,
      kind: "z_band",
      band,
      x,
      label: `${band}: z ≥ ${formatFactor(z)} → ≥ ${formatScore(x)} (mean + ${formatFactor(z)} × ${unit})`,
      shortLabel: band === "moderate" ? "z mod." : `z ${band}`,
    });
  }
  return out;
}

/** BM25 / hybrid view on a semantic pool: that score's own background mean and top only. */
function scoreMarkers(
  input: ScoreDistributionInput,
  poolValues: readonly number[],
  top: number | null,
  metric: ScoreMetric,
  zMetric: ScoreMetric | null,
  notes: string[],
): MarkerDraft[] {
  const out: MarkerDraft[] = [];
  const name = METRIC_LABELS[metric];
  if (poolValues.length >= 2 && top !== null) {
    const sorted = [...poolValues].sort((a, b) => b - a);
    const mean = fmean(sorted.slice(1));
    out.push({
      id: "background_mean",
      kind: "background_mean",
      x: mean,
      label: `background mean ${formatScore(mean)} (${name} of the pool without its top)`,
      shortLabel: "mean",
    });
  }
  if (top !== null) out.push({ id: "top", kind: "top", x: top, label: `top ${formatScore(top)} (${name})`, shortLabel: "top" });

  if (input.confidence === null) {
    notes.push("This recall has no confidence block, so no thresholds are drawn.");
  } else if (zMetric !== null) {
    notes.push(
      `The level came from the z-score of the pool's ${METRIC_LABELS[zMetric]} scores; ` +
        `switch to ${METRIC_LABELS[zMetric]} to see the bands it was judged by.`,
    );
  } else {
    notes.push(
      "The confidence thresholds live in raw-cosine space, so they are drawn on the Raw cosine view only; " +
        `here the markers are the ${name} score's own background mean and top.`,
    );
  }
  if (poolValues.length === 1) notes.push("One candidate in the pool: no background to compare against.");
  return out;
}

// ---------------------------------------------------------------------------------------------
// Layout shared by both paths: domain, ticks, label rows, lanes and dodge, point legend

const LANE_LABELS: Readonly<Record<LaneId, string>> = Object.freeze({
  pool: "In pool",
  outside: "Outside pool",
  returned: "Returned page",
});
const LANE_ORDER: readonly LaneId[] = ["returned", "pool", "outside"];
const POINT_CATEGORY_ORDER: readonly PointCategory[] = ["pool", "returned", "outside", "dropped"];

interface ChartLayout {
  domain: [number, number];
  ticks: number[];
  labelRows: number;
  lanes: LaneInfo[];
  yDomain: [number, number];
}

/**
 * The x domain (the data, widened for markers within reach), marker visibility and label rows, the
 * lanes and the dodge of the points. `anchors` stand in for the data when there are no points
 * (a chart of markers only); at least one of them or one point must exist.
 */
function layoutChart(
  points: DistributionPoint[],
  markers: DistributionMarker[],
  bounded: boolean,
  anchors: readonly number[] = [],
): ChartLayout {
  const xs = points.length > 0 ? points.map((p) => p.x) : [...anchors];
  if (xs.length === 0) xs.push(...markers.map((m) => m.x));
  const dataLo = Math.min(...xs);
  const dataHi = Math.max(...xs);
  const reachLo = bounded ? -1 : dataLo - Math.max(dataHi - dataLo, Math.abs(dataHi) * 0.25, 1e-6);
  const reachHi = bounded ? 1 : dataHi + Math.max(dataHi - dataLo, Math.abs(dataHi) * 0.25, 1e-6);
  let lo = dataLo;
  let hi = dataHi;
  for (const m of markers) {
    if (m.x >= reachLo && m.x <= reachHi) {
      lo = Math.min(lo, m.x);
      hi = Math.max(hi, m.x);
    } else {
      m.inDomain = false;
    }
  }
  const { domain, ticks } = niceDomain(lo, hi, bounded);
  for (const m of markers) {
    if (m.x < domain[0] || m.x > domain[1]) m.inDomain = false;
    if (!m.inDomain) m.label += bounded ? " (outside the cosine range, not drawn)" : " (off the chart)";
  }
  const labelRows = layoutLabels(markers, domain);

  const span = domain[1] - domain[0] || 1;
  const lanes: LaneInfo[] = [];
  for (const id of LANE_ORDER) {
    const inLane = points.filter((p) => p.lane === id);
    if (inLane.length === 0) continue;
    lanes.push({ id, y: LANE_Y[id], label: LANE_LABELS[id], count: inLane.length });
    dodge(inLane, span * COLLISION_FRACTION);
  }
  const laneYs = lanes.length > 0 ? lanes.map((l) => l.y) : [LANE_Y.pool];
  const yDomain: [number, number] = [Math.min(...laneYs) - 0.6, Math.max(...laneYs) + 0.6];
  return { domain, ticks, labelRows, lanes, yDomain };
}

function pointLegendOf(points: readonly DistributionPoint[]): PointLegendItem[] {
  return POINT_CATEGORY_ORDER.map((category) => {
    const s = POINT_STYLES[category];
    return {
      category,
      label: s.label,
      fill: s.fill,
      stroke: s.stroke,
      symbol: s.symbol,
      count: points.filter((p) => p.category === category).length,
    };
  }).filter((item) => item.count > 0);
}

// ---------------------------------------------------------------------------------------------
// Prepare

type PreparedBase = Pick<PreparedScoreDistribution, "metric" | "availableMetrics" | "metricOptions" | "poolExposed">;

function emptyResult(base: PreparedBase, reason: string, ariaPrefix: string): PreparedScoreDistribution {
  return {
    ...base,
    status: "empty",
    emptyReason: reason,
    notes: [],
    plottedMetric: base.metric,
    view: base.metric === "raw_cosine" ? "cosine" : "score",
    axisLabel: AXIS_LABELS[base.metric],
    domain: [0, 1],
    ticks: [],
    yDomain: [0, 1],
    lanes: [],
    points: [],
    bins: [],
    showHistogram: false,
    binColor: HISTOGRAM_COLOR,
    markers: [],
    labelRows: 0,
    pointLegend: [],
    ariaLabel: `${ariaPrefix}: nothing to draw. ${reason}`,
  };
}

/**
 * Prepares the score distribution of one recall for the chart.
 *
 * When the store does not expose its candidate pool (`candidates === null`), the chart draws what
 * the confidence block and the returned results allow instead (see `prepareWithoutPool`).
 *
 * @param view the recall's candidates and confidence block (and, optionally, its request, whose
 *   search mode makes the reasons more precise; its results and degraded flag, used when the pool
 *   is not exposed)
 * @param metric the score to put on the x axis
 */
export function prepareScoreDistribution(view: ScoreDistributionInput, metric: ScoreMetric): PreparedScoreDistribution {
  const candidates = view.candidates;
  const ariaPrefix = `Score distribution (${METRIC_LABELS[metric]})`;
  if (candidates === null) return prepareWithoutPool(view, metric, ariaPrefix);

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
    const style = POINT_STYLES[category];
    points.push({
      x,
      y: 0,
      lane: c.in_pool ? "pool" : "outside",
      memoryId: c.memory_id,
      summary: truncate(c.summary, SUMMARY_MAX),
      rank: c.rank,
      inPool: c.in_pool,
      returned: c.returned,
      dropped: c.dropped,
      isTop: false,
      category,
      fill: style.fill,
      stroke: style.stroke,
      symbol: style.symbol,
      radius: POINT_RADIUS,
      scores: { raw_cosine: valueOf(c, "raw_cosine"), bm25: valueOf(c, "bm25"), hybrid: valueOf(c, "hybrid") },
    });
  }
  if (points.length === 0) {
    return emptyResult(base, missingMetricReason(plotted, mode), ariaPrefix);
  }

  const poolPoints = points.filter((p) => p.inPool);
  let topPoint: DistributionPoint | null = null;
  for (const p of poolPoints) if (topPoint === null || p.x > topPoint.x || (p.x === topPoint.x && p.rank < topPoint.rank)) topPoint = p;
  if (topPoint !== null) {
    topPoint.isTop = true;
    topPoint.radius = TOP_POINT_RADIUS;
  }
  const top = topPoint?.x ?? null;
  const poolValues = poolPoints.map((p) => p.x);

  if (missing > 0) {
    const what =
      plotted === "raw_cosine"
        ? "no raw cosine (keyword-only hits)"
        : plotted === "bm25"
          ? "no BM25 score (no keyword match)"
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
    pointLegend: pointLegendOf(points),
    ariaLabel,
  };
}

function describe(
  input: ScoreDistributionInput,
  chartView: ChartView,
  plotted: ScoreMetric,
  count: number,
  poolCount: number,
  markers: readonly DistributionMarker[],
): string {
  const what = chartView === "zscore" ? `${METRIC_LABELS[plotted]} scores, z-score view` : `${METRIC_LABELS[plotted]} scores`;
  const parts = [`Score distribution of ${plural(count, "candidate", "candidates")} (${poolCount} in the confidence pool), ${what}.`];
  const top = markers.find((m) => m.kind === "top");
  const mean = markers.find((m) => m.kind === "background_mean");
  if (top) parts.push(`Top ${top.valueText}.`);
  if (mean) parts.push(`Background mean ${mean.valueText}.`);
  const conf = input.confidence;
  if (conf !== null) {
    if (chartView === "cosine" && conf.prominence !== null) parts.push(`Prominence ${formatScore(conf.prominence)}.`);
    const level: Level = conf.level;
    parts.push(`Level ${level}.`);
  }
  parts.push("Markers are listed below the chart.");
  return parts.join(" ");
}

// ---------------------------------------------------------------------------------------------
// Without the candidate pool (a remote memory service, or an ingested recall without a pool)
//
// DESIGN §2: the response does not carry the pool's raw cosines, so the chart draws what it can,
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
   * What `results[].score` is (memory-service-api.md "What score is"): the raw cosine in semantic
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
function noPoolDefaultMetric(input: ScoreDistributionInput): ScoreMetric {
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
    const style = POINT_STYLES[category];
    points.push({
      x,
      y: 0,
      lane: "returned",
      memoryId: r.memory_id,
      summary: truncate(r.summary, SUMMARY_MAX),
      rank: i + 1,
      // The results are drawn from the candidate pool (memory-service-api.md, the candidate pool).
      inPool: true,
      returned: true,
      dropped,
      isTop: false,
      category,
      fill: style.fill,
      stroke: style.stroke,
      symbol: style.symbol,
      radius: POINT_RADIUS,
      scores: {
        raw_cosine: plotted === "raw_cosine" ? x : null,
        bm25: plotted === "bm25" ? x : null,
        hybrid: plotted === "hybrid" ? x : null,
      },
    });
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

function prepareWithoutPool(view: ScoreDistributionInput, metric: ScoreMetric, ariaPrefix: string): PreparedScoreDistribution {
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
        notes.push(`${ctx.results.length === 0 ? "No results were returned" : "No returned result has a cosine"}, so only the markers are drawn.`);
      }
    } else if (ctx.resultMetric === null) {
      notes.push("The search mode is not known, so the returned results' scores cannot be placed on this axis: only the markers are drawn.");
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
    if (points.length === 0) return emptyResult(base, `${NO_POOL_PHRASE}, and no returned result has a score on this axis.`, ariaPrefix);
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
    ariaLabel: describeWithoutPool(conf, chartView, plotted, points.length, markers),
  };
}

function describeWithoutPool(
  conf: LoggedConfidence,
  chartView: ChartView,
  plotted: ScoreMetric,
  count: number,
  markers: readonly DistributionMarker[],
): string {
  const drawn = count > 0 ? `${plural(count, "returned result", "returned results")}` : "markers only";
  const parts = [
    `Score distribution of a recall whose store does not expose its candidate pool: ${drawn}, ${METRIC_LABELS[plotted]} scores.`,
  ];
  const top = markers.find((m) => m.kind === "top");
  const mean = markers.find((m) => m.kind === "background_mean");
  if (top) parts.push(`Top ${top.valueText}.`);
  if (mean) parts.push(conf.background_derived === true ? `Background mean ≈ ${mean.valueText} (derived).` : `Background mean ${mean.valueText}.`);
  if (chartView === "cosine" && conf.prominence !== null) parts.push(`Prominence ${formatScore(conf.prominence)}.`);
  parts.push(`Level ${conf.level}.`);
  if (markers.length > 0) parts.push("Markers are listed below the chart.");
  return parts.join(" ");
}
