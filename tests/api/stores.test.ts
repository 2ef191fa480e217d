import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { appUnderTest, callRoute } from "../support/app-under-test";

/**
 * Named embedded stores through the API alone (lib/stores/server/embedded/README.md "Embedded stores"):
 * a new database starts with the store `demo` only; a store of one's own holds only what was
 * imported into it, and deleting it removes its memories while History keeps its recalls.
 */
const app = appUnderTest("stores", { demoCorpus: true });
process.env.INDEX_SNAPSHOT = path.join(app.dir, "index.snapshot");

const storesRoute = await import("@/app/api/stores/route");
const storeRoute = await import("@/app/api/stores/[name]/route");
const memoriesRoute = await import("@/app/api/memories/route");
const memoryRoute = await import("@/app/api/memories/[id]/route");
const statsRoute = await import("@/app/api/memories/stats/route");
const recallRoute = await import("@/app/api/recall/route");
const recallsRoute = await import("@/app/api/recalls/route");
const datasetsRoute = await import("@/app/api/datasets/route");
const datasetRoute = await import("@/app/api/datasets/[id]/route");
const { getDatabase } = await import("@/lib/db/server");
const { getEmbeddedStores } = await import("@/lib/stores/server/embedded");
const { calibrationIdle } = await import("@/lib/profiles/server/store-calibration");

const TOPICS = ["sailing", "pottery", "beekeeping", "chess", "orchids"];
/** 200 memories of store `a`: hobbies the demo corpus (an engineering team) never mentions. */
const A_MEMORIES = Array.from({ length: 200 }, (_, i) => ({
  id: `a-${i}`,
  summary: `Note ${i} on ${TOPICS[i % TOPICS.length]}: lesson ${Math.floor(i / TOPICS.length)} of the club's course.`,
  tags: [TOPICS[i % TOPICS.length]!],
}));

beforeAll(async () => {
  await getEmbeddedStores();
}, 240_000);

afterAll(async () => {
  await app.close();
});

