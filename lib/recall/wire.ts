/**
 * The one translation of the reference memory service's wire format (`RecallResponse`) into the
 * dashboard's terms, used alike by the remote store (a live answer) and by ingestion (a captured
 * answer), so both paths keep the same defaults and the same rule for a bad selector block
 * (lib/recall/README.md "Wire translation"). Pure: no I/O.
 */
import { z } from "zod";
import { backgroundMeanFromProminence, computeConfidence, type Basis, type ConfidenceResult } from "./confidence";
import { zodIssuesText } from "./errors";
import type { SearchMode } from "./merge";
import { RecallResponseSchema, type RecallConfidence, type RecallResponse } from "./schemas";
import { SelectorWireSchema, type IngestedSelectorBlock } from "./selector-block";
import { DEFAULT_THRESHOLDS, type Thresholds } from "./thresholds";

/** The confidence block as the log keeps it: the reference keys plus the dashboard's. */
export type LoggedConfidence = ConfidenceResult & {
  /** The threshold values of the profile, so markers can be drawn. */
  threshold_values: Thresholds;
  /** True when `background_mean` was derived as top/(1+prominence), not computed from a pool. */
  background_derived?: boolean;
  /**
   * Who worked the block out when it is not a service's statement: `"scores"` — computed here by
   * the fallback rules from the returned scores alone (an OpenTelemetry span that stated none, a
   * service's older answer without a block).
   */
  computed_from?: "scores";
};

/** One returned memory as the log keeps it. */
export interface LoggedResult {
  memory_id: string;
  summary: string;
  /** The reference's `score`: hybrid score, raw cosine (semantic mode) or raw BM25 (keyword mode); null if a service left it out. */
  score: number | null;
  type?: string;
  tags?: string[];
  importance?: number;
  created_at?: string;
  updated_at?: string;
  /** Removed from the page by the selector (in the stored page only; reads split it out, lib/recall-log/page.ts). */
  dropped?: boolean;
  /** 1-based position on the page the selector was given (in reads). */
  rank?: number;
}

/** The degraded reason recorded when a response says `degraded: true` without saying why. */
export const UNSPECIFIED_DEGRADED_REASON = "unspecified";

/**
 * The service's older documented answer read as the newer one: its results name the memory
 * `id`, not `memory_id` (it also carries a `total` and no confidence block, which the loose
 * schema keeps and `confidenceOfAnswer` makes up for). Anything else is returned as it is.
 */
export function newerAnswerShape(json: unknown): unknown {
  const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === "object" && v !== null && !Array.isArray(v);
  const older = (r: unknown): r is Record<string, unknown> & { id: string } =>
    isRecord(r) && (r.memory_id === undefined || r.memory_id === null) && typeof r.id === "string";
  if (!isRecord(json) || !Array.isArray(json.results) || !json.results.some(older)) return json;
  return {
    ...json,
    results: json.results.map((r: unknown) => {
      if (!older(r)) return r;
      const { id, ...rest } = r;
      return { memory_id: id, ...rest };
    }),
  };
}

/**
 * `RecallResponse` with the `selector` key left undecoded: the selector block is newer than the
 * API description, so a malformed one must not sink the rest of the answer. Decode it with
 * `decodeSelectorBlock`. The older answer shape is read too (`newerAnswerShape`).
 */
export const LenientRecallResponseSchema = z.preprocess(
  newerAnswerShape,
  RecallResponseSchema.extend({ selector: z.unknown().optional() }),
);

/**
 * The one rule for a selector block: a valid one is kept as sent (tolerantly — missing keys stay
 * missing); a malformed one is dropped with a warning saying why, never failing the recall.
 */
export function decodeSelectorBlock(raw: unknown): { selector: IngestedSelectorBlock | null; warnings: string[] } {
  if (raw === null || raw === undefined) return { selector: null, warnings: [] };
  const parsed = SelectorWireSchema.safeParse(raw);
  if (parsed.success) return { selector: parsed.data, warnings: [] };
  return {
    selector: null,
    warnings: [`The service's selector block was malformed and is ignored (${zodIssuesText(parsed.error.issues, ".selector")}).`],
  };
}

/** A service answer decoded by the one rule: the response (selector decoded or null) and its warnings. */
export function decodeRecallResponse(
  json: unknown,
): { success: true; response: RecallResponse; warnings: string[] } | { success: false; issues: z.core.$ZodIssue[] } {
  const parsed = LenientRecallResponseSchema.safeParse(json);
  if (!parsed.success) return { success: false, issues: parsed.error.issues };
  const { selector, warnings } = decodeSelectorBlock(parsed.data.selector);
  return { success: true, response: { ...parsed.data, selector: selector ?? undefined }, warnings };
}

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
): LoggedConfidence {
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

/**
 * The fallback rules over the returned scores alone, marked as computed here: what a recall
 * whose answer states no block is judged by (lib/recall/README.md "Wire translation"). The one
 * home for it: OpenTelemetry spans without a block, the service's older answer.
 */
export function confidenceFromScores(scores: readonly number[]): LoggedConfidence {
  const result = computeConfidence({ hybridScores: scores.filter((s) => Number.isFinite(s)) });
  return { ...result, threshold_values: { ...DEFAULT_THRESHOLDS }, computed_from: "scores" };
}

/** An answer's block as stated (`confidenceFromWire`), or computed from its result scores when it states none. */
export function confidenceOfAnswer(
  response: Pick<RecallResponse, "confidence" | "results">,
  context: { degraded?: boolean; searchMode?: SearchMode | null } = {},
): LoggedConfidence {
  if (response.confidence) return confidenceFromWire(response.confidence, context);
  return confidenceFromScores(response.results.flatMap((r) => (typeof r.score === "number" ? [r.score] : [])));
}

const RATIONALE_PREFIXES: readonly (readonly [string, Basis])[] = [
  ["Top semantic cosine", "semantic"],
  ["Single semantic candidate", "single_semantic"],
  ["Keyword-only pool", "zscore"],
  ["Single candidate", "single"],
  ["No candidates", "empty"],
];

/**
 * Which rule family ran, from the rationale prefix (docs/reference-rules.md "The confidence block");
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

export function resultsFromWire(results: RecallResponse["results"]): LoggedResult[] {
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

export function degradedFromWire(response: Pick<RecallResponse, "degraded" | "degraded_reason">): { reason: string } | undefined {
  return response.degraded === true ? { reason: response.degraded_reason ?? UNSPECIFIED_DEGRADED_REASON } : undefined;
}
