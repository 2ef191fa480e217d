/**
 * Contract tests: the real RemoteStore and HTTP client against a loopback server that speaks the
 * reference memory service's REST API (docs/memory-service-api.md).
 */
import { inspect } from "node:util";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { RecallResponseSchema } from "@/lib/recall/schemas";
import { DEFAULT_THRESHOLDS } from "@/lib/recall/thresholds";
import { inferBasis } from "@/lib/recall/wire";
import { RemoteStore, toRemoteOutcome } from "@/lib/stores/server/remote/remote-store";
import { StoreError, type StoreRecallRequest } from "@/lib/stores/types";
import { configFor, rejection, SECRET_QUERY } from "./helpers";
import { startFakeMemoryService, type FakeMemoryService } from "../../support/fake-memory-service";
import {
  FAKE_API_KEY,
  S1_CONFIDENCE,
  degradedRecallResponse,
  emptyRecallResponse,
  fullRecallResponse,
  olderRecallResponse,
  selectorRecallResponse,
  variantRecallResponse,
} from "../../support/fake-memory-service-fixtures";

const REQUEST: StoreRecallRequest = { query: SECRET_QUERY, k: 5, searchMode: "hybrid" };

describe("RemoteStore against the fake memory service", () => {
  let fake: FakeMemoryService;
  let store: RemoteStore;

  beforeAll(async () => {
    fake = await startFakeMemoryService();
    store = new RemoteStore(configFor(fake));
  });
  afterAll(() => fake.close());
  beforeEach(() => fake.reset());

  it("is a remote MemoryStore named by its config", () => {
    expect(store.kind).toBe("remote");
    expect(store.name).toBe("prod");
    expect(store.label).toBe("Production");
    const info = store.info();
    expect(info).toMatchObject({ name: "prod", kind: "remote", label: "Production" });
    expect(info.description).toContain(fake.url);
    expect(JSON.stringify(info)).not.toContain(FAKE_API_KEY);
    expect(JSON.stringify(store)).not.toContain(FAKE_API_KEY);
    expect(inspect(store, { depth: 10, showHidden: true })).not.toContain(FAKE_API_KEY);
  });

  it("sends the documented recall request: Bearer key, context_id in filters, k, search_mode, use_rerank", async () => {
    await store.recall({
      query: SECRET_QUERY,
      k: 7,
      searchMode: "semantic",
      useRerank: true,
      filters: { types: ["bug-fix"], tags: ["auth", "jwt"], tagsMatch: "all" },
    });
    expect(fake.requests).toHaveLength(1);
    const sent = fake.requests[0]!;
    expect(sent.method).toBe("POST");
    expect(sent.path).toBe("/api/v1/memory/recall");
    expect(sent.headers.authorization).toBe(`Bearer ${FAKE_API_KEY}`);
    expect(sent.headers["content-type"]).toBe("application/json");
    expect(sent.headers.accept).toBe("application/json");
    expect(sent.body).toEqual({
      query: SECRET_QUERY,
      k: 7,
      search_mode: "semantic",
      use_rerank: true,
      filters: { context_id: fake.contextId, type: "bug-fix", tags: ["auth", "jwt"], tags_match: "all" },
    });
  });

  it("sends only context_id as a filter when none is asked for, each search mode as given, and no use_rerank when unasked", async () => {
    for (const searchMode of ["hybrid", "semantic", "keyword"] as const) {
      await store.recall({ query: "jwt", k: 3, searchMode });
    }
    expect(fake.requests.map((r) => r.body)).toEqual(
      ["hybrid", "semantic", "keyword"].map((mode) => ({
        query: "jwt",
        k: 3,
        search_mode: mode,
        filters: { context_id: fake.contextId },
      })),
    );
  });

  it("maps a full response: results in the service's order with its scores, confidence untouched", async () => {
    fake.setNext({ json: fullRecallResponse() });
    const outcome = await store.recall(REQUEST);

    const expected = fullRecallResponse().results as Record<string, unknown>[];
    expect(outcome.results.map((r) => r.memory_id)).toEqual(expected.map((r) => r.memory_id));
    expect(outcome.results.map((r) => r.score)).toEqual([0.9333, 0.6, 0.342857]);
    expect(outcome.results[0]).toEqual(expected[0]);
    // Service fields beyond the dashboard's are kept; null/missing keys stay absent.
    expect(outcome.results[1]).toMatchObject({
      scope: "persistent",
      client: "api",
      context_summary: "Fix for the 401 storm",
      source_type: "manual",
    });
    expect(outcome.results[1]).not.toHaveProperty("updated_at");

    const c = outcome.confidence;
    expect({
      level: c.level,
      top_score: c.top_score,
      prominence: c.prominence,
      relative_margin: c.relative_margin,
      result_count: c.result_count,
      rationale: c.rationale,
    }).toEqual(S1_CONFIDENCE);
    expect(Math.abs(c.background_mean! - 0.919 / (1 + 0.559))).toBeLessThan(1e-12);
    expect(c.background_mean!).toBeCloseTo(0.5894, 3); // the rationale prints 0.59
    expect(c.background_derived).toBe(true);
    expect(c.background_std).toBeNull();
    expect(c.basis).toBe("semantic");
    expect(c.thresholds).toBe("default");
    expect(c.trace).toEqual([]);

    expect(outcome.candidates).toBeNull();
    expect(outcome.selector).toBeNull();
    expect(outcome.degraded).toBeUndefined();
    expect(outcome.warnings).toEqual([]);
    expect(Object.keys(outcome.timings)).toEqual(["remote_ms"]);
    expect(outcome.timings.remote_ms).toBeGreaterThanOrEqual(0);
  });

  it("answers the fake's default recall cut to k", async () => {
    const outcome = await store.recall({ query: "jwt", k: 2, searchMode: "hybrid" });
    expect(outcome.results).toHaveLength(2);
    expect(outcome.confidence.level).toBe("high");
  });

  it("maps an empty pool whose null keys were omitted", async () => {
    fake.setNext({ json: emptyRecallResponse() });
    const outcome = await store.recall(REQUEST);
    expect(outcome.results).toEqual([]);
    expect(outcome.confidence).toEqual({
      level: "none",
      top_score: null,
      prominence: null,
      relative_margin: null,
      result_count: 0,
      rationale: "No candidates retrieved — likely nothing relevant in this context.",
      background_mean: null,
      background_std: null,
      background_derived: false,
      basis: "empty",
      thresholds: "default",
      threshold_values: { ...DEFAULT_THRESHOLDS },
      trace: [],
    });
    expect(outcome.candidates).toBeNull();
  });

  it("maps a confidence block that keeps its nulls (MCP style) the same way", async () => {
    fake.setNext({
      json: {
        ...emptyRecallResponse(),
        confidence: {
          level: "none",
          top_score: null,
          prominence: null,
          relative_margin: null,
          result_count: 0,
          rationale: "No candidates retrieved — likely nothing relevant in this context.",
        },
        degraded: null,
        selector: null,
      },
    });
    const outcome = await store.recall(REQUEST);
    expect(outcome.confidence).toMatchObject({
      top_score: null,
      prominence: null,
      relative_margin: null,
      basis: "empty",
      background_mean: null,
    });
    expect(outcome.degraded).toBeUndefined();
    expect(outcome.selector).toBeNull();
  });

  it("flags a degraded keyword-only recall and keeps its fallback confidence as sent", async () => {
    fake.setNext({ json: degradedRecallResponse() });
    const outcome = await store.recall(REQUEST);
    expect(outcome.degraded).toEqual({ reason: "embedding_unavailable" });
    expect(outcome.results.map((r) => r.score)).toEqual([12.7, 4.1]);
    expect(outcome.confidence).toMatchObject({
      level: "high",
      top_score: 12.7,
      prominence: null,
      relative_margin: 3.2,
      result_count: 5,
      basis: "zscore",
      background_mean: null,
      background_derived: false,
      background_std: null,
    });
  });

  it("carries the service's selector block", async () => {
    fake.setNext({ json: selectorRecallResponse() });
    const outcome = await store.recall(REQUEST);
    expect(outcome.selector).toEqual({
      applied: true,
      model: "claude-haiku-4-5",
      kept: 1,
      dropped: 2,
      dropped_memory_ids: ["5b2e7c1d-4a3f-4e8b-9d6c-2f1e0d9c8b7a", "9c8d7e6f-5a4b-4c3d-8e2f-1a0b9c8d7e6f"],
    });
    expect(outcome.results).toHaveLength(1);

    fake.setNext({ json: { ...fullRecallResponse(), selector: { applied: false, reason: "disabled", model: null } } });
    expect((await store.recall(REQUEST)).selector).toEqual({ applied: false, reason: "disabled" });

    // Tolerant: a block missing keys is kept as sent; `dropped` is never derived from the ids.
    fake.setNext({ json: { ...fullRecallResponse(), selector: { applied: true, dropped: 34, dropped_memory_ids: ["a"] } } });
    expect((await store.recall(REQUEST)).selector).toEqual({ applied: true, dropped: 34, dropped_memory_ids: ["a"] });
  });

  it("ignores a malformed selector block with a warning instead of failing the recall", async () => {
    fake.setNext({ json: { ...fullRecallResponse(), selector: { applied: "yes", dropped: 1 } } });
    const outcome = await store.recall(REQUEST);
    expect(outcome.selector).toBeNull();
    expect(outcome.results).toHaveLength(3);
    expect(outcome.warnings).toHaveLength(1);
    expect(outcome.warnings[0]).toMatch(/selector block was malformed/);
  });

  it("reads the service's older documented answer (id, total, no confidence): level computed from the scores, marked", async () => {
    fake.setNext({ json: olderRecallResponse() });
    const outcome = await store.recall(REQUEST);
    expect(outcome.results.map((r) => r.memory_id)).toEqual((olderRecallResponse().results as { id: string }[]).map((r) => r.id));
    expect(outcome.results[0]).toMatchObject({ summary: "JWT expiry caused 401 errors after the Friday deploy", score: 0.95 });
    expect(outcome.confidence).toMatchObject({ computed_from: "scores", result_count: 3, basis: "zscore" });
    expect(["high", "moderate", "low", "none"]).toContain(outcome.confidence.level);
    expect(outcome.warnings).toEqual([]);
  });

  it("reads an answer with extra fields and keys in another order as the plain one", async () => {
    fake.setNext({ json: variantRecallResponse() });
    const variant = await store.recall(REQUEST);
    fake.setNext({ json: fullRecallResponse() });
    const plain = await store.recall(REQUEST);
    expect(variant.confidence).toEqual(plain.confidence);
    expect(variant.results.map((r) => [r.memory_id, r.summary, r.score])).toEqual(
      plain.results.map((r) => [r.memory_id, r.summary, r.score]),
    );
    expect(variant.results[0]).toMatchObject({ rank: 1, access_count: 12 });
  });

  it("sends search_mode only when the user picked one, so the service keeps its own routing", async () => {
    await store.recall({ query: "q", k: 5, searchMode: "hybrid", searchModeChosen: false });
    await store.recall({ query: "q", k: 5, searchMode: "keyword", searchModeChosen: true });
    const [auto, picked] = fake.requests.map((r) => r.body as Record<string, unknown>);
    expect(auto).not.toHaveProperty("search_mode");
    expect(picked).toMatchObject({ search_mode: "keyword" });
  });

  it("refuses a result without a score (502)", async () => {
    const full = fullRecallResponse();
    const results = (full.results as Record<string, unknown>[]).map(({ score: _s, ...r }) => r);
    fake.setNext({ json: { ...full, results } });
    const noScore = await rejection(store.recall(REQUEST));
    expect(noScore).toMatchObject({ status: 502, code: "remote_bad_response" });
    expect((noScore as StoreError).message).toMatch(/not a RecallResponse \(results\[0\] has no score\)/);
  });

  it("refuses more than one type filter before calling the service (one type at a time)", async () => {
    const error = await rejection(store.recall({ ...REQUEST, filters: { types: ["note", "bug-fix"] } }));
    expect(error).toMatchObject({ status: 422, code: "unsupported_filter" });
    expect(fake.requests).toHaveLength(0);
  });

  it("lists memories and reads stats for the configured context", async () => {
    const list = await store.listMemories({ q: "auth", limit: 2, offset: 0, type: "note" });
    const sent = fake.requests[0]!;
    expect(sent.method).toBe("GET");
    expect(sent.path).toBe("/api/v1/memory/list");
    expect(sent.query).toEqual({ context_id: fake.contextId, q: "auth", limit: "2", offset: "0", type: "note" });
    expect(sent.headers.authorization).toBe(`Bearer ${FAKE_API_KEY}`);
    expect(list).toEqual({
      memories: [
        {
          id: "9c8d7e6f-5a4b-4c3d-8e2f-1a0b9c8d7e6f",
          summary: "Auth service runbook: rotating signing keys",
          type: "note",
          scope: "working",
          importance: 0.5,
          created_at: "2026-05-20T08:00:00Z",
          updated_at: "2026-05-20T08:00:00Z",
        },
      ],
      total: 1,
      has_more: false,
    });

    const page = await store.listMemories({ limit: 3, offset: 1 });
    expect(page.memories).toHaveLength(3);
    expect(page).toMatchObject({ total: 4, has_more: false });

    const stats = await store.stats();
    expect(fake.requests.at(-1)).toMatchObject({ path: "/api/v1/memory/stats", query: { context_id: fake.contextId } });
    expect(stats).toMatchObject({
      total_count: 4,
      working_count: 1,
      persistent_count: 3,
      by_importance: { high: 1, medium: 2, low: 1 },
    });
  });

  it("refuses list parameters the service would reject, without calling it", async () => {
    await expect(store.listMemories({ limit: 501 })).rejects.toMatchObject({ status: 422, code: "invalid_list_request" });
    await expect(store.listMemories({ q: "x".repeat(201) })).rejects.toMatchObject({ status: 422 });
    expect(fake.requests).toHaveLength(0);
  });

  it("reports health: reachable with the key accepted, or why not", async () => {
    const ok = await store.health();
    expect(ok).toMatchObject({ ok: true, memories: 4 });
    expect(fake.requests.at(-1)?.path).toBe("/api/v1/memory/stats");

    const badKey = new RemoteStore(configFor(fake, { apiKey: "kagura_WRONG-key-that-must-not-leak" }));
    const failed = await badKey.health();
    expect(failed).toMatchObject({ ok: false, status: 502, code: "remote_auth_failed" });
    expect(JSON.stringify(failed)).not.toContain("kagura_WRONG-key-that-must-not-leak");
  });
});