describe("embedded stores", () => {
  it("a new database starts with the store demo only, holding the demo corpus", async () => {
    const { status, json } = await callRoute(storesRoute.GET);
    expect(status).toBe(200);
    expect(json.stores.map((s: { name: string }) => s.name)).toEqual(["demo"]);
    expect(json.stores[0]).toMatchObject({ kind: "embedded", memories: 345, default: true, profile: "use-lite" });
    expect(json.stores[0].embedding_model).toMatch(/use-lite/);
  });

  it("creates a store (201), refuses a taken name (409) and a bad one (422) in the envelope", async () => {
    const created = await callRoute(storesRoute.POST, { body: { name: "a", description: "My agent's memories" } });
    expect(created.status).toBe(201);
    expect(created.json).toMatchObject({ name: "a", kind: "embedded", memories: 0, description: "My agent's memories" });
    const taken = await callRoute(storesRoute.POST, { body: { name: "a" } });
    expect(taken.status).toBe(409);
    expect(taken.json.error).toBe("store_exists");
    for (const body of [
      { name: "" },
      { name: "x".repeat(65) },
      { name: "a/b" },
      { name: "nul\u0000" },
      {},
      { name: "b", extra: 1 },
    ]) {
      const bad = await callRoute(storesRoute.POST, { body });
      expect(bad.status, JSON.stringify(body)).toBe(422);
      expect(bad.json).toMatchObject({ error: expect.any(String), message: expect.any(String) });
    }
  });

  it("imports 200 memories into store a; a recall from a returns none of demo's, and demo's none of a's", async () => {
    const imported = await callRoute(memoriesRoute.POST, { url: "/api/memories?store=a", body: { memories: A_MEMORIES } });
    expect(imported.status).toBe(201);
    expect(imported.json.created).toBe(200);
    expect((await callRoute(statsRoute.GET, { url: "/api/memories/stats?store=a" })).json.total).toBe(200);
    // The same id may live in two stores: ids are unique per store.
    const again = await callRoute(memoriesRoute.POST, {
      body: { store: "demo", memories: [{ id: "a-0", summary: "Demo's own a-0" }] },
    });
    expect(again.json.created).toBe(1);
    // A write naming two stores (query and body) is refused whole, for memories and for sets alike.
    const twoStores = await callRoute(memoriesRoute.POST, {
      url: "/api/memories?store=a",
      body: { store: "demo", memories: [{ id: "a-two", summary: "Which store?" }] },
    });
    expect(twoStores.status).toBe(422);
    expect(twoStores.json).toMatchObject({ error: "validation_failed", details: { query: "a", body: "demo" } });
    const twoStoresSet = await callRoute(datasetsRoute.POST, {
      url: "/api/datasets?store=a",
      body: { name: "two stores", store: "demo", items: [{ query: "orchids", relevant: ["a-0"] }] },
    });
    expect(twoStoresSet.status).toBe(422);
    expect(twoStoresSet.json.error).toBe("validation_failed");
    expect((await callRoute(memoryRoute.GET, { url: "/api/memories/a-two?store=demo", params: { id: "a-two" } })).status).toBe(
      404,
    );

    const inA = await callRoute(recallRoute.POST, { body: { store: "a", query: "how do I look after my orchids", k: 20 } });
    expect(inA.status).toBe(200);
    expect(inA.json.store).toBe("a");
    const aIds = new Set(A_MEMORIES.map((m) => m.id));
    expect(inA.json.results.length).toBeGreaterThan(0);
    for (const c of inA.json.candidates) expect(aIds.has(c.memory_id), c.memory_id).toBe(true);
    expect(inA.json.results[0].summary).toMatch(/orchids/);

    const inDemo = await callRoute(recallRoute.POST, { body: { store: "demo", query: "how do I look after my orchids", k: 20 } });
    for (const c of inDemo.json.candidates) expect(c.summary ?? "", c.memory_id).not.toMatch(/club's course/);
    // No store named: the default store (demo).
    const byDefault = await callRoute(recallRoute.POST, { body: { query: "orchids", k: 5 } });
    expect(byDefault.json.store).toBe("demo");

    const one = await callRoute(memoryRoute.GET, { url: "/api/memories/a-0?store=a", params: { id: "a-0" } });
    expect(one.json.summary).toMatch(/sailing/);
    const demoOne = await callRoute(memoryRoute.GET, { url: "/api/memories/a-0?store=demo", params: { id: "a-0" } });
    expect(demoOne.json.summary).toBe("Demo's own a-0");
  }, 240_000);

  it("answers 404 unknown_store in the envelope for a store that does not exist, on every route", async () => {
    const answers = [
      await callRoute(memoriesRoute.GET, { url: "/api/memories?store=nope" }),
      await callRoute(memoriesRoute.POST, { url: "/api/memories?store=nope", body: { memories: [{ summary: "x" }] } }),
      await callRoute(statsRoute.GET, { url: "/api/memories/stats?store=nope" }),
      await callRoute(memoryRoute.GET, { url: "/api/memories/a-0?store=nope", params: { id: "a-0" } }),
      await callRoute(recallRoute.POST, { body: { store: "nope", query: "orchids" } }),
      await callRoute(storeRoute.DELETE, { params: { name: "nope" } }),
      await callRoute(datasetsRoute.POST, { body: { name: "s", store: "nope", items: [{ query: "q", relevant: [] }] } }),
    ];
    for (const answer of answers) {
      expect(answer.status).toBe(404);
      expect(answer.json).toMatchObject({ error: "unknown_store", message: expect.stringMatching(/nope/) });
    }
  });

  it("keeps labeled sets per store and says which relevant ids a store does not hold", async () => {
    const set = await callRoute(datasetsRoute.POST, {
      body: { name: "orchid care", store: "a", items: [{ query: "orchid watering", relevant: ["a-4", "a-9", "not-here"] }] },
    });
    expect(set.status).toBe(201);
    // The same name in another store is another set; twice in one store is a 409.
    expect(
      (
        await callRoute(datasetsRoute.POST, {
          body: { name: "orchid care", store: "demo", items: [{ query: "q", relevant: [] }] },
        })
      ).status,
    ).toBe(201);
    expect(
      (await callRoute(datasetsRoute.POST, { body: { name: "orchid care", store: "a", items: [{ query: "q", relevant: [] }] } }))
        .status,
    ).toBe(409);
    const ofA = await callRoute(datasetsRoute.GET, { url: "/api/datasets?store=a" });
    expect(ofA.json.datasets.map((d: { name: string; store: string }) => [d.name, d.store])).toEqual([["orchid care", "a"]]);
    const coverage = await callRoute(datasetRoute.GET, {
      url: `/api/datasets/${set.json.id}?store=a`,
      params: { id: set.json.id },
    });
    expect(coverage.json.missing).toEqual({ checked: true, count: 1, ids: ["not-here"] });
    const inDemo = await callRoute(datasetRoute.GET, {
      url: `/api/datasets/${set.json.id}?store=demo`,
      params: { id: set.json.id },
    });
    expect(inDemo.json.missing.count).toBe(3);
  });

  it("deletes store a with its memories; its recalls stay in History, marked as a deleted store", async () => {
    // Store a calibrated itself (or is calibrating) once the store list was read.
    const before = (await callRoute(storesRoute.GET)).json.stores.find((s: { name: string }) => s.name === "a");
    expect(before.calibration.state).not.toBe("none");
    const deleted = await callRoute(storeRoute.DELETE, { params: { name: "a" } });
    expect(deleted.status).toBe(200);
    expect(deleted.json).toEqual({ deleted: "a", memories: 200 });
    const { prisma } = await getDatabase();
    expect(await prisma.memory.count({ where: { store: "a" } })).toBe(0);
    expect(await prisma.memory.count({ where: { store: "demo" } })).toBe(346);
    expect((await callRoute(storesRoute.GET)).json.stores.map((s: { name: string }) => s.name)).toEqual(["demo"]);
    expect((await callRoute(recallRoute.POST, { body: { store: "a", query: "orchids" } })).status).toBe(404);

    const history = await callRoute(recallsRoute.GET, { url: "/api/recalls?store=a" });
    expect(history.json.items.length).toBeGreaterThan(0);
    expect(history.json.deleted_stores).toEqual(["a"]);
    const demoHistory = await callRoute(recallsRoute.GET, { url: "/api/recalls?store=demo" });
    expect(demoHistory.json.deleted_stores).toEqual([]);

    // A store of that name made again is a new, empty store, and no longer "deleted".
    expect((await callRoute(storesRoute.POST, { body: { name: "a" } })).json.memories).toBe(0);
    // ...with no calibration left from the memories it no longer has, even once a job still running has ended.
    await calibrationIdle("a");
    const again = (await callRoute(storesRoute.GET)).json.stores.find((s: { name: string }) => s.name === "a");
    expect(again.calibration).toMatchObject({ state: "none", estimate: null });
    expect(await prisma.appState.count({ where: { key: { in: ["calibration:a", "calibration-examples:a"] } } })).toBe(0);
    expect((await callRoute(recallsRoute.GET, { url: "/api/recalls?store=a" })).json.deleted_stores).toEqual([]);
  }, 120_000);

  it("drops an idle store's index from memory and opens it again on its next use", async () => {
    const stores = await getEmbeddedStores();
    await callRoute(recallRoute.POST, { body: { store: "demo", query: "who is on call" } });
    expect(stores.isOpen("demo")).toBe(true);
    await stores.dropIdle(Date.now() + 60 * 60_000);
    expect(stores.isOpen("demo")).toBe(false);
    const again = await callRoute(recallRoute.POST, { body: { store: "demo", query: "who is on call" } });
    expect(again.status).toBe(200);
    expect(again.json.candidates.length).toBeGreaterThan(0);
    expect(stores.isOpen("demo")).toBe(true);
  }, 120_000);
});
