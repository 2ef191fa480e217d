import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startAppWithOnly, type MinimumApp } from "./minimum-env";
import { callRoute } from "../support/call-route";
import { startFakeEmbeddings } from "../support/fake-embeddings";

/**
 * The app started with only the README's minimum settings for an OpenAI-compatible embeddings
 * endpoint (README "Integrations"): EMBEDDINGS_BASE_URL, EMBEDDINGS_MODEL, EMBEDDINGS_DIMENSIONS,
 * against a strict loopback double of the OpenAI embeddings API. Every optional setting
 * (EMBEDDINGS_TIMEOUT_MS, EMBEDDINGS_API_KEY) takes its default; the demo corpus loads through
 * the endpoint on this first start, an import embeds, a recall embeds its query.
 */
const embeddings = await startFakeEmbeddings({ dimensions: 64 });
let app: MinimumApp;

beforeAll(async () => {
  app = await startAppWithOnly({
    EMBEDDINGS_BASE_URL: embeddings.baseUrl,
    EMBEDDINGS_MODEL: "text-embedding-fake",
    EMBEDDINGS_DIMENSIONS: "64",
  });
}, 120_000);

afterAll(async () => {
  await app?.stop();
  await embeddings.close();
});

describe("embeddings with only the minimum settings", () => {
  it("imports and recalls through the endpoint", async () => {
    const memoriesRoute = await import("@/app/api/memories/route");
    const recallRoute = await import("@/app/api/recall/route");
    const imported = await callRoute(memoriesRoute.POST, {
      body: {
        memories: [
          { id: "min-kafka", summary: "Kafka consumer lag alerts page the on-call engineer after five minutes.", type: "fact" },
          { id: "min-lunch", summary: "The team lunch is on Thursdays at the noodle bar.", type: "note" },
        ],
      },
    });
    expect(imported.status).toBe(201);

    const recall = await callRoute(recallRoute.POST, {
      body: { query: "kafka consumer lag alerts", k: 3, search_mode: "semantic" },
    });
    expect(recall.status).toBe(200);
    expect(recall.json.results[0].memory_id).toBe("min-kafka");

    // The client spoke the published API: no key (none configured), the model, texts as input.
    const sent = embeddings.requests.at(-1)!;
    expect(sent.headers.authorization).toBeUndefined();
    expect(sent.body).toMatchObject({ model: "text-embedding-fake", input: ["kafka consumer lag alerts"] });
  }, 60_000);

  it("loaded the demo corpus through the endpoint on this first start", async () => {
    const { getEmbeddedStore } = await import("@/lib/stores/server/embedded");
    const store = await getEmbeddedStore();
    expect(store.size).toBeGreaterThan(300);
    expect(embeddings.requests.length).toBeGreaterThan(2);
  });
});
