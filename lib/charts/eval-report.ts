/**
 * Prepare steps of the evaluation report's charts (pure, client-safe; the Recharts components in
 * components/evaluate only render them, and an empty chart says why: docs/ARCHITECTURE.md
 * "Charts: prepare, then visualise").
 *
 * - `prepareSignalDistribution`: overlaid histograms of one signal (top_score or prominence) for
 *   present vs absent queries, as shares of each class so unequal class sizes compare, with the
 *   profile's thresholds for that signal as markers; `layoutDistributionLabels` places the
 *   markers' labels for the plot's measured width (lib/charts/label-placement.ts: thresholds at
 *   the same value share a label, close ones take rows, none runs out of the plot);
 * - `prepareRocChart`: the ROC curve of each signal (present = positive), with its AUC.
 */
import { rocCurve, type RocPoint } from "@/lib/eval/roc";
import type { EvalRunItem } from "@/lib/eval/run-schemas";
import type { Thresholds } from "@/lib/recall/thresholds";
import { placeLineLabels, type LineLabelLayout } from "./label-placement";

export type DistributionSignal = "top_score" | "prominence";

export const CLASS_COLORS = { present: "#17703a", absent: "#9a1c1c" } as const;
export const SIGNAL_COLORS = { top_score: "#2f5bd3", prominence: "#a05a00", relative_margin: "#6b3fa0" } as const;

export interface DistributionBin {
  x0: number;
  x1: number;
  /** Bin centre, the x of the bar. */
  x: number;
  label: string;
  present: number;
  absent: number;
  /** Shares of their class (0–1). */
  presentShare: number;
  absentShare: number;
}

export interface DistributionMarker {
  value: number;
  /** "low guard 0.40": the marker alone, for the tooltip and the tests. */
  label: string;
  /** What it is ("low guard") and its value as drawn ("0.40"), for the placed label. */
  name: string;
  valueText: string;
}

export interface PreparedDistribution {
  signal: DistributionSignal;
  bins: DistributionBin[];
  markers: DistributionMarker[];
  domain: [number, number];
  present: number;
  absent: number;
  /** Queries without a value for the signal (failed recalls, a keyword-only pool). */
  missing: number;
  /** Set when nothing can be drawn: the sentence the chart shows instead. */
  empty: string | null;
}

const MARKERS: Record<DistributionSignal, readonly [keyof Thresholds, string][]> = {
  top_score: [
    ["abs_low_cosine", "low guard"],
    ["abs_moderate_cosine", "moderate guard"],
    ["strong_abs_cosine", "strong cosine"],
  ],
  prominence: [
    ["low_prominence", "low"],
    ["moderate_prominence", "moderate"],
    ["high_prominence", "high"],
  ],
};

const value = (item: EvalRunItem, signal: DistributionSignal): number | null => {
  const v = item[signal];
  return typeof v === "number" && Number.isFinite(v) ? v : null;
};

export function prepareSignalDistribution(
  items: readonly EvalRunItem[],
  signal: DistributionSignal,
  thresholds: Thresholds | null,
  binCount = 20,
): PreparedDistribution {
  const present: number[] = [];
  const absent: number[] = [];
  let missing = 0;
  for (const item of items) {
    const v = value(item, signal);
    if (v === null || item.level === null) {
      missing += 1;
      continue;
    }
    (item.relevant.length > 0 ? present : absent).push(v);
  }
  const markers: DistributionMarker[] = thresholds
    ? MARKERS[signal].map(([key, name]) => {
        const value = thresholds[key] as number;
        const valueText = value.toFixed(2);
        return { value, name, valueText, label: `${name} ${valueText}` };
      })
    : [];
  const base = { signal, markers, present: present.length, absent: absent.length, missing };
  const all = [...present, ...absent];
  if (all.length === 0) {
    return {
      ...base,
      bins: [],
      domain: [0, 1],
      empty:
        items.length === 0
          ? "No query has run yet."
          : `No query has a ${signal === "top_score" ? "top score" : "prominence"} to draw (${missing} without one).`,
    };
  }
  // The axis covers the data and the markers, so a threshold beyond every score still shows.
  let lo = Math.min(...all, ...markers.map((m) => m.value));
  let hi = Math.max(...all, ...markers.map((m) => m.value));
  if (signal === "top_score") {
    lo = Math.max(-1, Math.floor(lo * 20) / 20);
    hi = Math.min(1, Math.ceil(hi * 20) / 20);
  } else {
    lo = Math.floor(lo * 20) / 20;
    hi = Math.ceil(hi * 20) / 20;
  }
  if (hi <= lo) hi = lo + 0.05;
  const width = (hi - lo) / binCount;
  const bins: DistributionBin[] = Array.from({ length: binCount }, (_, i) => {
    const x0 = lo + i * width;
    const x1 = lo + (i + 1) * width;
    return {
      x0,
      x1,
      x: (x0 + x1) / 2,
      label: `${x0.toFixed(2)}–${x1.toFixed(2)}`,
      present: 0,
      absent: 0,
      presentShare: 0,
      absentShare: 0,
    };
  });
  const binOf = (v: number) => Math.min(binCount - 1, Math.max(0, Math.floor((v - lo) / width)));
  for (const v of present) bins[binOf(v)]!.present += 1;
  for (const v of absent) bins[binOf(v)]!.absent += 1;
  for (const bin of bins) {
    bin.presentShare = present.length ? bin.present / present.length : 0;
    bin.absentShare = absent.length ? bin.absent / absent.length : 0;
  }
  return { ...base, bins, domain: [lo, hi], empty: null };
}

/** The plot width assumed before the chart has measured itself (a laptop's half-width panel). */
export const ASSUMED_DISTRIBUTION_PLOT_PX = 520;

/** The markers' labels placed for a plot `plotPx` wide (measured by the chart), within its domain. */
export function layoutDistributionLabels(
  data: Pick<PreparedDistribution, "markers" | "domain">,
  plotPx: number = ASSUMED_DISTRIBUTION_PLOT_PX,
  fontPx = 11,
): LineLabelLayout {
  return placeLineLabels(data.markers, data.domain, plotPx, fontPx);
}

export interface RocSeries {
  signal: "top_score" | "prominence" | "relative_margin";
  color: string;
  auc: number | null;
  points: RocPoint[];
}

export interface PreparedRoc {
  series: RocSeries[];
  present: number;
  absent: number;
  empty: string | null;
}

export function prepareRocChart(items: readonly EvalRunItem[]): PreparedRoc {
  const judged = items.filter((i) => i.level !== null);
  const pos = judged.filter((i) => i.relevant.length > 0);
  const neg = judged.filter((i) => i.relevant.length === 0);
  const series = (["top_score", "prominence", "relative_margin"] as const).map((signal) => {
    const curve = rocCurve(
      pos.map((i) => i[signal]),
      neg.map((i) => i[signal]),
    );
    return {
      signal,
      color: SIGNAL_COLORS[signal],
      auc: curve.auc,
      points: curve.points.map((p) => ({ ...p, threshold: Number.isFinite(p.threshold) ? p.threshold : Number.MAX_VALUE })),
    };
  });
  const empty =
    pos.length === 0 || neg.length === 0
      ? `A ROC curve needs both present and absent queries; this run has ${pos.length} present and ${neg.length} absent.`
      : null;
  return { series: empty ? [] : series, present: pos.length, absent: neg.length, empty };
}
