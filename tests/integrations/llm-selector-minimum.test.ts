import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startAppWithOnly, type MinimumApp } from "./minimum-env";
import { callRoute } from "../support/call-route";
import { startFakeLlm } from "../support/fake-llm";

/**
 * The app started with only the README's minimum settings for the LLM selector (README
 * "Integrations"): SELECTOR_LLM_BASE_URL and SELECTOR_LLM_MODEL, against the loopback
 * chat-completions double (OpenAI's schema, strict on the request). The timeout and the key take
 * their defaults; an answer in content parts, as reasoning models on several servers give it, is
 * applied.
 */
const llm = await startFakeLlm();
let app: MinimumApp;

beforeAll(async () => {
  app = await startAppWithOnly({ SELECTOR_LLM_BASE_URL: llm.baseUrl, SELECTOR_LLM_MODEL: "qwen3:8b" }, { emptyStore: true });
  const memoriesRoute = await import("@/app/api/memories/route");
  const seeded = await callRoute(memoriesRoute.POST, {
    body: {
      memories: [
        { id: "llm-kafka", summary: "Kafka consumer lag alerts fire when the dispatch consumer falls behind.", type: "fact" },
        { id: "llm-oncall", summary: "Priya is on call this week for kafka lag pages.", type: "schedule" },
        { id: "llm-lunch", summary: "The team lunch on Thursdays is at the noodle bar.", type: "note" },
      ],
    },
  });
  expect(seeded.status).toBe(201);
}, 120_000);

afterAll(async () => {
  await app?.stop();
  await llm.close();
});

describe("the LLM selector with only the minimum settings", () => {
  it("applies an answer given in content parts", async () => {
    const recallRoute = await import("@/app/api/recall/route");
    const { status, json: view } = await callRoute(recallRoute.POST, {
      body: { query: "kafka lag parts-please", k: 3, selector: "llm" },
    });
    expect(status).toBe(200);
    expect(view.selector).toMatchObject({ applied: true, model: "qwen3:8b" });
    const sent = llm.requests.at(-1)!;
    expect(sent.headers.authorization).toBeUndefined();
    expect(sent.body).toMatchObject({ model: "qwen3:8b", temperature: 0, stream: false });
    // The page's first two are kept, the rest marked dropped.
    expect(view.results.map((r: { memory_id: string }) => r.memory_id)).toEqual(sent.pageIds.slice(0, 2));
  }, 60_000);
});
