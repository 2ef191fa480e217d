/**
 * The signals the rules read from one pool, unrounded (from the trace), and the triage verdict
 * they give under a profile's thresholds without rerunning the rules — what lets a fit try
 * thousands of profiles over a labeled set. `worthReading` must agree with
 * `triageAdvice(computeConfidence(pool, t).level)` on every pool; signals.test.ts holds it to that.
 */
import { computeConfidence, type Basis, type ConfidenceInput } from "@/lib/recall/confidence";
import type { Thresholds } from "@/lib/recall/thresholds";

export interface PoolSignals {
  basis: Basis;
  /** The top raw cosine (semantic paths) or top score (fallback), unrounded; null when empty. */
  top: number | null;
  /** Unrounded prominence; null unless the background frame was usable. */
  prominence: number | null;
  /** Semantic path: mean_bg > bg_eps (bg_eps of the profile used to read the signals). */
  backgroundUsable: boolean;
  /** Fallback z (unrounded); null off the z-score path. */
  z: number | null;
}

export function poolSignals(input: ConfidenceInput): PoolSignals {
  const r = computeConfidence(input);
  const s: PoolSignals = { basis: r.basis, top: null, prominence: null, backgroundUsable: false, z: null };
  for (const step of r.trace) {
    if (step.rule === "background") s.top = step.top;
    else if (step.rule === "single_candidate") s.top = step.value;
    else if (step.rule === "background_frame") s.backgroundUsable = step.usable;
    else if (step.rule === "prominence_band") s.prominence = step.value;
    else if (step.rule === "zscore_band") s.z = step.value;
  }
  return s;
}

/** High or moderate under `t` (the rules' order: bands, guards, then the near-duplicate floor). */
export function worthReading(s: PoolSignals, t: Thresholds): boolean {
  switch (s.basis) {
    case "empty":
      return false;
    case "single":
      return true;
    case "zscore":
      return (s.z as number) >= t.z_moderate;
    case "single_semantic":
      return (s.top as number) >= t.strong_abs_cosine;
    case "semantic": {
      const top = s.top as number;
      if (top >= t.strong_abs_cosine) return true; // band high/moderate, or the floor lifts it
      if (!s.backgroundUsable) return top >= t.abs_moderate_cosine;
      const p = s.prominence as number;
      // high needs p ≥ high_prominence > moderate_prominence and top ≥ abs_moderate ≥ abs_low,
      // so it implies the moderate condition.
      return p >= t.moderate_prominence && top >= t.abs_low_cosine;
    }
  }
}
