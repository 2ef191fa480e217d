import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { appUnderTest, callRoute } from "../support/app-under-test";
import { fakeRelevance, startFakeReranker } from "../support/fake-reranker";

/**
 * POST /api/recall with `use_rerank` against a loopback reranker (the real client), and
 * GET /api/recalls/{id}/why, in-process on a throw-away PGlite database with the real embedder.
 */
const KEY = "rk-test-secret-0123456789";
const reranker = await startFakeReranker({ requireKey: KEY });
const app = appUnderTest("rerank");
process.env.RERANK_BASE_URL = reranker.baseUrl;
process.env.RERANK_MODEL = "fake-cross-encoder";
process.env.RERANK_API_KEY = KEY;
process.env.RERANK_TIMEOUT_MS = "1500";

const memoriesRoute = await import("@/app/api/memories/route");
const recallRoute = await import("@/app/api/recall/route");
const recallsRoute = await import("@/app/api/recalls/[id]/route");
const storesRoute = await import("@/app/api/stores/route");
const whyRoute = await import("@/app/api/recalls/[id]/why/route");
const datasetsRoute = await import("@/app/api/datasets/route");
const evalRunsRoute = await import("@/app/api/eval-runs/route");
const evalRunRoute = await import("@/app/api/eval-runs/[id]/route");
const { evalQueueIdle } = await import("@/lib/eval/server/runs");
const { getDatabase } = await import("@/lib/db/server");
const { getEmbedder } = await import("@/lib/embeddings/server");
const { runRecall } = await import("@/lib/recall-log/server/run-recall");
const { RecallBodySchema } = await import("@/lib/recall-log/schemas");
const { EmbeddedStore } = await import("@/lib/stores/server/embedded/embedded-store");
const { StoreError } = await import("@/lib/stores/types");

const SEED = [
  { id: "oncall", summary: "Priya is on call this week; escalate Kafka lag pages to her before 22:00.", type: "schedule" },
  { id: "kafka", summary: "Kafka consumer lag alerts fire when the dispatch consumer falls 5 minutes behind.", type: "fact" },
  { id: "lunch", summary: "The team lunch on Thursdays is at the Vietnamese place near the office.", type: "note" },
  {
    id: "db",
    summary: "PgBouncer sits in front of Postgres because the rates API opened too many connections.",
    type: "decision",
  },
  { id: "deploy", summary: "Deploys freeze on Fridays after 15:00; the release train leaves Thursday.", type: "decision" },
  { id: "pager", summary: "The pager rotation swaps on Monday mornings at 10:00.", type: "schedule" },
];

beforeAll(async () => {
  const { status } = await callRoute(memoriesRoute.POST, { body: { memories: SEED } });
  expect(status).toBe(201);
}, 120_000);
beforeEach(() => reranker.reset());

afterAll(async () => {
  await app.close();
  await reranker.close();
});

const post = (body: Record<string, unknown>) => callRoute(recallRoute.POST, { body });
const get = async (id: string) => (await callRoute(recallsRoute.GET, { params: { id } })).json;

