import { backgroundMeanFromProminence, type Basis } from "@/lib/recall/confidence";
import type { SearchMode } from "@/lib/recall/merge";
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
export function confidenceFromWire(
  block: RecallConfidence,
  context: { degraded?: boolean; searchMode?: SearchMode | null } = {},
): ConfidenceView {
  const top = block.top_score ?? null;
  const prominence = block.prominence ?? null;
  // Approximate: the service rounded both inputs to 3 dp.
  const backgroundMean = backgroundMeanFromProminence(top, prominence);
  return {
    level: block.level,
    top_score: top,
    prominence,
    relative_margin: block.relative_margin ?? null,
    result_count: block.result_count,
    rationale: block.rationale ?? "",
    background_mean: backgroundMean,
    background_std: null,
    background_derived: backgroundMean !== null,
    basis: inferBasis(block, context),
    // The service's constants are the reference (default) profile.
    thresholds: DEFAULT_THRESHOLDS.name,
    threshold_values: { ...DEFAULT_THRESHOLDS },
    trace: [],
  };
}

const RATIONALE_PREFIXES: readonly (readonly [string, Basis])[] = [
  ["Top semantic cosine", "semantic"],
  ["Single semantic candidate", "single_semantic"],
  ["Keyword-only pool", "zscore"],
  ["Single candidate", "single"],
  ["No candidates", "empty"],
];

/**
 * Which rule family ran, from the rationale prefix (recall-confidence.md "The response block");
 * without a recognisable rationale, from the fields: an empty pool, a prominence (semantic), a
 * degraded or keyword-mode recall (fallback path), the pool size.
 */
export function inferBasis(
  block: { top_score?: number | null; prominence?: number | null; result_count: number; rationale?: string | null },
  context: { degraded?: boolean; searchMode?: SearchMode | null } = {},
): Basis {
  const rationale = block.rationale?.trimStart() ?? "";
  for (const [prefix, basis] of RATIONALE_PREFIXES) if (rationale.startsWith(prefix)) return basis;

  if (block.result_count === 0 || block.top_score === undefined || block.top_score === null) return "empty";
  if (block.prominence !== undefined && block.prominence !== null) return "semantic";
  const fallback = context.degraded === true || context.searchMode === "keyword";
  if (block.result_count === 1) return fallback ? "single" : "single_semantic";
  return fallback ? "zscore" : "semantic";
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
