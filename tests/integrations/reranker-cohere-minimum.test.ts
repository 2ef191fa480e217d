import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startAppWithOnly, type MinimumApp } from "./minimum-env";
import { callRoute } from "../support/call-route";
import { startFakeReranker } from "../support/fake-reranker";

/**
 * The app started with only the README's minimum settings for a Cohere-style reranker (README
 * "Integrations"): RERANK_BASE_URL and RERANK_MODEL, here a base ending in `/v1` as the memory
 * service's cross-encoder and vLLM serve it (`/v1/rerank`), against a strict vLLM double.
 * (`/rerank` at a server's root is tests/api/rerank-and-why.test.ts's.)
 */
const vllm = await startFakeReranker({ flavor: "vllm" });
let app: MinimumApp;

beforeAll(async () => {
  app = await startAppWithOnly(
    { RERANK_BASE_URL: `${vllm.origin}/v1`, RERANK_MODEL: "BAAI/bge-reranker-v2-m3" },
    { emptyStore: true },
  );
  const memoriesRoute = await import("@/app/api/memories/route");
  const seeded = await callRoute(memoriesRoute.POST, {
    body: {
      memories: [
        { id: "co-kafka", summary: "Kafka consumer lag alerts fire when the dispatch consumer falls behind.", type: "fact" },
        { id: "co-oncall", summary: "Priya is on call this week for kafka lag pages.", type: "schedule" },
        { id: "co-lunch", summary: "The team lunch on Thursdays is at the noodle bar.", type: "note" },
      ],
    },
  });
  expect(seeded.status).toBe(201);
}, 120_000);

afterAll(async () => {
  await app?.stop();
  await vllm.close();
});

describe("a Cohere-style reranker with only the minimum settings", () => {
  it("reranks a recall at /v1/rerank, top_n never above the documents sent", async () => {
    const recallRoute = await import("@/app/api/recall/route");
    const { status, json: view } = await callRoute(recallRoute.POST, {
      body: { query: "who is on call for kafka lag pages", k: 2, use_rerank: true },
    });
    expect(status).toBe(200);
    expect(view.notices).toContainEqual(expect.objectContaining({ kind: "reranked", model: "BAAI/bge-reranker-v2-m3" }));
    const sent = vllm.requests.at(-1)!;
    expect(sent.path).toBe("/v1/rerank");
    const body = sent.body as { model: string; documents: string[]; top_n: number };
    expect(body.model).toBe("BAAI/bge-reranker-v2-m3");
    expect(body.top_n).toBeLessThanOrEqual(body.documents.length);
  }, 60_000);

  it("a recall that does not ask for a rerank is not reranked (the embedded store's setting: off)", async () => {
    const recallRoute = await import("@/app/api/recall/route");
    vllm.reset();
    const { status, json: view } = await callRoute(recallRoute.POST, { body: { query: "kafka lag", k: 2 } });
    expect(status).toBe(200);
    expect(vllm.requests).toHaveLength(0);
    expect(view.notices.map((n: { kind: string }) => n.kind)).not.toContain("reranked");
  });
});
