import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { appUnderTest, callRoute } from "../support/app-under-test";

/**
 * `/api/memories/lookup` takes its documented 500 ids: 500 ids of 200
 * characters are ~100 KB, past Node's 16 KB header cap in a URL (431 on a real server,
 * e2e/security.spec.ts), so they go in a POST body; GET stays for short lists.
 */
const app = appUnderTest("lookup");

const memoriesRoute = await import("@/app/api/memories/route");
const lookupRoute = await import("@/app/api/memories/lookup/route");
const { getDatabase } = await import("@/lib/db/server");

const longId = (i: number) => `${String(i).padStart(4, "0")}-${"x".repeat(195)}`;
const KEPT = [longId(7), "ops:oncall-rota"];

beforeAll(async () => {
  await getDatabase();
  const added = await callRoute(memoriesRoute.POST, {
    body: { memories: KEPT.map((id) => ({ id, summary: `Memory ${id.slice(0, 8)} about the on-call rota` })) },
  });
  expect(added.status).toBe(201);
});

afterAll(async () => {
  await app.close();
});

describe("POST /api/memories/lookup", () => {
  it("takes 500 ids of 200 characters (a comma too: a remote store's id) and says which the store holds", async () => {
    const ids = [...Array.from({ length: 498 }, (_, i) => longId(i)), "remote,id", "ops:oncall-rota"];
    expect(ids.every((id) => id.length <= 200)).toBe(true);
    expect(encodeURIComponent(ids.join(",")).length).toBeGreaterThan(16_384);
    const { status, json } = await callRoute(lookupRoute.POST, { url: "/api/memories/lookup", body: { ids } });
    expect(status).toBe(200);
    expect(json.found).toEqual(KEPT);
    expect(json.missing).toHaveLength(498);
    expect(json.missing).toContain("remote,id");
    expect(json.missing).not.toContain(longId(7));
  });

  it("refuses more than 500 ids, a NUL and a missing list with 422 in the envelope; GET still answers", async () => {
    for (const body of [{ ids: Array.from({ length: 501 }, (_, i) => `m${i}`) }, { ids: ["a\u0000b"] }, {}, { ids: [""] }]) {
      const answer = await callRoute(lookupRoute.POST, { url: "/api/memories/lookup", body });
      expect(answer.status, JSON.stringify(body)).toBe(422);
      expect(answer.json.error).toBe("validation_failed");
    }
    const get = await callRoute(lookupRoute.GET, { url: `/api/memories/lookup?ids=${encodeURIComponent(KEPT[0]!)},gone` });
    expect(get.json).toEqual({ found: [KEPT[0]], missing: ["gone"] });
  });
});
