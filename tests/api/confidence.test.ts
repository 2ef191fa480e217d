import { describe, expect, it } from "vitest";
import { POST } from "@/app/api/confidence/route";
import { computeConfidence } from "@/lib/recall/confidence";
import { callRoute } from "../support/call-route";

const pool = { hybrid_scores: [1, 0.8, 0.7, 0.6], semantic_raw: [0.9, 0.55, 0.5, 0.45] };

function expectEnvelope(json: unknown, error: string | RegExp) {
  expect(json).toEqual({ error: expect.stringMatching(error), message: expect.any(String), details: expect.any(Object) });
}

describe("POST /api/confidence", () => {
  it("computes the block for a pool with the default profile", async () => {
    const { status, json } = await callRoute(POST, { body: pool });
    expect(status).toBe(200);
    expect(json).toEqual(computeConfidence({ hybridScores: pool.hybrid_scores, semanticRaw: pool.semantic_raw }));
    expect(json.thresholds).toBe("default");
    expect(json.basis).toBe("semantic");
  });

  it("recomputes under another profile, which can change the level", async () => {
    const base = await callRoute(POST, { body: pool });
    const strict = await callRoute(POST, {
      body: { ...pool, thresholds: { name: "strict", high_prominence: 2, moderate_prominence: 1.5, low_prominence: 1 } },
    });
    expect(strict.status).toBe(200);
    expect(strict.json.thresholds).toBe("strict");
    expect(strict.json.level).not.toBe(base.json.level);
    expect(strict.json.prominence).toBe(base.json.prominence);
  });

  it("answers an empty pool with level none", async () => {
    const { status, json } = await callRoute(POST, { body: {} });
    expect(status).toBe(200);
    expect(json).toMatchObject({ level: "none", top_score: null, result_count: 0, basis: "empty" });
  });

  it("rejects malformed JSON with 400", async () => {
    const { status, json } = await callRoute(POST, { rawBody: "{ hybrid_scores: [1," });
    expect(status).toBe(400);
    expectEnvelope(json, "bad_json");
  });

  it.each([
    ["a string score", { hybrid_scores: [0.5, "0.4"] }, ["hybrid_scores", "1"]],
    ["a null score", { semantic_raw: [0.5, null] }, ["semantic_raw", "1"]],
    ["an unknown key", { hybrid_scores: [1], scores: [1] }, []],
    ["more than 10,000 scores", { hybrid_scores: Array.from({ length: 10_001 }, () => 0.5) }, ["hybrid_scores"]],
  ])("rejects %s with 422 and says where", async (_name, body, path) => {
    const { status, json } = await callRoute(POST, { body });
    expect(status).toBe(422);
    expectEnvelope(json, "validation_failed");
    expect(json.details.issues[0].path).toEqual(path);
  });

  it("rejects thresholds out of order with 422 naming the problem", async () => {
    const { status, json } = await callRoute(POST, {
      body: { ...pool, thresholds: { high_prominence: 0.1, moderate_prominence: 0.25 } },
    });
    expect(status).toBe(422);
    expectEnvelope(json, "invalid_thresholds");
    expect(JSON.stringify(json.details)).toMatch(/high_prominence/);
  });
});
