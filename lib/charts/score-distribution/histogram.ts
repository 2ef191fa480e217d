import type { HistogramBin } from "./types";

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
