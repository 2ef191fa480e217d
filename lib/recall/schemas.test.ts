import { describe, expect, it } from "vitest";
import { computeConfidence, LEVELS, levelRank, toWireConfidence, type Level } from "./confidence";
import { S1_PRESENT_BLOCK } from "./confidence.golden-cases";
import {
  LevelSchema,
  MemoryResponseSchema,
  RecallConfidenceSchema,
  RecallRequestSchema,
  RecallResponseSchema,
  type RecallResponse,
} from "./schemas";

// The example shapes of docs/memory-service-api.md "Example answers".
const REST_EXAMPLE = {
  results: [
    {
      memory_id: "3f1c…",
      summary: "JWT expiry caused 401 …",
      type: "bug-fix",
      importance: 0.8,
      scope: "persistent",
      created_at: "2026-06-01T09:12:00Z",
      updated_at: "2026-06-10T11:00:00Z",
      client: "mcp",
      tags: ["auth", "jwt"],
      score: 0.9333,
      contradicts: [],
    },
  ],
  related_tags: [{ tag: "auth", count: 1, sample_summary: "JWT expiry caused 401 …" }],
  confidence: S1_PRESENT_BLOCK,
};

const MCP_EXAMPLE = {
  status: "success",
  results: [
    {
      memory_id: "m-1",
      summary: "…",
      context_summary: null,
      type: "note",
      importance: 0.5,
      scope: "working",
      score: 0.6,
      tags: [],
      created_at: "2026-06-01T09:12:00Z",
      updated_at: null,
      superseded_by: null,
      contradicts: [],
    },
  ],
  count: 1,
  related_tags: [],
  context_id: "c-1",
  context_name: "ctx",
  context_display_name: "Ctx",
  context_is_private: true,
  context_is_locked: false,
  confidence: { level: "none", top_score: null, prominence: null, relative_margin: null, result_count: 0, rationale: "…" },
};

describe("RecallResponseSchema", () => {
  it("decodes the REST example, and its confidence is golden case S-1", () => {
    const parsed: RecallResponse = RecallResponseSchema.parse(REST_EXAMPLE);
    expect(parsed.results[0]?.memory_id).toBe("3f1c…");
    expect(parsed.confidence).toEqual(
      toWireConfidence(
        computeConfidence({ hybridScores: [], semanticRaw: [0.919, 0.676, 0.67, 0.615, 0.608, 0.537, 0.52, 0.5] }),
      ),
    );
  });

  it("decodes the empty-pool and degraded REST shapes (null keys omitted)", () => {
    const empty = RecallResponseSchema.parse({
      results: [],
      related_tags: [],
      confidence: {
        level: "none",
        result_count: 0,
        rationale: "No candidates retrieved — likely nothing relevant in this context.",
      },
    });
    expect(empty.confidence?.top_score).toBeUndefined();
    const degraded = RecallResponseSchema.parse({
      results: [],
      related_tags: [],
      confidence: { level: "high", top_score: 12.7, relative_margin: 3.2, result_count: 5, rationale: "…" },
      degraded: true,
      degraded_reason: "embedding_unavailable",
    });
    expect(degraded).toMatchObject({ degraded: true, degraded_reason: "embedding_unavailable" });
    expect(degraded.confidence?.prominence).toBeUndefined();
  });

  it("treats the MCP result's nulls like missing keys and keeps its extra keys", () => {
    const parsed = RecallResponseSchema.parse(MCP_EXAMPLE);
    expect(parsed.confidence?.top_score).toBeUndefined();
    expect(parsed.confidence?.prominence).toBeUndefined();
    expect(parsed.results[0]?.context_summary).toBeUndefined();
    expect(parsed.results[0]?.updated_at).toBeUndefined();
    expect(parsed).toMatchObject({ status: "success", count: 1, context_id: "c-1", context_is_private: true });
    // Both serializations decode to the same JSON.
    const rest = RecallResponseSchema.parse(
      JSON.parse(JSON.stringify(MCP_EXAMPLE, (_k, v: unknown) => (v === null ? undefined : v))),
    );
    expect(JSON.parse(JSON.stringify(parsed))).toEqual(JSON.parse(JSON.stringify(rest)));
  });

  it("keeps unknown keys at every level", () => {
    const parsed = RecallResponseSchema.parse({
      results: [{ memory_id: "a", rerank_score: 0.3 }],
      confidence: { level: "low", result_count: 2, future_field: "x" },
      new_block: { a: 1 },
    });
    expect(parsed).toMatchObject({ new_block: { a: 1 } });
    expect(parsed.results[0]).toMatchObject({ rerank_score: 0.3 });
    expect(parsed.confidence).toMatchObject({ future_field: "x" });
  });

  it("decodes an optional selector block tolerantly", () => {
    const parsed = RecallResponseSchema.parse({
      results: [],
      selector: { applied: true, model: "m", kept: 3, dropped: 42, dropped_memory_ids: ["a", "b"], reason: "…" },
    });
    expect(parsed.selector).toEqual({ applied: true, model: "m", kept: 3, dropped: 42, dropped_memory_ids: ["a", "b"] });
    expect(RecallResponseSchema.parse({ results: [], selector: null }).selector).toBeUndefined();
    expect(
      RecallResponseSchema.safeParse({ results: [], selector: { applied: true, dropped: 1, dropped_memory_ids: ["a", "b"] } })
        .success,
    ).toBe(false);
  });

  it("rejects what the dashboard cannot use", () => {
    expect(RecallResponseSchema.safeParse({}).success).toBe(false); // no results
    expect(RecallResponseSchema.safeParse({ results: null }).success).toBe(false);
    expect(RecallResponseSchema.safeParse({ results: [{ summary: "no id" }] }).success).toBe(false);
    expect(RecallConfidenceSchema.safeParse({ level: "certain", result_count: 1 }).success).toBe(false);
    expect(RecallConfidenceSchema.safeParse({ level: "high" }).success).toBe(false);
    expect(RecallConfidenceSchema.safeParse({ level: "high", result_count: 1, top_score: "0.9" }).success).toBe(false);
  });

  it("MemoryResponse: only memory_id is required", () => {
    expect(MemoryResponseSchema.parse({ memory_id: "x" })).toEqual({ memory_id: "x" });
    expect(MemoryResponseSchema.safeParse({ memory_id: "x", tags: "auth" }).success).toBe(false);
  });
});

