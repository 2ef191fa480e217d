import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startAppWithOnly, type MinimumApp } from "./minimum-env";
import { callRoute } from "../support/call-route";
import { fakeRelevance, startFakeReranker } from "../support/fake-reranker";

/**
 * The app started with only the README's minimum settings for text-embeddings-inference's
 * reranker (README "Integrations"): RERANK_BASE_URL and RERANK_PROTOCOL=tei, against a strict
 * double of TEI's `/rerank` (422 without `texts`, a bare array answer). A recall asking for a
 * rerank is reranked.
 */
const tei = await startFakeReranker({ flavor: "tei" });
let app: MinimumApp;

const SEED = [
  { id: "tei-kafka", summary: "Kafka consumer lag alerts fire when the dispatch consumer falls behind.", type: "fact" },
  { id: "tei-oncall", summary: "Priya is on call this week for kafka lag pages.", type: "schedule" },
  { id: "tei-lunch", summary: "The team lunch on Thursdays is at the noodle bar.", type: "note" },
];

beforeAll(async () => {
  app = await startAppWithOnly({ RERANK_BASE_URL: tei.baseUrl, RERANK_PROTOCOL: "tei" }, { emptyStore: true });
  const memoriesRoute = await import("@/app/api/memories/route");
  expect((await callRoute(memoriesRoute.POST, { body: { memories: SEED } })).status).toBe(201);
}, 120_000);

afterAll(async () => {
  await app?.stop();
  await tei.close();
});

describe("text-embeddings-inference with only the minimum settings", () => {
  it("reranks a recall through TEI's own protocol", async () => {
    const recallRoute = await import("@/app/api/recall/route");
    const query = "who is on call for kafka lag pages";
    const { status, json: view } = await callRoute(recallRoute.POST, { body: { query, k: 2, use_rerank: true } });
    expect(status).toBe(200);
    expect(view.notices).toContainEqual(expect.objectContaining({ kind: "reranked", model: "text-embeddings-inference" }));

    const sent = tei.requests.at(-1)!;
    expect(sent.path).toBe("/rerank");
    expect(Object.keys(sent.body as object).sort()).toEqual(["query", "texts", "truncate"]);
    const summaryOf = new Map(SEED.map((m) => [m.id, m.summary]));
    const relevance = view.candidates.map((c: { memory_id: string }) => fakeRelevance(query, summaryOf.get(c.memory_id)!));
    expect(relevance).toEqual([...relevance].sort((a, b) => b - a));
    expect(view.candidates[0].hybrid_score).toBeCloseTo(relevance[0], 12);
  }, 60_000);

  it("the console's store list says who reranks", async () => {
    const storesRoute = await import("@/app/api/stores/route");
    const { json } = await callRoute(storesRoute.GET);
    const embedded = json.stores.find((s: { name: string }) => s.name === "embedded");
    expect(embedded.rerank).toEqual({ available: true, by: "reranker", model: "text-embeddings-inference" });
  });
});
