import { PrismaClient } from "@prisma/client";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ingestRecalls } from "@/lib/recall-log/server/ingest";
import { findRecall } from "@/lib/recall-log/server/repository";
import { DATABASE_KINDS, migratedDatabase, type MigratedDatabase } from "../support/databases";
import { DEGRADED_CONFIDENCE, emptyRecallResponse, S1_CONFIDENCE } from "../support/fake-memory-service-fixtures";

// The reference service's example shapes (docs/memory-service-api.md "Example answers"), as REST sends them.
const FULL = {
  results: [
    {
      memory_id: "3f1c0000-0000-4000-8000-000000000001",
      summary: "JWT expiry caused 401 storm",
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
  related_tags: [{ tag: "auth", count: 1, sample_summary: "JWT expiry caused 401 storm" }],
  confidence: { ...S1_CONFIDENCE },
};
const EMPTY = emptyRecallResponse();
const DEGRADED = {
  results: [{ memory_id: "m-1", summary: "BM25 only", score: 12.7 }],
  related_tags: [],
  confidence: { ...DEGRADED_CONFIDENCE },
  degraded: true,
  degraded_reason: "embedding_unavailable",
};
const request = (query: string) => ({ query, k: 5, filters: { context_id: "ctx-1" } });

describe.each(DATABASE_KINDS)("ingesting recalls on %s", (kind) => {
  let database: MigratedDatabase | undefined;
  let prisma: PrismaClient;
  beforeAll(async () => {
    database = await migratedDatabase(kind);
    prisma = database.prisma;
  });
  afterAll(async () => {
    await database?.close();
  });

  it("keeps what the full reference response states and derives only the background mean", async () => {
    const { results, accepted } = await ingestRecalls(prisma, [
      {
        external_id: "full-1",
        store: "prod",
        request: request("why 401s"),
        response: FULL,
        latency_ms: 42.5,
        created_at: "2026-06-10T12:00:00Z",
      },
    ]);
    expect(accepted).toBe(1);
    const id = (results[0] as { id: string }).id;
    const view = (await findRecall(prisma, id))!;
    expect(view).toMatchObject({
      source: "ingest",
      store: "prod",
      created_at: "2026-06-10T12:00:00.000Z",
      latency_ms: 42.5,
      candidates: null,
    });
    expect(view.request).toMatchObject({ query: "why 401s", k: 5, search_mode: "hybrid", filters: { context_id: "ctx-1" } });
    const c = view.confidence!;
    expect([c.level, c.top_score, c.prominence, c.relative_margin, c.result_count, c.rationale]).toEqual([
      "high",
      0.919,
      0.559,
      4.989,
      8,
      FULL.confidence.rationale,
    ]);
    expect(c.background_mean).toBeCloseTo(0.919 / 1.559, 12);
    expect(c.background_derived).toBe(true);
    expect(c.background_std).toBeNull();
    expect(c.basis).toBe("semantic");
    expect(c.trace).toEqual([]);
    expect(view.results).toEqual([
      {
        memory_id: FULL.results[0]!.memory_id,
        summary: "JWT expiry caused 401 storm",
        score: 0.9333,
        type: "bug-fix",
        tags: ["auth", "jwt"],
        importance: 0.8,
        created_at: "2026-06-01T09:12:00Z",
        updated_at: "2026-06-10T11:00:00Z",
        rank: 1,
      },
    ]);
    expect(view.dropped_results).toEqual([]);
    expect(view.selector).toBeNull();
  });

  it("takes the empty pool with its null keys omitted, and the degraded keyword-only answer", async () => {
    const { results } = await ingestRecalls(prisma, [
      { store: "prod", request: request("nothing here"), response: EMPTY },
      { store: "prod", request: request("bm25 only"), response: DEGRADED },
    ]);
    const empty = (await findRecall(prisma, (results[0] as { id: string }).id))!;
    expect(empty.confidence).toMatchObject({
      level: "none",
      top_score: null,
      prominence: null,
      result_count: 0,
      basis: "empty",
      background_mean: null,
      background_derived: false,
    });
    expect(empty.results).toEqual([]);
    const degraded = (await findRecall(prisma, (results[1] as { id: string }).id))!;
    expect(degraded.degraded).toEqual({ reason: "embedding_unavailable" });
    expect(degraded.confidence).toMatchObject({
      level: "high",
      top_score: 12.7,
      prominence: null,
      relative_margin: 3.2,
      basis: "zscore",
      background_mean: null,
    });
  });

  it("judges a mixed batch item by item: accepted, duplicate (in the batch and already stored), rejected with reasons", async () => {
    await ingestRecalls(prisma, [{ external_id: "dup-stored", store: "prod", request: request("first"), response: EMPTY }]);
    const selectorResponse = {
      ...FULL,
      selector: { applied: true, model: "gpt-x", kept: 1, dropped: 25, dropped_memory_ids: ["a", "b"] },
    };
    const out = await ingestRecalls(prisma, [
      {
        external_id: "ok-1",
        store: "prod",
        request: request("good"),
        response: selectorResponse,
        candidates: [
          { memory_id: FULL.results[0]!.memory_id, raw_cosine: 0.919, hybrid_score: 0.9333 },
          { memory_id: "x", raw_cosine: 0.6 },
        ],
      },
      { external_id: "ok-1", store: "prod", request: request("good again"), response: EMPTY },
      { external_id: "dup-stored", store: "prod", request: request("second"), response: EMPTY },
      { store: "prod", request: { k: 5 }, response: EMPTY },
      {
        store: "prod",
        request: request("bad level"),
        response: { results: [], confidence: { level: "great", result_count: 0 } },
      },
      { store: "prod", request: request("extra"), response: EMPTY, colour: "red" },
      "not an object",
    ]);
    expect(out).toMatchObject({ accepted: 1, duplicates: 2, rejected: 4 });
    expect(out.results.map((r) => r.status)).toEqual([
      "accepted",
      "duplicate",
      "duplicate",
      "rejected",
      "rejected",
      "rejected",
      "rejected",
    ]);
    const reasons = out.results.map((r) =>
      r.status === "rejected" ? r.errors.map((e) => `${e.path.join(".")}: ${e.message}`).join("; ") : "",
    );
    expect(reasons[3]).toMatch(/^request\.query:/);
    expect(reasons[4]).toMatch(/^response\.confidence\.level:/);
    expect(reasons[5]).toBe(": unknown field: colour");

    const stored = (await findRecall(prisma, (out.results[0] as { id: string }).id))!;
    expect(stored.selector).toEqual({ applied: true, model: "gpt-x", kept: 1, dropped: 25, dropped_memory_ids: ["a", "b"] });
    expect(stored.request.selector).toBe("llm");
    expect(stored.candidates!.map((c) => [c.memory_id, c.rank, c.raw_cosine, c.returned])).toEqual([
      [FULL.results[0]!.memory_id, 1, 0.919, true],
      ["x", 2, 0.6, false],
    ]);
    expect(await prisma.recall.count({ where: { externalId: "dup-stored" } })).toBe(1);
  });

  it("is idempotent on external_id across requests", async () => {
    const item = { external_id: "idem-1", store: "prod", request: request("same"), response: FULL };
    expect((await ingestRecalls(prisma, [item])).accepted).toBe(1);
    const again = await ingestRecalls(prisma, [item]);
    expect(again).toMatchObject({ accepted: 0, duplicates: 1 });
    expect(await prisma.recall.count({ where: { externalId: "idem-1" } })).toBe(1);
  });
});
