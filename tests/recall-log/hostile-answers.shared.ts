import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { appUnderTestOn, callRoute } from "../support/app-under-test";
import type { DATABASE_KINDS } from "../support/databases";
import { startFakeMemoryService, type FakeMemoryService } from "../support/fake-memory-service";
import { FAKE_API_KEY, FAKE_CONTEXT_ID, olderRecallResponse, S1_CONFIDENCE } from "../support/fake-memory-service-fixtures";

/**
 * Hostile remote answers through the real route handlers: a memory service whose answer holds a
 * value nested 32/1,000/1,500/5,000 deep, or text with a NUL or an unpaired surrogate. Each recall
 * is answered 200 or 502 in the envelope, the id it names can be read back, and the database
 * stays alive: /api/health 200, History lists, the next embedded recall works.
 *
 * Module-level state (the app's database and stores come from the environment), so each database
 * kind is its own test file calling `hostileAnswerTests`.
 */
export async function hostileAnswerTests(kind: (typeof DATABASE_KINDS)[number]): Promise<void> {
  const fake: FakeMemoryService = await startFakeMemoryService();
  const app = await appUnderTestOn(kind, "hostile");
  for (const key of Object.keys(process.env)) if (key.startsWith("REMOTE_STORE_")) delete process.env[key];
  process.env.REMOTE_STORES = JSON.stringify([
    { name: "hostile", base_url: fake.url, api_key: FAKE_API_KEY, context_id: FAKE_CONTEXT_ID, timeout_ms: 20_000 },
  ]);

  const recallRoute = await import("@/app/api/recall/route");
  const recallsRoute = await import("@/app/api/recalls/route");
  const recallByIdRoute = await import("@/app/api/recalls/[id]/route");
  const healthRoute = await import("@/app/api/health/route");
  const memoriesRoute = await import("@/app/api/memories/route");

  /** A recall answer whose one result carries `context` (JSON text written by hand: JSON.stringify overflows at 5,000). */
  const answerWith = (contextJson: string, summaryJson = '"A memory"') =>
    `{"results":[{"memory_id":"m-1","summary":${summaryJson},"score":0.9,"context":${contextJson}}],"related_tags":[],"confidence":${JSON.stringify(S1_CONFIDENCE)}}`;
  const nested = (depth: number) => `${'{"x":'.repeat(depth)}1${"}".repeat(depth)}`;

  async function expectAlive() {
    expect((await callRoute(healthRoute.GET, { url: "/api/health" })).status).toBe(200);
    const history = await callRoute(recallsRoute.GET, { url: "/api/recalls?limit=5" });
    expect(history.status).toBe(200);
    expect(Array.isArray(history.json.items)).toBe(true);
    const embedded = await callRoute(recallRoute.POST, { body: { query: "kafka consumer lag", k: 3 } });
    expect(embedded.status).toBe(200);
    expect((await callRoute(recallByIdRoute.GET, { params: { id: embedded.json.id } })).status).toBe(200);
  }

  /** 200 with an id that reads back, or 502 remote_bad_response in the envelope whose recall_id reads back as failed. */
  async function expectAnsweredAndLogged(raw: string): Promise<{ status: number; json: Record<string, unknown> }> {
    fake.setNext({ path: "/api/v1/memory/recall", raw });
    const answer = await callRoute(recallRoute.POST, { body: { store: "hostile", query: "anything" } });
    expect([200, 502]).toContain(answer.status);
    if (answer.status === 502) {
      expect(answer.json).toMatchObject({
        error: "remote_bad_response",
        message: expect.any(String),
        details: expect.any(Object),
      });
      const logged = await callRoute(recallByIdRoute.GET, { params: { id: answer.json.details.recall_id } });
      expect(logged.status).toBe(200);
      expect(logged.json).toMatchObject({ status: "error", error: { code: "remote_bad_response" } });
    } else {
      const logged = await callRoute(recallByIdRoute.GET, { params: { id: answer.json.id } });
      expect(logged.status).toBe(200);
    }
    return answer;
  }

  describe(`hostile memory-service answers (${kind})`, () => {
    beforeAll(async () => {
      const seeded = await callRoute(memoriesRoute.POST, {
        body: { memories: [{ summary: "Kafka consumer lag alerts page the on-call engineer." }] },
      });
      expect(seeded.status).toBe(201);
    }, 120_000);

    afterAll(async () => {
      await fake.close();
      await app.close();
    });

    it.each([32, 1_000, 1_500, 5_000])(
      "a result nested %i deep: answered 200 or 502, logged, and the database lives on",
      async (depth) => {
        const answer = await expectAnsweredAndLogged(answerWith(nested(depth)));
        if (depth > 64) expect(String(answer.json.message)).toMatch(/nested more than \d+ levels deep/);
        await expectAlive();
      },
      120_000,
    );

    it.each([
      ["a NUL", '"a\\u0000b"'],
      ["an unpaired high surrogate", '"a\\ud800b"'],
      ["an unpaired low surrogate", '"\\udc00b"'],
    ])("a summary with %s: the recall id returned exists (shown ⇔ logged)", async (_what, summary) => {
      const answer = await expectAnsweredAndLogged(answerWith("{}", summary));
      expect(answer.status).toBe(502);
      expect(String(answer.json.message)).toMatch(/results\.0\.summary/);
      await expectAlive();
    });

    it("without a picked mode none is sent and the recall reopens on Auto; the older answer is logged with its computed block", async () => {
      fake.reset();
      fake.setNext({ path: "/api/v1/memory/recall", json: olderRecallResponse() });
      const answer = await callRoute(recallRoute.POST, { body: { store: "hostile", query: "deploy" } });
      expect(answer.status).toBe(200);
      expect(fake.requests.at(-1)!.body).not.toHaveProperty("search_mode");
      expect(answer.json.request).toMatchObject({ search_mode: "hybrid", search_mode_auto: true });
      expect(answer.json.confidence).toMatchObject({ computed_from: "scores" });
      const logged = await callRoute(recallByIdRoute.GET, { params: { id: answer.json.id } });
      expect(logged.json).toEqual(answer.json);

      const picked = await callRoute(recallRoute.POST, { body: { store: "hostile", query: "deploy", search_mode: "semantic" } });
      expect(picked.status).toBe(200);
      expect(fake.requests.at(-1)!.body).toMatchObject({ search_mode: "semantic" });
      expect(picked.json.request.search_mode_auto).toBeUndefined();
    });
  });
}
