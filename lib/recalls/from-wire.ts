import { backgroundMeanFromProminence, type Basis } from "@/lib/recall/confidence";
import type { RecallConfidence, RecallResponse } from "@/lib/recall/schemas";
import { parseSelector, type IngestedSelectorBlock } from "@/lib/recall/selector";
import { DEFAULT_THRESHOLDS } from "@/lib/recall/thresholds";
import type { ConfidenceView, RecallResultView } from "./types";

/**
 * Turns what a reference memory service answered (a decoded `RecallResponse`) into the
 * dashboard's view of it, recomputing nothing the response states: the level, top score,
 * prominence, margin, pool size and rationale are kept as sent. What the response does not carry
 * is derived and marked (the background mean, from top/(1+prominence)) or left unknown (the
 * background std, the trace, the pool).
 */
export function confidenceFromWire(block: RecallConfidence | undefined, degraded: boolean): ConfidenceView | null {
  if (!block) return null;
  const top = block.top_score ?? null;
  const prominence = block.prominence ?? null;
  const backgroundMean = backgroundMeanFromProminence(top, prominence);
  const rationale = block.rationale ?? "";
  return {
    level: block.level,
    top_score: top,
    prominence,
    relative_margin: block.relative_margin ?? null,
    result_count: block.result_count,
    rationale,
    background_mean: backgroundMean,
    background_std: null,
    background_derived: backgroundMean !== null,
    basis: basisFromWire(rationale, prominence, block.result_count, degraded),
    // The service applies its module constants, which are the reference (default) profile.
    thresholds: DEFAULT_THRESHOLDS.name,
    threshold_values: { ...DEFAULT_THRESHOLDS },
    trace: [],
  };
}

/**
 * Which rule path ran, read from the response as the spec describes: the rationale's prefix,
 * then prominence, the pool size and `degraded`.
 */
export function basisFromWire(rationale: string, prominence: number | null, resultCount: number, degraded: boolean): Basis {
  if (rationale.startsWith("No candidates") || resultCount === 0) return "empty";
  if (rationale.startsWith("Single semantic candidate")) return "single_semantic";
  if (rationale.startsWith("Single candidate")) return "single";
  if (rationale.startsWith("Keyword-only pool") || degraded) return "zscore";
  if (rationale.startsWith("Top semantic cosine") || prominence !== null) return "semantic";
  return resultCount === 1 ? "single" : "zscore";
}

export function resultsFromWire(results: RecallResponse["results"]): RecallResultView[] {
  return results.map((r) => ({
    memory_id: r.memory_id,
    summary: r.summary ?? "",
    score: r.score ?? null,
    ...(r.type ? { type: r.type } : {}),
    ...(r.tags ? { tags: r.tags } : {}),
    ...(r.importance !== undefined ? { importance: r.importance } : {}),
    ...(r.created_at ? { created_at: r.created_at } : {}),
    ...(r.updated_at ? { updated_at: r.updated_at } : {}),
  }));
}

export function selectorFromWire(block: RecallResponse["selector"]): IngestedSelectorBlock | null {
  return block ? parseSelector(block) : null;
}

export function degradedFromWire(response: RecallResponse): { reason: string } | undefined {
  return response.degraded ? { reason: response.degraded_reason ?? "unknown" } : undefined;
}
