import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { appUnderTest, callRoute } from "../support/app-under-test";

/**
 * The HTTP handlers in-process against the app's real modules: a throw-away PGlite database,
 * the USE-lite embedder, no demo corpus (each test adds what it needs).
 */
const app = appUnderTest("api");

const memoriesRoute = await import("@/app/api/memories/route");
const memoryRoute = await import("@/app/api/memories/[id]/route");
const recallRoute = await import("@/app/api/recall/route");
const recallsRoute = await import("@/app/api/recalls/[id]/route");

const SEED = [
  {
    id: "oncall",
    summary: "Priya is on call this week; escalate Kafka lag pages to her before 22:00.",
    type: "schedule",
    tags: ["oncall"],
  },
  {
    id: "kafka",
    summary: "Kafka consumer lag alerts fire when the dispatch consumer falls 5 minutes behind.",
    type: "fact",
    tags: ["kafka"],
  },
  {
    id: "lunch",
    summary: "The team lunch on Thursdays is at the Vietnamese place near the office.",
    type: "note",
    tags: ["food"],
  },
  {
    id: "db",
    summary: "PgBouncer sits in front of Postgres because the rates API opened too many connections.",
    type: "decision",
    tags: ["database"],
  },
];

beforeAll(async () => {
  const { status, json } = await callRoute(memoriesRoute.POST, { body: { memories: SEED } });
  expect(status).toBe(201);
  expect(json.created).toBe(SEED.length);
});

afterAll(async () => {
  await app.close();
});

describe("POST /api/recall", () => {
  it("runs, logs and returns a recall that GET /api/recalls/{id} reproduces exactly", async () => {
    const posted = await callRoute(recallRoute.POST, { body: { query: "who handles kafka lag pages this week", k: 2 } });
    expect(posted.status).toBe(200);
    const view = posted.json;
    expect(view.id).toMatch(/^[0-9a-f-]{36}$/);
    expect(view.request).toEqual({
      store: "embedded",
      query: "who handles kafka lag pages this week",
      k: 2,
      // No mode asked: the embedded store's default ran, and the log says it was not picked.
      search_mode: "hybrid",
      search_mode_auto: true,
      use_rerank: false,
      selector: "off",
    });
    expect(view.results).toHaveLength(2);
    expect(view.results.map((r: { memory_id: string }) => r.memory_id).sort()).toEqual(["kafka", "oncall"]);
    expect(view.candidates.length).toBe(SEED.length);
    expect(view.candidates.filter((c: { in_pool: boolean }) => c.in_pool)).toHaveLength(2);
    expect(view.confidence).toMatchObject({ result_count: 2, thresholds: "default", basis: "semantic" });
    expect(view.confidence.threshold_values.high_prominence).toBe(0.4);
    expect(view.confidence.trace[0].rule).toBe("basis");
    expect(view.selector).toEqual({ applied: false, reason: "disabled" });
    expect(view.status).toBe("ok");

    const fetched = await callRoute(recallsRoute.GET, { params: { id: view.id } });
    expect(fetched.status).toBe(200);
    expect(fetched.json).toEqual(view);
  });

  it("answers unknown ids and malformed ids with the envelope", async () => {
    expect((await callRoute(recallsRoute.GET, { params: { id: "00000000-0000-4000-8000-000000000000" } })).status).toBe(404);
    const bad = await callRoute(recallsRoute.GET, { params: { id: "nope" } });
    expect(bad.status).toBe(422);
    expect(bad.json.error).toBe("validation_failed");
  });

  it.each([
    ["an empty query", { query: "   " }, 422, /query: query is empty/],
    ["a query over 8000 characters", { query: "x".repeat(8001) }, 422, /8000/],
    ["k = 0", { query: "kafka", k: 0 }, 422, /k:/],
    ["k = 101", { query: "kafka", k: 101 }, 422, /k:/],
    ["a string k", { query: "kafka", k: "5" }, 422, /k:/],
    ["an unknown search mode", { query: "kafka", search_mode: "fuzzy" }, 422, /search_mode/],
    ["an unknown field", { query: "kafka", limit: 3 }, 422, /limit/],
    ["an unknown store", { query: "kafka", store: "prod" }, 404, /no store named "prod"/],
  ])("rejects %s", async (_name, body, status, message) => {
    const { status: got, json } = await callRoute(recallRoute.POST, { body });
    expect(got).toBe(status);
    expect(json.message).toMatch(message);
    expect(Object.keys(json).sort()).toEqual(["details", "error", "message"]);
  });

  it("rejects a body that is not JSON with 400", async () => {
    const { status, json } = await callRoute(recallRoute.POST, { rawBody: "query=kafka" });
    expect(status).toBe(400);
    expect(json.error).toBe("bad_json");
  });
});

