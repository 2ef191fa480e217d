/**
 * zod schemas for the reference memory service's recall wire types
 * (docs/memory-service-api.md "Recall: POST /api/v1/memory/recall", docs/reference-rules.md "The confidence block").
 *
 * Tolerant decoders: REST drops every null key recursively while MCP keeps them, so missing and
 * null are treated alike (null is normalized to undefined); unknown keys are kept
 * (`z.looseObject`), so newer service fields survive ingestion. Only what the dashboard relies
 * on is required: `query` in a request, `results` in a response, `memory_id` in a result,
 * `level` and `result_count` in a confidence block.
 */
import { z } from "zod";
import { withInputRules } from "@/lib/validation/input-rules";
import { nullish, withDefault } from "@/lib/validation/tolerant";
import { MAX_POOL_SCORES } from "./confidence";
import { SelectorWireSchema } from "./selector-block";
import { ThresholdsOverrideSchema } from "./thresholds";

export const LevelSchema = z.enum(["high", "moderate", "low", "none"]);
export const SearchModeSchema = z.enum(["hybrid", "semantic", "keyword"]);

// ---------------------------------------------------------------------------------------------
// Request

export const ImportanceRangeSchema = z.looseObject({
  gte: nullish(z.number()),
  lte: nullish(z.number()),
  gt: nullish(z.number()),
  lt: nullish(z.number()),
});

export const AnalysisClusterSchema = z.looseObject({
  run_id: z.string().min(1),
  cluster_index: z.number().int(),
});

/** Recognised `filters` keys (§2.3); the dict is free-form, so other keys are kept. */
export const RecallFiltersSchema = z.looseObject({
  context_id: nullish(z.string().min(1)),
  scope: nullish(z.string()),
  type: nullish(z.string()),
  importance: nullish(ImportanceRangeSchema),
  tags: nullish(z.array(z.string())),
  tags_match: nullish(z.enum(["any", "all"])),
  created_after: nullish(z.string()),
  created_before: nullish(z.string()),
  updated_after: nullish(z.string()),
  updated_before: nullish(z.string()),
  source_uri_prefix: nullish(z.string()),
  source_type: nullish(z.string()),
  trust_tier: nullish(z.string()),
  analysis_cluster: nullish(AnalysisClusterSchema),
  client: nullish(z.string()),
});

/**
 * `RecallRequest` (newest schema). Defaults as the service applies them: `k` 5, the booleans
 * false. `search_mode` stays undefined when unset (the server resolves it). `context_id` /
 * `context_ids` are MCP-only arguments, accepted for captured MCP calls.
 */
export const RecallRequestSchema = z.looseObject({
  query: z.string().min(1).max(8000),
  k: withDefault(z.number().int().min(1).max(100), 5),
  use_rerank: withDefault(z.boolean(), false),
  filters: nullish(RecallFiltersSchema),
  search_mode: nullish(SearchModeSchema),
  include_explore_hints: withDefault(z.boolean(), false),
  include_superseded: withDefault(z.boolean(), false),
  context_id: nullish(z.string().min(1)),
  context_ids: nullish(z.array(z.string().min(1)).min(2).max(20)),
});

// ---------------------------------------------------------------------------------------------
// Response

/** The reference's confidence block (no basis, no background mean/std on the wire). */
export const RecallConfidenceSchema = z.looseObject({
  level: LevelSchema,
  top_score: nullish(z.number()),
  prominence: nullish(z.number()),
  relative_margin: nullish(z.number()),
  result_count: z.number().int().min(0),
  rationale: nullish(z.string()),
});

export const SupersedeCandidateSchema = z.looseObject({
  memory_id: z.string().min(1),
  summary: nullish(z.string()),
  similarity: nullish(z.number()),
  detected_at: nullish(z.string()),
});

/** One result. `score` is the hybrid score, the raw cosine or raw BM25, depending on mode. */
export const MemoryResponseSchema = z.looseObject({
  memory_id: z.string().min(1),
  summary: nullish(z.string()),
  context_summary: nullish(z.string()),
  type: nullish(z.string()),
  importance: nullish(z.number()),
  scope: nullish(z.string()),
  created_at: nullish(z.string()),
  updated_at: nullish(z.string()),
  client: nullish(z.string()),
  tags: nullish(z.array(z.string())),
  context: nullish(z.record(z.string(), z.unknown())),
  score: nullish(z.number()),
  source_uri: nullish(z.string()),
  source_type: nullish(z.string()),
  superseded_by: nullish(z.string()),
  contradicts: nullish(z.array(z.string())),
  supersede_candidate: nullish(SupersedeCandidateSchema),
});

export const RelatedTagSchema = z.looseObject({
  tag: z.string(),
  count: z.number().int().min(0),
  sample_summary: nullish(z.string()),
  last_used_at: nullish(z.string()),
});

export const ExploreHintSchema = z.looseObject({
  memory_id: z.string().min(1),
  reason: z.string(),
});

/**
 * `RecallResponse` (REST) — also accepts the MCP tool result, whose extra keys (`status`,
 * `count`, `context_*`) are kept. `confidence` is optional for responses from services that
 * predate it; `selector` is decoded with the tolerant selector decoder.
 */
export const RecallResponseSchema = z.looseObject({
  results: z.array(MemoryResponseSchema),
  related_tags: nullish(z.array(RelatedTagSchema)),
  explore_hints: nullish(z.array(ExploreHintSchema)),
  tag_suggestions: nullish(z.record(z.string(), z.array(z.string()))),
  confidence: nullish(RecallConfidenceSchema),
  degraded: nullish(z.boolean()),
  degraded_reason: nullish(z.string()),
  selector: nullish(SelectorWireSchema),
});

export type RecallFilters = z.output<typeof RecallFiltersSchema>;
export type RecallRequest = z.output<typeof RecallRequestSchema>;
export type RecallRequestInput = z.input<typeof RecallRequestSchema>;
export type RecallConfidence = z.output<typeof RecallConfidenceSchema>;
export type MemoryResponse = z.output<typeof MemoryResponseSchema>;
export type RelatedTag = z.output<typeof RelatedTagSchema>;
export type ExploreHint = z.output<typeof ExploreHintSchema>;
export type RecallResponse = z.output<typeof RecallResponseSchema>;
export type RecallResponseInput = z.input<typeof RecallResponseSchema>;

// ---------------------------------------------------------------------------------------------
// The dashboard's own POST /api/confidence body

/** `{ hybrid_scores?, semantic_raw?, thresholds? }`: a pool to judge, optionally with another profile. */
export const ConfidenceRequestSchema = withInputRules(
  z.strictObject({
    hybrid_scores: z.array(z.number()).max(MAX_POOL_SCORES).default([]),
    semantic_raw: z.array(z.number()).max(MAX_POOL_SCORES).nullish(),
    thresholds: ThresholdsOverrideSchema.nullish(),
  }),
);
export type ConfidenceRequest = z.output<typeof ConfidenceRequestSchema>;