describe("POST /api/recall with use_rerank", () => {
  it("reorders by relevance: hybrid_score becomes the reranker's score, raw cosines are kept, the pool shrinks to k", async () => {
    const query = "who handles kafka lag pages on call";
    const plain = (await post({ query, k: 2 })).json;
    const { status, json: view } = await post({ query, k: 2, use_rerank: true });
    expect(status).toBe(200);

    // What the double received: Cohere-style, every merged candidate's summary, the key as a bearer token.
    expect(reranker.requests).toHaveLength(1);
    const sent = reranker.requests[0]!;
    expect(sent.headers.authorization).toBe(`Bearer ${KEY}`);
    const body = sent.body as { model: string; query: string; documents: string[]; top_n: number };
    expect(body.model).toBe("fake-cross-encoder");
    expect(body.query).toBe(query);
    expect(body.top_n).toBe(body.documents.length);
    expect(body.documents.length).toBe(view.candidates.length);

    // The order is the double's relevance, and hybrid_score is that relevance.
    const summaryOf = new Map(SEED.map((m) => [m.id, m.summary]));
    const expected = [...view.candidates]
      .map((c: { memory_id: string }) => ({ id: c.memory_id, r: fakeRelevance(query, summaryOf.get(c.memory_id)!) }))
      .sort((a, b) => b.r - a.r);
    expect(view.candidates.map((c: { memory_id: string }) => c.memory_id)).toEqual(expected.map((e) => e.id));
    for (const c of view.candidates) expect(c.hybrid_score).toBeCloseTo(fakeRelevance(query, summaryOf.get(c.memory_id)!), 12);
    expect(view.results.map((r: { score: number }) => r.score)).toEqual(
      view.candidates.slice(0, 2).map((c: { hybrid_score: number }) => c.hybrid_score),
    );
    expect(view.candidates.filter((c: { in_pool: boolean }) => c.in_pool)).toHaveLength(2);

    // Raw cosines are the same memories' cosines as without the rerank.
    const plainCosine = new Map(
      plain.candidates.map((c: { memory_id: string; raw_cosine: number | null }) => [c.memory_id, c.raw_cosine]),
    );
    for (const c of view.candidates) expect(c.raw_cosine).toBe(plainCosine.get(c.memory_id));

    expect(view.timings.rerank_ms).toBeGreaterThanOrEqual(0);
    expect(view.notices).toContainEqual(expect.objectContaining({ kind: "reranked", model: "fake-cross-encoder" }));
    const stored = await get(view.id);
    expect(stored.candidates).toEqual(view.candidates);
    expect(stored.notices).toEqual(view.notices);
    // The key is in no stored field.
    expect(JSON.stringify(stored)).not.toContain(KEY);
  }, 60_000);

  it("reads results in another order than best first (the order is the scores', not the answer's)", async () => {
    reranker.setNext({ reordered: true });
    const query = "kafka lag pages";
    const { status, json: view } = await post({ query, k: 2, use_rerank: true });
    expect(status).toBe(200);
    expect(view.notices.map((n: { kind: string }) => n.kind)).toContain("reranked");
    const relevance = view.candidates.map((c: { memory_id: string }) =>
      fakeRelevance(query, SEED.find((m) => m.id === c.memory_id)!.summary),
    );
    expect(relevance).toEqual([...relevance].sort((a, b) => b - a));
  }, 60_000);

  it.each([
    ["error-please", "http_error", /HTTP 500/],
    ["garbage-please", "bad_response", /not JSON/],
    ["timeout-please", "timeout", /within 1500 ms/],
  ])(
    "a failing reranker (%s) degrades visibly: the merged pool stands, a notice says why, the recall is logged",
    async (word, reason, text) => {
      const query = `kafka lag ${word}`;
      const plain = (await post({ query, k: 2 })).json;
      const { status, json: view } = await post({ query, k: 2, use_rerank: true });
      expect(status).toBe(200);
      const notice = view.notices.find((n: { kind: string }) => n.kind === "rerank_failed");
      expect(notice).toMatchObject({ kind: "rerank_failed", reason, model: "fake-cross-encoder" });
      expect(notice.message).toMatch(text);
      expect(notice.message).not.toContain(KEY);
      // Unreranked: the same memories in the same order as without use_rerank.
      expect(view.results.map((r: { memory_id: string }) => r.memory_id)).toEqual(
        plain.results.map((r: { memory_id: string }) => r.memory_id),
      );
      const stored = await get(view.id);
      expect(stored.status).toBe("ok");
      expect(stored.request.use_rerank).toBe(true);
      expect(stored.notices).toEqual(view.notices);
    },
    60_000,
  );

  it("a wrong key is an http_error notice that never quotes the key", async () => {
    reranker.setNext({ status: 401, body: { message: `invalid api key ${KEY}` } });
    const { json: view } = await post({ query: "kafka lag", k: 2, use_rerank: true });
    const notice = view.notices.find((n: { kind: string }) => n.kind === "rerank_failed");
    expect(notice.reason).toBe("http_error");
    expect(notice.message).toContain("HTTP 401");
    expect(JSON.stringify(await get(view.id))).not.toContain(KEY);
  }, 60_000);

  it("GET /api/stores says which stores can rerank, and with what, without the key", async () => {
    const { json } = await callRoute(storesRoute.GET);
    expect(json.stores[0]).toMatchObject({
      name: "embedded",
      rerank: { available: true, by: "reranker", model: "fake-cross-encoder" },
    });
    expect(JSON.stringify(json)).not.toContain(KEY);
    const saved = { base: process.env.RERANK_BASE_URL, model: process.env.RERANK_MODEL };
    delete process.env.RERANK_BASE_URL;
    delete process.env.RERANK_MODEL;
    try {
      const { json: without } = await callRoute(storesRoute.GET);
      expect(without.stores[0].rerank).toEqual({ available: false, by: null });
    } finally {
      process.env.RERANK_BASE_URL = saved.base;
      process.env.RERANK_MODEL = saved.model;
    }
  });

  it("is refused with a clear 422 on a store without a reranker, before anything runs or is logged", async () => {
    const db = await getDatabase();
    const store = new EmbeddedStore(db.prisma, getEmbedder());
    const before = await db.prisma.recall.count();
    const error = await runRecall(RecallBodySchema.parse({ query: "kafka", use_rerank: true }), store, db.prisma).catch(
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(StoreError);
    expect(error).toMatchObject({ status: 422, code: "rerank_unavailable" });
    expect((error as Error).message).toContain("RERANK_BASE_URL");
    expect(await db.prisma.recall.count()).toBe(before);
  });
});

describe("an evaluation run with use_rerank", () => {
  it("reranks every recall of the run, says so in its settings, and logs each reranked", async () => {
    const set = await callRoute(datasetsRoute.POST, {
      body: {
        name: "rerank eval",
        items: [
          { query: "who handles kafka lag pages on call", relevant: ["oncall"], kind: "near_miss" },
          { query: "when do deploys freeze", relevant: ["deploy"] },
        ],
      },
    });
    expect(set.status, JSON.stringify(set.json)).toBe(201);
    const started = await callRoute(evalRunsRoute.POST, { body: { dataset_id: set.json.id, k: 2, use_rerank: true } });
    expect(started.status, JSON.stringify(started.json)).toBe(202);
    await evalQueueIdle();
    const run = (await callRoute(evalRunRoute.GET, { params: { id: started.json.id } })).json;
    expect(run.status).toBe("done");
    expect(run.settings.use_rerank).toBe(true);
    // One rerank request per query of the set, and each logged recall asked for it.
    expect(reranker.requests.map((r) => (typeof r.body === "string" ? r.body : r.body.query)).sort()).toEqual([
      "when do deploys freeze",
      "who handles kafka lag pages on call",
    ]);
    const db = await getDatabase();
    const logged = await db.prisma.recall.findMany({ where: { evalRunId: started.json.id } });
    expect(logged).toHaveLength(2);
    for (const recall of logged) expect((recall.request as { use_rerank?: boolean }).use_rerank).toBe(true);
  }, 120_000);
});

describe("GET /api/recalls/{id}/why", () => {
  const why = (id: string, memoryId?: string) =>
    callRoute(whyRoute.GET, {
      params: { id },
      url: `/api/recalls/${id}/why${memoryId === undefined ? "" : `?memory_id=${encodeURIComponent(memoryId)}`}`,
    });

  it("answers the contract's shape for a memory on the page and one below it", async () => {
    const view = (await post({ query: "who handles kafka lag pages", k: 1 })).json;
    const onPage = await why(view.id, view.results[0].memory_id);
    expect(onPage.status).toBe(200);
    expect(Object.keys(onPage.json).sort()).toEqual(
      [
        "keyword_score",
        "keyword_score_used_by_merge",
        "memory_id",
        "message",
        "ranks",
        "raw_cosine",
        "raw_cosine_used_by_merge",
        "reason",
      ].sort(),
    );
    expect(onPage.json).toMatchObject({ reason: "on_page", ranks: { merged: 1 } });
    const below = view.candidates.find((c: { in_pool: boolean }) => !c.in_pool);
    const answer = (await why(view.id, below.memory_id)).json;
    expect(["below_page", "outside_fetch_window"]).toContain(answer.reason);
    expect(answer.ranks.merged).toBe(below.rank);
    expect(answer.raw_cosine).toBe(below.raw_cosine);
  }, 60_000);

  it("404s in the envelope for an id that is not a memory of the store, and for an unknown recall; 422 without memory_id", async () => {
    const view = (await post({ query: "kafka", k: 1 })).json;
    const unknown = await why(view.id, "not-a-memory");
    expect(unknown.status).toBe(404);
    expect(unknown.json).toMatchObject({ error: "not_found", details: { memory_id: "not-a-memory", store: "embedded" } });
    expect(unknown.json.message).toContain("not a memory of the store");
    const noRecall = await why("00000000-0000-4000-8000-000000000000", "kafka");
    expect(noRecall.status).toBe(404);
    expect((await why(view.id)).status).toBe(422);
    expect((await why("not-a-uuid", "kafka")).status).toBe(422);
    expect((await callRoute(whyRoute.POST, { params: { id: view.id }, body: {} })).status).toBe(405);
  }, 60_000);
});
