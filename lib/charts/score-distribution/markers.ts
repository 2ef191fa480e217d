import { formatScore } from "@/lib/format";
import type { Basis } from "@/lib/recall/confidence";
import { fmean } from "@/lib/recall/numeric";
import type { Thresholds } from "@/lib/recall/thresholds";
import { METRIC_LABELS, formatFactor } from "./metrics";
import { BAND_COLORS, MARKER_COLORS, MARKER_DASH } from "./palette";
import type { BandLevel, DistributionMarker, ScoreDistributionInput, ScoreMetric } from "./types";

// ---------------------------------------------------------------------------------------------
// Markers

export type MarkerDraft = Omit<DistributionMarker, "valueText" | "color" | "dash" | "strokeWidth" | "inDomain" | "labelRow">;

export function finishMarker(d: MarkerDraft): DistributionMarker {
  const color = d.kind === "prominence_band" || d.kind === "z_band" ? BAND_COLORS[d.band ?? "low"] : MARKER_COLORS[d.kind];
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
export function cosineMarkers(
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
export function zscoreMarkers(
  input: ScoreDistributionInput,
  top: number | null,
  plotted: ScoreMetric,
  notes: string[],
): MarkerDraft[] {
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
export function scoreMarkers(
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
