/**
 * The prepare steps of the Insights charts (docs/ARCHITECTURE.md "Charts: prepare, then visualise"): everything the two
 * Recharts components draw — points, percentages, colours, which points are thin, the tooltip's
 * lines and the sentence that explains an empty chart — is decided here, purely and testably.
 *
 * - A rate with nothing under it is null: a gap in the line, never a 0.
 * - Every point carries the counts behind its rates; a rate over fewer than
 *   {@link LOW_VOLUME_RECALLS} recalls is marked `thin` (drawn hollow, said in the tooltip), so
 *   a rate over 3 recalls is not read like one over 3,000.
 * - A bucket the range covers only in part says so.
 */
import { countOf, formatCount, formatPercent } from "@/lib/format";
import { LEVEL_COLORS } from "@/lib/level-palette";
import { bucketLabel, bucketTick } from "./format";
import type { InsightBucket, InsightSeriesPoint, InsightsResponse } from "./schema";

/** Rates over fewer recalls than this are drawn hollow and called thin. */
export const LOW_VOLUME_RECALLS = 20;

export const CHART_COLORS = {
  volume: "#c9d3e3",
  dropRate: "#b42318",
  failureRate: "#c2410c",
  marker: "#475569",
  lostAny: "#7a4bc2",
  weakHit: "#111827",
  level: LEVEL_COLORS,
} as const;

export type ChartLevel = keyof typeof CHART_COLORS.level;

/** Stacking order, bottom to top: the weak hits sit on the axis, where their share reads best. */
export const LEVEL_STACK: readonly { level: ChartLevel; label: string; color: string }[] = [
  { level: "none", label: "None", color: CHART_COLORS.level.none },
  { level: "low", label: "Low", color: CHART_COLORS.level.low },
  { level: "moderate", label: "Moderate", color: CHART_COLORS.level.moderate },
  { level: "high", label: "High", color: CHART_COLORS.level.high },
];

export interface TooltipLine {
  label: string;
  value: string;
  /** A swatch colour, when the line belongs to a drawn series. */
  color?: string;
  /** Drawn quieter (context rather than the headline). */
  muted?: boolean;
}

interface PointBase {
  /** Unique per chart: the bucket's wall-clock start. */
  key: string;
  tick: string;
  title: string;
  start: string;
  end: string;
  partial: boolean;
  /** The rate(s) on this point stand on fewer than LOW_VOLUME_RECALLS recalls. */
  thin: boolean;
  tooltip: TooltipLine[];
  /** Said under the tooltip's lines (thin, partial). */
  notes: string[];
}

export interface SelectorPoint extends PointBase {
  /** Bars: the recalls the selector ran on. */
  applied: number;
  /** Percent (0–100) or null (a gap). */
  dropRate: number | null;
  lostAnyRate: number | null;
  /** Selector failures of the runs it ran or tried, percent or null. */
  failureRate: number | null;
}

export interface LevelPoint extends PointBase {
  none: number;
  low: number;
  moderate: number;
  high: number;
  /** Percent (0–100) or null. */
  weakHitRate: number | null;
}

export interface PreparedChart<P> {
  points: P[];
  /** Why there is nothing to draw; null when there is. */
  empty: string | null;
  /** Something a reader of this chart must know (e.g. failed recalls left out). */
  note: string | null;
  /** The count axis: a round top ≥ the largest count, ticks at its quarters (on the rate axis' grid lines). */
  countAxis: CountAxis;
  /** Vertical markers where the selector model or prompt version changed (at the point's tick). */
  markers: ChartMarker[];
}

export interface ChartMarker {
  /** The point's key (its bucket) and tick, which the line is drawn at. */
  key: string;
  tick: string;
  label: string;
}

/** The series markers placed on the chart's points (a marker outside the points is left out). */
export function chartMarkers(points: readonly PointBase[], markers: InsightsResponse["markers"] | undefined): ChartMarker[] {
  const byKey = new Map(points.map((p) => [p.key, p]));
  const out = new Map<string, ChartMarker>();
  for (const m of markers ?? []) {
    const point = byKey.get(m.local_start);
    if (!point) continue;
    const seen = out.get(point.key);
    out.set(
      point.key,
      seen ? { ...seen, label: `${seen.label}; ${m.label}` } : { key: point.key, tick: point.tick, label: m.label },
    );
  }
  return [...out.values()];
}

export interface CountAxis {
  max: number;
  ticks: number[];
}

const pct = (share: number | null): number | null => (share === null ? null : share * 100);

/** A round number ≥ n (1, 2 or 5 × 10^k; 1 for nothing). */
export function niceMax(n: number): number {
  if (!(n > 0)) return 1;
  const p = 10 ** Math.floor(Math.log10(n));
  for (const m of [1, 2, 5, 10]) if (m * p >= n) return m * p;
  return 10 * p;
}

/**
 * A count axis whose four steps are whole, round numbers, so its ticks fall on the rate axis'
 * 0/25/50/75/100 % grid lines: the top is 4 × a round step ≥ n / 4.
 */
export function countAxis(n: number): CountAxis {
  const step = n > 4 ? niceMax(n / 4) : 1;
  return { max: 4 * step, ticks: [0, step, 2 * step, 3 * step, 4 * step] };
}

function base(p: InsightSeriesPoint, bucket: InsightBucket, thin: boolean, thinWhat: string): PointBase {
  const notes: string[] = [];
  if (thin) notes.push(`Few recalls (${thinWhat}): read this rate with care.`);
  if (p.partial) notes.push("The range covers only part of this bucket.");
  return {
    key: p.local_start,
    tick: bucketTick(p.local_start, bucket),
    title: bucketLabel(p.local_start, bucket),
    start: p.start,
    end: p.end,
    partial: p.partial,
    thin,
    tooltip: [],
    notes,
  };
}

