import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { appUnderTest, callRoute } from "../support/app-under-test";
import { INVENTED_ID, startFakeLlm } from "../support/fake-llm";
import { startFakeMemoryService } from "../support/fake-memory-service";
import { FAKE_API_KEY, FAKE_CONTEXT_ID, selectorRecallResponse } from "../support/fake-memory-service-fixtures";

/**
 * Selector truth through the HTTP handlers (lib/selectors/README.md "Selector truth"): for every
 * strategy and every store kind, the answer's `results` is the page the agent got and
 * `dropped_results` what the selector removed, so `selector.kept === results.length` and
 * `selector.dropped === dropped_results.length`; GET /api/recalls/{id} reads the same back.
 * Real modules, a throw-away PGlite database, USE-lite; loopback doubles for the memory service
 * and the LLM, with the real clients talking to them.
 */
const llm = await startFakeLlm();
const service = await startFakeMemoryService();
const app = appUnderTest("selector");
delete process.env.REMOTE_STORES;
process.env.REMOTE_STORE_URL = service.url;
process.env.REMOTE_STORE_API_KEY = FAKE_API_KEY;
process.env.REMOTE_STORE_CONTEXT_ID = FAKE_CONTEXT_ID;
process.env.SELECTOR_LLM_BASE_URL = llm.baseUrl;
process.env.SELECTOR_LLM_MODEL = "fake-selector";
process.env.SELECTOR_LLM_API_KEY = "sk-never-stored";

const memoriesRoute = await import("@/app/api/memories/route");
const recallRoute = await import("@/app/api/recall/route");
const recallsRoute = await import("@/app/api/recalls/route");
const recallByIdRoute = await import("@/app/api/recalls/[id]/route");

// Two clusters far apart in cosine, so the score gap has a clear cut on "kafka lag".
const SEED = [
  { id: "kafka-lag", summary: "Kafka consumer lag alerts fire when the dispatch consumer falls five minutes behind." },
  { id: "kafka-oncall", summary: "Escalate Kafka consumer lag pages to the on-call engineer before 22:00." },
  { id: "kafka-topics", summary: "The Kafka dispatch topic has twelve partitions and a seven day retention." },
  { id: "lunch", summary: "The team lunch on Thursdays is at the Vietnamese place near the office." },
  { id: "garden", summary: "Water the tomato plants in the office garden twice a week in summer." },
];

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- an untyped library boundary
type Json = Record<string, any>;

beforeAll(async () => {
  const { status } = await callRoute(memoriesRoute.POST, { body: { memories: SEED } });
  expect(status).toBe(201);
  // Loading USE-lite on a busy machine can take a while.
}, 240_000);

afterAll(async () => {
  await app.close();
  await llm.close();
  await service.close();
});

/** The one meaning: results are the kept rows, dropped_results the removed ones, counts agree. */
function expectOneMeaning(view: Json) {
  const selector = view.selector;
  expect(Array.isArray(view.results)).toBe(true);
  expect(Array.isArray(view.dropped_results)).toBe(true);
  for (const row of [...view.results, ...view.dropped_results]) expect(row).not.toHaveProperty("dropped");
  if (selector?.applied) {
    if (selector.kept !== undefined) expect(selector.kept).toBe(view.results.length);
    if (selector.dropped !== undefined) expect(selector.dropped).toBe(view.dropped_results.length);
    const dropped = new Set(view.dropped_results.map((r: Json) => r.memory_id));
    for (const id of selector.dropped_memory_ids ?? []) expect(dropped.has(id)).toBe(true);
    for (const row of view.results) expect(dropped.has(row.memory_id)).toBe(false);
  } else {
    expect(view.dropped_results).toEqual([]);
  }
}

async function recall(body: Json): Promise<Json> {
  const posted = await callRoute(recallRoute.POST, { body: { k: 5, ...body } });
  expect(posted.status, JSON.stringify(posted.json)).toBe(200);
  expectOneMeaning(posted.json);
  const read = await callRoute(recallByIdRoute.GET, { params: { id: posted.json.id } });
  expect(read.status).toBe(200);
  expect(read.json).toEqual(posted.json);
  return posted.json;
}