describe("toRemoteOutcome (pure mapping)", () => {
  it("maps a decoded reference response without a request", () => {
    const outcome = toRemoteOutcome(RecallResponseSchema.parse(fullRecallResponse()));
    expect(outcome.timings).toEqual({});
    expect(outcome.confidence.basis).toBe("semantic");
    expect(outcome.confidence.background_derived).toBe(true);
  });
});

describe("inferBasis", () => {
  const block = (rationale: string | undefined, extra: Record<string, number | null> = {}) => ({
    top_score: 0.5,
    prominence: null,
    result_count: 4,
    rationale,
    ...extra,
  });

  it("reads the rationale prefix", () => {
    expect(inferBasis(block("Top semantic cosine 0.92, prominence 0.56 above …"))).toBe("semantic");
    expect(inferBasis(block("Top semantic cosine 0.90, prominence n/a above the candidate-pool mean (-0.05); …"))).toBe(
      "semantic",
    );
    expect(
      inferBasis(block("Single semantic candidate (cosine 0.91); single strong absolute match, no background to corroborate.")),
    ).toBe("single_semantic");
    expect(inferBasis(block("Keyword-only pool: top hit sits 3.20 background-std-devs above …"))).toBe("zscore");
    expect(inferBasis(block("Single candidate — no background distribution to assess separation."))).toBe("single");
    expect(inferBasis(block("No candidates retrieved — likely nothing relevant in this context."))).toBe("empty");
  });

  it("falls back to the fields when the rationale is missing or unknown", () => {
    expect(inferBasis(block(undefined, { result_count: 0, top_score: null }))).toBe("empty");
    expect(inferBasis(block("?", { prominence: 0.3 }))).toBe("semantic");
    expect(inferBasis(block(undefined), { degraded: true })).toBe("zscore");
    expect(inferBasis(block(undefined), { searchMode: "keyword" })).toBe("zscore");
    expect(inferBasis(block(undefined, { result_count: 1 }), { degraded: true })).toBe("single");
    expect(inferBasis(block(undefined, { result_count: 1 }), { searchMode: "semantic" })).toBe("single_semantic");
    expect(inferBasis(block(undefined), { searchMode: "hybrid" })).toBe("semantic");
  });
});
