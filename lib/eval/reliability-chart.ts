/**
 * Prepare step of the report's reliability diagram (docs/ARCHITECTURE.md "Charts: prepare, then
 * visualise"): each non-empty bin as a point (mean predicted, observed rate) in a square plot, its
 * radius growing with its share of the queries, and the diagonal a calibrated probability lies on.
 * Pure.
 */
import type { ReliabilityBin } from "@/lib/calibration/model/reliability";

export interface ReliabilityPoint {
  x: number;
  y: number;
  r: number;
  label: string;
}

export interface ReliabilityChart {
  size: number;
  pad: number;
  points: ReliabilityPoint[];
  /** The diagonal, from (0,0) to (1,1) in plot coordinates. */
  diagonal: { x1: number; y1: number; x2: number; y2: number };
  ticks: { value: number; at: number }[];
}

export function reliabilityChart(bins: readonly ReliabilityBin[], size = 220, pad = 28): ReliabilityChart {
  const inner = size - 2 * pad;
  const total = bins.reduce((s, b) => s + b.count, 0);
  const x = (p: number) => pad + p * inner;
  const y = (p: number) => size - pad - p * inner;
  const points = bins
    .filter((b) => b.count > 0 && b.mean_predicted !== null && b.observed_rate !== null)
    .map((b) => ({
      x: x(b.mean_predicted!),
      y: y(b.observed_rate!),
      r: 3 + 9 * Math.sqrt(b.count / Math.max(1, total)),
      label: `${b.count} quer${b.count === 1 ? "y" : "ies"} predicted ${b.mean_predicted!.toFixed(2)} on average, ${b.observed_rate!.toFixed(2)} had something relevant`,
    }));
  return {
    size,
    pad,
    points,
    diagonal: { x1: x(0), y1: y(0), x2: x(1), y2: y(1) },
    ticks: [0, 0.5, 1].map((value) => ({ value, at: x(value) })),
  };
}