describe("one meaning of results, for every strategy and store kind", () => {
  it("embedded, selector off: not applied (disabled), every row in results", async () => {
    const view = await recall({ query: "kafka lag", selector: "off" });
    expect(view.selector).toEqual({ applied: false, reason: "disabled" });
    expect(view.results).toHaveLength(5);
    expect(view.results.map((r: Json) => r.rank)).toEqual([1, 2, 3, 4, 5]);
    expect(view.selector_trace).toBeNull();
  });

  it("embedded, score gap: applied; the dropped rows only in dropped_results", async () => {
    const view = await recall({ query: "kafka consumer lag", selector: "gap", search_mode: "semantic" });
    expect(view.selector).toMatchObject({ applied: true, model: "score-gap" });
    expect(view.selector.dropped).toBeGreaterThan(0);
    expect(view.selector_trace).toMatchObject({ model: "score-gap" });
    expect(view.selector_trace.latency_ms).toBeGreaterThanOrEqual(0);
    // The rows keep their page positions across the two lists.
    const ranks = [...view.results, ...view.dropped_results].map((r: Json) => r.rank).sort((a: number, b: number) => a - b);
    expect(ranks).toEqual([1, 2, 3, 4, 5]);
  });

  it("embedded, score gap on two cosines: not applied, too few to judge, its model named", async () => {
    const view = await recall({ query: "kafka", selector: "gap", k: 2, search_mode: "semantic" });
    // Two cosines are too few to judge: that is not applied, with its reason.
    expect(view.selector).toEqual({ applied: false, reason: "too_few_results" });
    expect(view.selector_trace).toMatchObject({ model: "score-gap" });
  });

  it("embedded, LLM: applied with the trace; keep-all is applied with 0 dropped", async () => {
    const view = await recall({ query: "kafka lag", selector: "llm" });
    expect(view.selector).toMatchObject({ applied: true, model: "fake-selector", kept: 2, dropped: 3 });
    expect(view.results.map((r: Json) => r.memory_id)).toEqual(view.selector_trace.keep_ids);
    expect(view.selector_trace).toMatchObject({ model: "fake-selector", prompt_version: "1" });
    expect(view.selector_trace.page_ids).toHaveLength(5);
    expect(view.selector_trace.raw_answer).toContain('"keep"');
    expect(view.selector_trace.total_tokens).toBeGreaterThan(0);

    const all = await recall({ query: "kafka lag keep-all-please", selector: "llm" });
    expect(all.selector).toEqual({ applied: true, model: "fake-selector", kept: 5, dropped: 0, dropped_memory_ids: [] });
  });

  it("embedded, LLM failures: not applied with a listed reason, the model and the evidence kept, never the key", async () => {
    const invented = await recall({ query: "kafka lag invent-id-please", selector: "llm" });
    expect(invented.selector).toEqual({ applied: false, reason: "unknown_id" });
    expect(invented.selector_trace).toMatchObject({ model: "fake-selector", unknown_ids: [INVENTED_ID] });
    expect(invented.selector_trace.raw_answer).toContain(INVENTED_ID);
    expect(invented.results).toHaveLength(5);

    const http = await recall({ query: "kafka lag error-please", selector: "llm" });
    expect(http.selector).toEqual({ applied: false, reason: "http_error" });
    expect(http.selector_trace.http_status).toBe(500);
    expect(JSON.stringify([invented, http])).not.toContain("sk-never-stored");
  });

  it("remote, the service's own selector: results are what it kept, its removals (by id) in dropped_results", async () => {
    service.setNext({ json: selectorRecallResponse() });
    const view = await recall({ store: "remote", query: "why 401s", selector: "off" });
    expect(view.selector).toMatchObject({ applied: true, kept: 1, dropped: 2 });
    expect(view.results).toHaveLength(1);
    expect(view.dropped_results.map((r: Json) => r.memory_id)).toEqual(view.selector.dropped_memory_ids);
    expect(view.dropped_results[0]).toMatchObject({ summary: "", score: null });
  });

  it("remote, the console's selectors on the service's page", async () => {
    for (const selector of ["gap", "llm"] as const) {
      const view = await recall({ store: "remote", query: "why 401s", selector });
      expect(view.selector_trace).not.toBeNull();
    }
  });

  it("ingested: a post-selection page or the whole page, both read as the page the agent got", async () => {
    const block = { applied: true, model: "ingested-llm", kept: 2, dropped: 1, dropped_memory_ids: ["i-3"] };
    const results = (ids: string[]) => ids.map((id, i) => ({ memory_id: id, summary: `Memory ${id}`, score: 0.9 - i / 10 }));
    const posted = await callRoute(recallsRoute.POST, {
      body: {
        recalls: [
          {
            store: "prod",
            request: { query: "after selection", k: 3 },
            response: { results: results(["i-1", "i-2"]), selector: block },
          },
          {
            store: "prod",
            request: { query: "whole page", k: 3 },
            response: { results: results(["i-1", "i-2", "i-3"]), selector: block },
          },
          // Written under the old rule: the score gap kept the page whole and said "not applied".
          {
            store: "prod",
            request: { query: "old rule", k: 2 },
            response: { results: results(["i-1", "i-2"]), selector: { applied: false, reason: "no_clear_gap" } },
          },
        ],
      },
    });
    expect(posted.status).toBe(201);
    const views: Json[] = [];
    for (const item of posted.json.results) {
      const read = await callRoute(recallByIdRoute.GET, { params: { id: item.id } });
      expectOneMeaning(read.json);
      views.push(read.json);
    }
    expect(views[0]!.dropped_results).toEqual([{ memory_id: "i-3", summary: "", score: null }]);
    expect(views[1]!.dropped_results).toEqual([{ memory_id: "i-3", summary: "Memory i-3", score: 0.7, rank: 3 }]);
    expect(views[1]!.results.map((r: Json) => r.memory_id)).toEqual(["i-1", "i-2"]);
    expect(views[2]!.selector).toEqual({ applied: true, model: "score-gap", kept: 2, dropped: 0, dropped_memory_ids: [] });
  });

  it("History filters by reason and kind, and flags the level resting on a dropped memory", async () => {
    const list = async (query: string) => (await callRoute(recallsRoute.GET, { url: `/api/recalls?${query}` })).json;
    const byReason = await list("selector_reason=unknown_id");
    expect(byReason.items.length).toBeGreaterThan(0);
    expect(byReason.items.every((i: Json) => i.selector_reason === "unknown_id")).toBe(true);
    const failed = await list("selector_kind=failed");
    expect(failed.items.map((i: Json) => i.selector_reason).sort()).toEqual(["http_error", "unknown_id"]);
    const off = await list("selector_kind=off");
    expect(off.items.every((i: Json) => i.selector_reason === "disabled")).toBe(true);
    expect((await callRoute(recallsRoute.GET, { url: "/api/recalls?selector_kind=broken" })).status).toBe(422);
  });
});