function failedNote(failed: number): string | null {
  return failed > 0
    ? `${countOf(failed, "failed recall")} in this range ${failed === 1 ? "counts" : "count"} in volume only, not in these rates.`
    : null;
}

export function prepareSelectorChart(
  data: Pick<InsightsResponse, "series" | "totals" | "bucket"> & Partial<Pick<InsightsResponse, "markers">>,
): PreparedChart<SelectorPoint> {
  const { totals } = data;
  let empty: string | null = null;
  if (totals.recalls === 0) empty = "No recalls in this range, so there is no drop rate to draw.";
  else if (totals.ok === 0)
    empty = `All ${countOf(totals.recalls, "recall")} in this range failed; a failed recall has no selector outcome.`;
  else if (totals.applied === 0 && totals.selector_failed === 0)
    empty = `The selector did not run on any of the ${countOf(totals.ok, "recall")} in this range (it was off or did not apply), so there is no drop rate to draw.`;
  else if (totals.kept + totals.dropped === 0)
    empty = `The selector ran on ${countOf(totals.applied, "recall")}, but none of them stated how many results it kept and dropped.`;

  const points = data.series.map((p): SelectorPoint => {
    const thin = p.counted > 0 && p.counted < LOW_VOLUME_RECALLS;
    const point: SelectorPoint = {
      ...base(p, data.bucket, thin, `${formatCount(p.counted)} with counts`),
      applied: p.applied,
      dropRate: pct(p.drop_rate),
      lostAnyRate: pct(p.lost_any_rate),
      failureRate: pct(p.failure_rate),
    };
    point.tooltip = [
      {
        label: "Drop rate",
        value:
          p.drop_rate === null
            ? "no data"
            : `${formatPercent(p.drop_rate)} (${formatCount(p.dropped)} of ${formatCount(p.kept + p.dropped)} results)`,
        color: CHART_COLORS.dropRate,
      },
      {
        label: "Lost ≥ 1 result",
        value:
          p.lost_any_rate === null
            ? "no data"
            : `${formatPercent(p.lost_any_rate)} (${formatCount(p.lost_any)} of ${formatCount(p.applied)} recalls)`,
        color: CHART_COLORS.lostAny,
      },
      {
        label: "Selector failures",
        value:
          p.failure_rate === null
            ? "no data"
            : `${formatPercent(p.failure_rate)} (${formatCount(p.selector_failed)} of ${formatCount(p.tried)} it ran or tried on)`,
        color: CHART_COLORS.failureRate,
      },
      {
        label: "Selector ran on",
        value: `${formatCount(p.applied)} of ${formatCount(p.ok)} recalls${p.ok > 0 ? ` (${formatPercent(p.applied_rate)})` : ""}`,
        color: CHART_COLORS.volume,
      },
      {
        label: "All recalls",
        value: p.failed > 0 ? `${formatCount(p.recalls)} (${formatCount(p.failed)} failed)` : formatCount(p.recalls),
        muted: true,
      },
    ];
    return point;
  });
  return {
    points,
    empty,
    note: failedNote(totals.failed),
    countAxis: countAxis(Math.max(0, ...points.map((p) => p.applied))),
    markers: chartMarkers(points, data.markers),
  };
}

export function prepareLevelChart(data: Pick<InsightsResponse, "series" | "totals" | "bucket">): PreparedChart<LevelPoint> {
  const { totals } = data;
  const leveled = totals.high + totals.moderate + totals.low + totals.none;
  let empty: string | null = null;
  if (totals.recalls === 0) empty = "No recalls in this range, so there is no level mix to draw.";
  else if (totals.ok === 0)
    empty = `All ${countOf(totals.recalls, "recall")} in this range failed; a failed recall has no confidence level.`;
  else if (leveled === 0) empty = `None of the ${countOf(totals.ok, "recall")} in this range carried a confidence level.`;

  const points = data.series.map((p): LevelPoint => {
    const n = p.high + p.moderate + p.low + p.none;
    const thin = n > 0 && n < LOW_VOLUME_RECALLS;
    const point: LevelPoint = {
      ...base(p, data.bucket, thin, countOf(n, "recall")),
      none: p.none,
      low: p.low,
      moderate: p.moderate,
      high: p.high,
      weakHitRate: pct(p.weak_hit_rate),
    };
    const share = (count: number) => (n > 0 ? ` (${formatPercent(count / n)})` : "");
    point.tooltip = [
      {
        label: "Weak hits (none + low)",
        value:
          p.weak_hit_rate === null
            ? "no data"
            : `${formatPercent(p.weak_hit_rate)} (${formatCount(p.none + p.low)} of ${formatCount(n)})`,
        color: CHART_COLORS.weakHit,
      },
      ...[...LEVEL_STACK]
        .reverse()
        .map(({ level, label, color }) => ({ label, value: `${formatCount(p[level])}${share(p[level])}`, color })),
    ];
    if (p.unknown_level > 0) point.tooltip.push({ label: "No level stated", value: formatCount(p.unknown_level), muted: true });
    if (p.failed > 0) point.tooltip.push({ label: "Failed (not in the mix)", value: formatCount(p.failed), muted: true });
    return point;
  });
  const tallest = Math.max(0, ...points.map((p) => p.none + p.low + p.moderate + p.high));
  return { points, empty, note: failedNote(totals.failed), countAxis: countAxis(tallest), markers: [] };
}
