import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { appUnderTest, callRoute } from "../support/app-under-test";

/**
 * PUT /api/recalls/{id}/labels through the real handlers and a throw-away PGlite database:
 * the envelope for bad bodies, unknown ids and unknown recalls; labels read back from GET.
 */
const app = appUnderTest("labels");

const labelsRoute = await import("@/app/api/recalls/[id]/labels/route");
const recallRoute = await import("@/app/api/recalls/[id]/route");
const listRoute = await import("@/app/api/recalls/route");
const { getPrisma } = await import("@/lib/db/server");
const { insertRecall, recallRow } = await import("@/lib/recall-log/server/repository");

const ID = randomUUID();

function put(id: string, body: unknown, raw?: string) {
  return callRoute(labelsRoute.PUT, { method: "PUT", params: { id }, ...(raw !== undefined ? { rawBody: raw } : { body }) });
}

beforeAll(async () => {
  const results = ["kafka", "oncall"].map((memory_id, i) => ({ memory_id, summary: memory_id, score: 0.8 - i / 10 }));
  await insertRecall(
    await getPrisma(),
    recallRow({
      id: ID,
      createdAt: new Date(),
      source: "ingest",
      request: {
        store: "remote-prod",
        query: "who handles kafka lag",
        k: 2,
        search_mode: "hybrid",
        use_rerank: false,
        selector: "off",
      },
      latencyMs: 3,
      outcome: {
        results,
        confidence: null,
        selector: null,
        candidates: [...results, { memory_id: "lunch", summary: "lunch", score: 0.1 }].map((r, i) => ({
          memory_id: r.memory_id,
          summary: r.summary,
          rank: i + 1,
          raw_cosine: r.score,
          keyword_score: null,
          hybrid_score: r.score,
          in_pool: true,
          returned: i < 2,
        })),
        timings: {},
      },
    }),
  );
});

afterAll(async () => {
  await app.close();
});

describe("PUT /api/recalls/{id}/labels", () => {
  it("saves labels on an ingested recall and GET /api/recalls/{id} returns them", async () => {
    const saved = await put(ID, { present: "yes", results: { kafka: true, lunch: false }, labeler: "Priya" });
    expect(saved.status).toBe(200);
    expect(saved.json).toMatchObject({
      id: ID,
      labels: { present: "yes", results: { kafka: true, lunch: false }, labeler: "Priya" },
    });
    const edited = await put(ID, { results: { oncall: true, lunch: null } });
    expect(edited.json.labels).toMatchObject({ present: "yes", results: { kafka: true, oncall: true }, labeler: "Priya" });
    expect(edited.json.labels.results).not.toHaveProperty("lunch");

    const read = await callRoute(recallRoute.GET, { params: { id: ID } });
    expect(read.status).toBe(200);
    expect(read.json.labels).toEqual(edited.json.labels);

    const list = await callRoute(listRoute.GET, { url: "/api/recalls?label=present" });
    expect(list.json.items.map((i: { id: string }) => i.id)).toEqual([ID]);
    expect((await callRoute(listRoute.GET, { url: "/api/recalls?label=absent" })).json.items).toEqual([]);
    expect((await callRoute(listRoute.GET, { url: "/api/recalls?label=unlabeled" })).json.items).toEqual([]);
  });

  it("refuses memory ids that are not the recall's with 422 in the envelope, saving nothing", async () => {
    const before = (await callRoute(recallRoute.GET, { params: { id: ID } })).json.labels;
    const bad = await put(ID, { present: "no", results: { kafka: false, "not-here": true } });
    expect(bad.status).toBe(422);
    expect(bad.json.error).toBe("unknown_memory_ids");
    expect(bad.json.message).toMatch(/1 labeled memory id is neither a result nor a candidate of this recall: "not-here"/);
    expect(bad.json.details).toEqual({ unknown_ids: ["not-here"], unknown_count: 1 });
    expect((await callRoute(recallRoute.GET, { params: { id: ID } })).json.labels).toEqual(before);
  });

  it.each([
    ["an empty patch", {}, /at least one of present, results, labeler/],
    ["an unknown present label", { present: "maybe" }, /present: present is one of yes, no, unsure/],
    ["a non-boolean result label", { results: { kafka: 1 } }, /results\.kafka/],
    ["an unknown field", { present: "yes", relevant: ["kafka"] }, /relevant/],
  ])("answers %s with 422 validation_failed", async (_name, body, message) => {
    const res = await put(ID, body);
    expect(res.status).toBe(422);
    expect(res.json.error).toBe("validation_failed");
    expect(res.json.message).toMatch(message);
  });

  it("answers bad JSON with 400, an unknown recall with 404 and a malformed id with 422", async () => {
    expect((await put(ID, undefined, "{not json")).status).toBe(400);
    const missing = await put(randomUUID(), { present: "yes" });
    expect(missing.status).toBe(404);
    expect(missing.json).toMatchObject({ error: "not_found" });
    expect((await put(randomUUID(), { results: { kafka: true } })).status).toBe(404);
    expect((await put("nope", { present: "yes" })).json.error).toBe("validation_failed");
  });

  it("refuses an unknown label filter in History", async () => {
    const res = await callRoute(listRoute.GET, { url: "/api/recalls?label=maybe" });
    expect(res.status).toBe(422);
    expect(res.json.message).toMatch(/label is one of labeled, unlabeled, present, absent, unsure/);
  });
});
