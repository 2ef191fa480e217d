import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startAppWithOnly, type MinimumApp } from "../integrations/minimum-env";
import { callRoute } from "../support/call-route";

/**
 * A first start with DEMO_CORPUS=off, as the server runs it (lib/server/startup.ts): one empty store
 * `embedded` and nothing of the demo — no demo store, no demo labeled set (an honest empty
 * state; lib/stores/server/embedded/README.md "Embedded stores").
 */
let app: MinimumApp;

beforeAll(async () => {
  app = await startAppWithOnly({}, { emptyStore: true });
}, 120_000);

afterAll(async () => {
  await app?.stop();
});

describe("a first start with DEMO_CORPUS=off", () => {
  it("has one empty store, embedded, and it is the default", async () => {
    const storesRoute = await import("@/app/api/stores/route");
    const { json } = await callRoute(storesRoute.GET);
    expect(json.stores.map((s: { name: string; memories: number; default: boolean }) => [s.name, s.memories, s.default])).toEqual(
      [["embedded", 0, true]],
    );
  });

  it("offers no labeled set and recalls nothing from the empty store", async () => {
    const datasetsRoute = await import("@/app/api/datasets/route");
    expect((await callRoute(datasetsRoute.GET)).json.datasets).toEqual([]);
    const recallRoute = await import("@/app/api/recall/route");
    const recall = await callRoute(recallRoute.POST, { body: { query: "who is on call this week" } });
    expect(recall.status).toBe(200);
    expect(recall.json).toMatchObject({ store: "embedded", results: [], candidates: [] });
  }, 60_000);
});
