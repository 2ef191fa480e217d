import { formatScore, plural } from "@/lib/format";
import type { Level } from "@/lib/recall/confidence";
import type { LoggedConfidence } from "@/lib/recall-log/types";
import { METRIC_LABELS } from "./metrics";
import type { ChartView, DistributionMarker, ScoreDistributionInput, ScoreMetric } from "./types";

export function describe(
  input: ScoreDistributionInput,
  chartView: ChartView,
  plotted: ScoreMetric,
  count: number,
  poolCount: number,
  markers: readonly DistributionMarker[],
): string {
  const what = chartView === "zscore" ? `${METRIC_LABELS[plotted]} scores, z-score view` : `${METRIC_LABELS[plotted]} scores`;
  const parts = [
    `Score distribution of ${plural(count, "candidate", "candidates")} (${poolCount} in the confidence pool), ${what}.`,
  ];
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

export function describeWithoutPool(
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
  if (mean)
    parts.push(
      conf.background_derived === true ? `Background mean ≈ ${mean.valueText} (derived).` : `Background mean ${mean.valueText}.`,
    );
  if (chartView === "cosine" && conf.prominence !== null) parts.push(`Prominence ${formatScore(conf.prominence)}.`);
  parts.push(`Level ${conf.level}.`);
  if (markers.length > 0) parts.push("Markers are listed below the chart.");
  return parts.join(" ");
}
