/**
 * "Why this level": one English sentence per trace step, for the console's explanation panel.
 * Numbers are shown to 3 decimals (Python-style rounding); the trace itself stays unrounded.
 */
import type { TraceStep } from "./confidence";
import { formatFixed } from "./numeric";

const n3 = (x: number): string => formatFixed(x, 3);

function plural(count: number, word: string): string {
  return `${count} ${word}${count === 1 ? "" : "s"}`;
}

function explainBasis(step: Extract<TraceStep, { rule: "basis" }>): string {
  switch (step.basis) {
    case "empty":
      return "The candidate pool is empty.";
    case "single":
      return "The pool holds a single candidate and no raw cosine, so there is no background to compare against.";
    case "single_semantic":
      return `Only one of ${plural(step.candidate_count, "candidate")} carries a raw cosine, so it is judged by absolute strength alone.`;
    case "semantic":
      return `${step.semantic_count} of ${plural(step.candidate_count, "candidate")} carry a raw cosine; the level comes from the semantic rules.`;
    case "zscore":
      return `No candidate carries a raw cosine; the level comes from the z-score of ${plural(step.candidate_count, "score")}.`;
  }
}

export function explainStep(step: TraceStep): string {
  switch (step.rule) {
    case "basis":
      return explainBasis(step);
    case "empty_pool":
      return "No candidates were retrieved → none.";
    case "single_candidate":
      if (step.path === "fallback") return `A single candidate (score ${n3(step.value)}) is always rated moderate.`;
      return step.band === "moderate"
        ? `The single cosine ${n3(step.value)} ≥ ${n3(step.threshold)} → moderate.`
        : `The single cosine ${n3(step.value)} < ${n3(step.threshold)} → low.`;
    case "background": {
      const ties =
        step.top_ties > 0
          ? ` (${plural(step.top_ties, "tie")} with the top ${step.top_ties === 1 ? "stays" : "stay"} in it)`
          : "";
      return `Background: the other ${plural(step.count, "candidate")}${ties}, mean ${n3(step.mean)}, std ${n3(step.std)}; top ${n3(step.top)}.`;
    }
    case "flat_background":
      return step.path === "semantic"
        ? `The background std ${n3(step.std)} is flat (≤ ${step.threshold}), so there is no relative margin.`
        : `The background std ${n3(step.std)} is flat (≤ ${step.threshold}), so z is the relative gap (top − mean) / ${n3(step.denominator)}.`;
    case "background_frame":
      return step.usable
        ? `The background mean ${n3(step.value)} > ${step.threshold}, so prominence bands apply.`
        : `The background mean ${n3(step.value)} ≤ ${step.threshold}: no usable frame for prominence, so absolute cosine bands apply.`;
    case "absolute_guard":
      return `Prominence ${n3(step.prominence)} ≥ ${n3(step.prominence_threshold)} would give ${step.blocked}, but the top cosine ${n3(step.value)} < ${n3(step.threshold)} blocks it.`;
    case "prominence_band":
      return step.band === "none"
        ? `Prominence ${n3(step.value)} < ${n3(step.threshold)} → none.`
        : `Prominence ${n3(step.value)} ≥ ${n3(step.threshold)} → ${step.band}.`;
    case "absolute_bands":
      return step.band === "none"
        ? `The top cosine ${n3(step.value)} < ${n3(step.threshold)} → none.`
        : `The top cosine ${n3(step.value)} ≥ ${n3(step.threshold)} → ${step.band}.`;
    case "near_duplicate_floor":
      return `The top cosine ${n3(step.value)} ≥ ${n3(step.threshold)} is a near-duplicate match, lifting ${step.from} → moderate.`;
    case "zscore_band": {
      const what = step.method === "std" ? "z-score" : "relative gap";
      return step.band === "none"
        ? `The ${what} ${n3(step.value)} < ${n3(step.threshold)} → none.`
        : `The ${what} ${n3(step.value)} ≥ ${n3(step.threshold)} → ${step.band}.`;
    }
  }
  const unreachable: never = step;
  return unreachable;
}

/** Sentences for a whole trace, in order. */
export function explainTrace(trace: readonly TraceStep[]): string[] {
  return trace.map(explainStep);
}
