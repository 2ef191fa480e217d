/**
 * Prepare step of the percentile-band charts (docs/ARCHITECTURE.md "Charts: prepare, then
 * visualise"): one store's recalls on one top-score scale, per bucket, as a p10–p90 band, a
 * p25–p75 band and the median line, for `top_score` or `prominence`. Everything drawn — points,
 * domain, ticks, tooltip lines, the sentence of an empty chart — is decided here.
 *
 * - A bucket without a value is a gap (null), never a 0.
 * - A bucket of fewer than LOW_VOLUME_RECALLS recalls says its bands are rough.
 * - Raw cosines, hybrid scores and raw BM25 are separate series (never one band).
 */
import { countOf, formatCount } from "@/lib/format";
import type { TopScoreUnit } from "@/lib/recall-log/format";
import { LOW_VOLUME_RECALLS, niceMax, type TooltipLine } from "./chart";
import type { DistributionSeries, DistributionsResponse, ScoreBands } from "./distribution-schema";
import { bucketLabel, bucketTick } from "./format";
import type { InsightBucket } from "./schema";

export type BandMetric = "top_score" | "prominence";

export const BAND_COLORS = { outer: "#c7d7f5", inner: "#7fa2e6", median: "#1d3f8f" } as const;

const UNIT_WORDS: Record<TopScoreUnit, string> = {
  cosine: "raw cosine",
  hybrid: "hybrid score",
  BM25: "raw BM25",
};

export interface BandSeriesOption {
  key: string;
  label: string;
  recalls: number;
}

/** The series a person can pick, most recalls first: "embedded · raw cosine (120 recalls)". */
export function bandSeriesOptions(answer: Pick<DistributionsResponse, "series">): BandSeriesOption[] {
  return answer.series.map((s) => ({ key: s.key, label: `${s.store} · ${UNIT_WORDS[s.unit]}`, recalls: s.recalls }));
}

/** The chosen series, else the one with the most recalls; null when there is none. */
export function pickBandSeries(
  answer: Pick<DistributionsResponse, "series">,
  key: string | undefined,
): DistributionSeries | null {
  return answer.series.find((s) => s.key === key) ?? answer.series[0] ?? null;
}

export interface BandPoint {
  key: string;
  tick: string;
  title: string;
  /** [p10, p90] and [p25, p75], or null for a bucket without values (a gap). */
  outer: [number, number] | null;
  inner: [number, number] | null;
  median: number | null;
  n: number;
  thin: boolean;
  tooltip: TooltipLine[];
  notes: string[];
}

export interface PreparedBands {
  points: BandPoint[];
  /** Why there is nothing to draw; null when there is. */
  empty: string | null;
  domain: [number, number];
  ticks: number[];
  /** The y axis' name, e.g. "top score (raw cosine)". */
  axisLabel: string;
}

const round = (x: number) => Number(x.toPrecision(12));

/** A domain holding every drawn value with round ends and 4–5 round steps. */
export function bandDomain(
  values: readonly number[],
  unit: TopScoreUnit | null,
  metric: BandMetric,
): { domain: [number, number]; ticks: number[] } {
  if (values.length === 0) return { domain: [0, 1], ticks: [0, 0.25, 0.5, 0.75, 1] };
  let lo = Math.min(...values);
  let hi = Math.max(...values);
  if (metric === "top_score" && unit === "cosine") {
    lo = Math.max(-1, lo);
    hi = Math.min(1, hi);
  }
  if (lo >= 0 && metric === "prominence") lo = 0;
  if (hi - lo < 1e-9) {
    const pad = Math.abs(hi) > 0 ? Math.abs(hi) * 0.1 : 0.1;
    lo -= pad;
    hi += pad;
  }
  const step = niceMax((hi - lo) / 4);
  const start = Math.floor(lo / step) * step;
  const end = Math.ceil(hi / step) * step;
  const ticks: number[] = [];
  for (let t = start; t <= end + step / 2; t += step) ticks.push(round(t));
  return { domain: [round(start), round(end)], ticks };
}

const fmt = (x: number | null) => (x === null ? "—" : x.toFixed(Math.abs(x) >= 10 ? 1 : 3));

function tooltipOf(b: ScoreBands): TooltipLine[] {
  return [
    { label: "p90", value: fmt(b.p90), color: BAND_COLORS.outer },
    { label: "p75", value: fmt(b.p75), color: BAND_COLORS.inner },
    { label: "Median", value: fmt(b.p50), color: BAND_COLORS.median },
    { label: "p25", value: fmt(b.p25), color: BAND_COLORS.inner },
    { label: "p10", value: fmt(b.p10), color: BAND_COLORS.outer },
    { label: "Recalls", value: formatCount(b.n), muted: true },
  ];
}

export function prepareBands(series: DistributionSeries | null, metric: BandMetric, bucket: InsightBucket): PreparedBands {
  const what = metric === "top_score" ? "top score" : "prominence";
  const axisLabel = series ? (metric === "top_score" ? `top score (${UNIT_WORDS[series.unit]})` : "prominence") : what;
  if (!series) {
    return {
      points: [],
      empty:
        "No recall in this range stated a top score on a known scale (raw cosine, hybrid or BM25), so there are no bands to draw. Failed recalls and answers without a confidence block have none.",
      ...bandDomain([], null, metric),
      axisLabel,
    };
  }
  const points = series.points.map((p): BandPoint => {
    const b = p[metric];
    const has = b.n > 0 && b.p10 !== null && b.p25 !== null && b.p50 !== null && b.p75 !== null && b.p90 !== null;
    const thin = b.n > 0 && b.n < LOW_VOLUME_RECALLS;
    const notes: string[] = [];
    if (thin) notes.push(`Few recalls (${formatCount(b.n)}): the bands are rough.`);
    return {
      key: p.local_start,
      tick: bucketTick(p.local_start, bucket),
      title: bucketLabel(p.local_start, bucket),
      outer: has ? [b.p10!, b.p90!] : null,
      inner: has ? [b.p25!, b.p75!] : null,
      median: has ? b.p50 : null,
      n: b.n,
      thin,
      tooltip: b.n > 0 ? tooltipOf(b) : [{ label: "Recalls", value: "none", muted: true }],
      notes,
    };
  });
  const values = points.flatMap((p) => (p.outer ? [p.outer[0], p.outer[1]] : []));
  const counted = points.reduce((n, p) => n + p.n, 0);
  const empty =
    counted === 0
      ? `None of the ${countOf(series.recalls, "recall")} of ${series.store} on this scale stated a ${what}, so there are no bands to draw.`
      : null;
  return { points, empty, ...bandDomain(values, series.unit, metric), axisLabel };
}