describe("RecallRequestSchema", () => {
  it("applies the service defaults for missing and null keys", () => {
    const defaults = { query: "jwt", k: 5, use_rerank: false, include_explore_hints: false, include_superseded: false };
    expect(RecallRequestSchema.parse({ query: "jwt" })).toEqual(defaults);
    const fromNulls = RecallRequestSchema.parse({
      query: "jwt",
      k: null,
      use_rerank: null,
      filters: null,
      search_mode: null,
      include_explore_hints: null,
      include_superseded: null,
    });
    expect(JSON.parse(JSON.stringify(fromNulls))).toEqual(defaults);
    expect(fromNulls.search_mode).toBeUndefined();
  });

  it("validates query length, k range and search_mode", () => {
    expect(RecallRequestSchema.safeParse({ query: "" }).success).toBe(false);
    expect(RecallRequestSchema.safeParse({ query: "x".repeat(8001) }).success).toBe(false);
    expect(RecallRequestSchema.safeParse({ query: "x".repeat(8000) }).success).toBe(true);
    expect(RecallRequestSchema.safeParse({ query: "q", k: 0 }).success).toBe(false);
    expect(RecallRequestSchema.safeParse({ query: "q", k: 101 }).success).toBe(false);
    expect(RecallRequestSchema.safeParse({ query: "q", k: 2.5 }).success).toBe(false);
    expect(RecallRequestSchema.safeParse({ query: "q", search_mode: "vector" }).success).toBe(false);
    expect(RecallRequestSchema.parse({ query: "q", k: 100, search_mode: "keyword" })).toMatchObject({
      k: 100,
      search_mode: "keyword",
    });
  });

  it("types the known filters and keeps the free-form rest", () => {
    const parsed = RecallRequestSchema.parse({
      query: "q",
      filters: {
        context_id: "c-1",
        tags: ["auth"],
        tags_match: "all",
        importance: { gte: 0.5 },
        analysis_cluster: { run_id: "r-1", cluster_index: 2 },
        trust_tier: "trusted",
        custom_key: 7,
      },
    });
    expect(parsed.filters).toMatchObject({ context_id: "c-1", tags_match: "all", custom_key: 7 });
    expect(RecallRequestSchema.safeParse({ query: "q", filters: { tags_match: "some" } }).success).toBe(false);
    expect(RecallRequestSchema.safeParse({ query: "q", filters: { analysis_cluster: { run_id: "r" } } }).success).toBe(false);
  });

  it("accepts the MCP-only context arguments", () => {
    expect(RecallRequestSchema.parse({ query: "q", context_ids: ["a", "b"] }).context_ids).toEqual(["a", "b"]);
    expect(RecallRequestSchema.safeParse({ query: "q", context_ids: ["a"] }).success).toBe(false);
  });
});

// Moved from the removed barrel's test: the two checks there that were about behaviour.
describe("wire schemas and the library agree", () => {
  it("the wire level enum and the library's levels agree", () => {
    expect([...LevelSchema.options].sort()).toEqual([...LEVELS].sort());
    const level: Level = LevelSchema.parse("low");
    expect(levelRank(level)).toBe(1);
  });

  it("a computed block validates against the reference wire schema", () => {
    const block = toWireConfidence(computeConfidence({ hybridScores: [0.9, 0.3, 0.2] }));
    expect(RecallConfidenceSchema.parse(block)).toMatchObject({ level: block.level, result_count: 3 });
  });
});
