/**
 * The fit's rule drawn on the signal distribution, the pure prepare step: top-cosine histograms
 * of present and absent examples on shared bins, and where the profile's cut falls.
 */
export interface SignalPoint {
  top: number | null;
  present: boolean;
}

export interface HistogramBin {
  /** Lower edge, inclusive. */
  from: number;
  to: number;
  label: string;
  present: number;
  absent: number;
}

export function topHistogram(points: readonly SignalPoint[], step = 0.05): HistogramBin[] {
  const tops = points.map((p) => p.top).filter((t): t is number => t !== null);
  if (tops.length === 0) return [];
  const lo = Math.floor(Math.min(...tops) / step) * step;
  const hi = Math.max(lo + step, Math.ceil((Math.max(...tops) + 1e-12) / step) * step);
  const n = Math.round((hi - lo) / step);
  const bins: HistogramBin[] = Array.from({ length: n }, (_, i) => {
    const from = Math.round((lo + i * step) * 1000) / 1000;
    const to = Math.round((lo + (i + 1) * step) * 1000) / 1000;
    return { from, to, label: from.toFixed(2), present: 0, absent: 0 };
  });
  for (const p of points) {
    if (p.top === null) continue;
    const i = Math.min(n - 1, Math.max(0, Math.floor((p.top - lo) / step + 1e-9)));
    bins[i]![p.present ? "present" : "absent"]++;
  }
  return bins;
}

/** The label of the bin a cut falls in (where the chart draws its line), or null off the chart. */
export function cutBinLabel(bins: readonly HistogramBin[], cut: number): string | null {
  const bin = bins.find((b) => cut >= b.from && cut < b.to);
  return bin ? bin.label : null;
}