describe("memories API", () => {
  it("imports JSON Lines item by item: bad lines are rejected with their line, good ones kept", async () => {
    const body = [
      JSON.stringify({ id: "jsonl-1", summary: "The staging cluster is rebuilt every Monday at 06:00 UTC." }),
      "{ not json",
      JSON.stringify({ summary: "" }),
      JSON.stringify({ id: "jsonl-1", summary: "Duplicate of the first line." }),
      "",
      JSON.stringify({ id: "jsonl-2", summary: "Release notes go to the #releases channel.", extra: 1 }),
    ].join("\n");
    const { status, json } = await callRoute(memoriesRoute.POST, {
      rawBody: body,
      headers: { "content-type": "application/x-ndjson" },
    });
    expect(status).toBe(201);
    expect(json.created).toBe(1);
    expect(json.rejected).toBe(4);
    expect(json.results.map((r: { status: string }) => r.status)).toEqual([
      "created",
      "rejected",
      "rejected",
      "rejected",
      "rejected",
    ]);
    expect(json.results[1].errors[0].message).toMatch(/^line 2 is not valid JSON/);
    expect(json.results.map((r: { line: number }) => r.line)).toEqual([1, 2, 3, 4, 6]); // line 5 is blank
    expect(json.results[2].errors[0].message).toBe("summary is empty");
    expect(json.results[3].errors[0].message).toBe("duplicate of item 0 in this batch");
    expect(json.results[4].errors[0].message).toBe("unknown field: extra");
    const got = await callRoute(memoryRoute.GET, { params: { id: "jsonl-1" } });
    expect(got.json.summary).toMatch(/staging cluster/);
    expect(got.json.embedding_model).toBe("use-lite-512");
  });

  it("refuses an oversized body with 413 and stores nothing from it", async () => {
    const before = await callRoute(memoriesRoute.GET, { url: "/api/memories?limit=1" });
    const huge = JSON.stringify({ memories: [{ summary: "x".repeat(33_000_000) }] });
    const { status, json } = await callRoute(memoriesRoute.POST, { rawBody: huge });
    expect(status).toBe(413);
    expect(json.error).toBe("payload_too_large");
    const after = await callRoute(memoriesRoute.GET, { url: "/api/memories?limit=1" });
    expect(after.json.total).toBe(before.json.total);
  });

  it("rejects a batch that is not a list of memories", async () => {
    expect((await callRoute(memoriesRoute.POST, { body: { memories: [] } })).status).toBe(422);
    expect((await callRoute(memoriesRoute.POST, { body: [{ summary: "bare array" }] })).status).toBe(422);
    expect((await callRoute(memoriesRoute.POST, { rawBody: "{" })).status).toBe(400);
  });

  it("deletes a memory, then answers 404 for it", async () => {
    await callRoute(memoriesRoute.POST, { body: { memories: [{ id: "temp", summary: "A memory that will be deleted soon." }] } });
    expect((await callRoute(memoryRoute.DELETE, { method: "DELETE", params: { id: "temp" } })).json).toEqual({ deleted: "temp" });
    const again = await callRoute(memoryRoute.DELETE, { method: "DELETE", params: { id: "temp" } });
    expect(again.status).toBe(404);
    expect(again.json.error).toBe("not_found");
    const recall = await callRoute(recallRoute.POST, { body: { query: "memory that will be deleted", k: 10 } });
    expect(recall.json.candidates.map((c: { memory_id: string }) => c.memory_id)).not.toContain("temp");
  });

  it("validates list parameters", async () => {
    const { status, json } = await callRoute(memoriesRoute.GET, { url: "/api/memories?limit=1000" });
    expect(status).toBe(422);
    expect(json.details.issues[0].path).toEqual(["limit"]);
  });
});

describe("POST /api/recalls (ingestion)", () => {
  const response = {
    results: [{ memory_id: "r-1", summary: "From production", score: 0.9 }],
    confidence: {
      level: "moderate",
      top_score: 0.7,
      prominence: 0.3,
      result_count: 5,
      rationale: "Top semantic cosine 0.70, prominence 0.30 above the candidate-pool mean (0.54); top hit is a plausible match.",
    },
    selector: { applied: true, model: "prod-llm", kept: 1, dropped: 1, dropped_memory_ids: ["r-2"] },
  };

  it("accepts a batch item by item, shows the ingested recall in the history, and is idempotent", async () => {
    const recallsRoute = await import("@/app/api/recalls/route");
    const items = [
      { external_id: "prod-1", store: "prod", request: { query: "ingested question" }, response },
      { external_id: "prod-1", store: "prod", request: { query: "ingested question" }, response },
      { store: "prod", request: {}, response },
    ];
    const first = await callRoute(recallsRoute.POST, { body: { recalls: items } });
    expect(first.status).toBe(201);
    expect(first.json).toMatchObject({ accepted: 1, duplicates: 1, rejected: 1 });
    const again = await callRoute(recallsRoute.POST, { body: { recalls: [items[0]] } });
    expect(again.status).toBe(200);
    expect(again.json.results[0]).toEqual({ index: 0, status: "duplicate", external_id: "prod-1" });

    const history = await callRoute(recallsRoute.GET, { url: "/api/recalls?source=ingest&q=ingested" });
    expect(history.json.items).toHaveLength(1);
    expect(history.json.items[0]).toMatchObject({
      source: "ingest",
      store: "prod",
      level: "moderate",
      selector_applied: true,
      selector_kept: 1,
      selector_dropped: 1,
      has_candidates: false,
    });
  });

  it("refuses an oversized body with 413, and a body that is not a batch with 422", async () => {
    const recallsRoute = await import("@/app/api/recalls/route");
    const big = JSON.stringify({ recalls: [{ store: "prod", request: { query: "x".repeat(17_000_000) }, response }] });
    const tooLarge = await callRoute(recallsRoute.POST, { rawBody: big });
    expect(tooLarge.status).toBe(413);
    expect(tooLarge.json.error).toBe("payload_too_large");
    const notBatch = await callRoute(recallsRoute.POST, { body: [{ store: "prod" }] });
    expect(notBatch.status).toBe(422);
  });
});
