import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { appUnderTest, callRoute } from "../support/app-under-test";

/** /api/views through the real handlers and a throw-away PGlite database: answers and the envelope for bad input. */
const app = appUnderTest("views");

const listRoute = await import("@/app/api/views/route");
const oneRoute = await import("@/app/api/views/[id]/route");

// The first open migrates a new database: its own hook and time, not the first test's.
beforeAll(async () => {
  const { getDatabase } = await import("@/lib/db/server");
  await getDatabase();
}, 120_000);
afterAll(() => app.close());

const post = (body: unknown) => callRoute(listRoute.POST, { method: "POST", url: "/api/views", body });

describe("/api/views", () => {
  it("creates (201), replaces (200), lists, answers one and deletes", async () => {
    const created = await post({ page: "history", name: "Failures", params: "status=error&range=24h" });
    expect(created.status).toBe(201);
    expect(created.json.view).toMatchObject({ name: "Failures", href: "/recalls?status=error&range=24h" });
    const replaced = await post({ page: "history", name: "Failures", params: "status=error" });
    expect(replaced.status).toBe(200);
    expect(replaced.json).toMatchObject({ created: false, view: { id: created.json.view.id } });

    const list = await callRoute(listRoute.GET, { url: "/api/views?page=history" });
    expect(list.status).toBe(200);
    expect(list.json.views.map((v: { name: string }) => v.name)).toContain("Failures");

    const id = created.json.view.id as string;
    expect((await callRoute(oneRoute.GET, { params: { id } })).json).toMatchObject({ params: "status=error" });
    expect((await callRoute(oneRoute.DELETE, { method: "DELETE", params: { id } })).json).toEqual({ deleted: id });
    expect((await callRoute(oneRoute.GET, { params: { id } })).status).toBe(404);
    expect((await callRoute(oneRoute.DELETE, { method: "DELETE", params: { id } })).status).toBe(404);
  });

  it("refuses bad input with 422 in the envelope: unknown page or filter key, repeated key, empty or long name, bad id", async () => {
    const cases: [unknown, RegExp][] = [
      [{ page: "memories", name: "x", params: "" }, /page/],
      [{ page: "history", name: "x", params: "cursor=abc" }, /"cursor" is not a filter of the history page/],
      [{ page: "insights", name: "x", params: "mode=hybrid" }, /"mode" is not a filter of the insights page/],
      [{ page: "history", name: "x", params: "store=a&store=b" }, /more than once/],
      [{ page: "history", name: "   ", params: "" }, /name is empty/],
      [{ page: "history", name: "n".repeat(81), params: "" }, /longer than 80/],
      [{ page: "history", name: "x", params: "q=\u0000" }, /./],
      [{ page: "history", name: "x", params: "", extra: 1 }, /./],
    ];
    for (const [body, message] of cases) {
      const answer = await post(body);
      expect(answer.status, JSON.stringify(body)).toBe(422);
      expect(answer.json.error).toBe("validation_failed");
      expect(answer.json.message).toMatch(message);
    }
    expect((await callRoute(oneRoute.GET, { params: { id: "not-a-uuid" } })).status).toBe(422);
    expect((await callRoute(listRoute.GET, { url: "/api/views?page=nope" })).status).toBe(422);
    expect((await callRoute(oneRoute.GET, { params: { id: randomUUID() } })).status).toBe(404);
    expect((await callRoute(listRoute.PUT, { method: "PUT" })).status).toBe(405);
  });
});
