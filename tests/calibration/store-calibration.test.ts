import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { mulberry32 } from "@/lib/random";
import { callRoute } from "../support/call-route";

/**
 * Calibration without labels (lib/profiles/README.md "Calibration without labels"): a store of
 * random text runs the bundled probes; its null makes the probes read "nothing relevant" there,
 * while queries made from its own memories read present; its recalls then say they were measured
 * against the store's own null. A remote store's recalls are counted and confirmed first.
 */
const scratch = fs.mkdtempSync(path.join(os.tmpdir(), "recall-inspector-calibration-"));
process.env.PGLITE_DATA_DIR = path.join(scratch, "data");
process.env.INDEX_SNAPSHOT = path.join(scratch, "index.snapshot");
process.env.DEMO_CORPUS = "off";
delete process.env.DATABASE_URL;

const storesRoute = await import("@/app/api/stores/route");
const memoriesRoute = await import("@/app/api/memories/route");
const recallRoute = await import("@/app/api/recall/route");
const calibrationsRoute = await import("@/app/api/profiles/calibrations/route");
const fitRoute = await import("@/app/api/profiles/fit/route");
const { calibrationIdle } = await import("@/lib/profiles/server/store-calibration");
const { getDatabase } = await import("@/lib/db/server");
const { getEmbeddedStores } = await import("@/lib/stores/server/embedded");

/** Words of random letters: a store whose text no probe can be about. */
function randomText(rng: () => number, words: number): string {
  return Array.from({ length: words }, () =>
    Array.from({ length: 4 + Math.floor(rng() * 6) }, () => String.fromCharCode(97 + Math.floor(rng() * 26))).join(""),
  ).join(" ");
}

beforeAll(async () => {
  await getEmbeddedStores();
}, 240_000);

afterAll(async () => {
  await (await getEmbeddedStores()).close();
  const db = await getDatabase();
  await db.prisma.$disconnect();
  await db.raw.close();
  fs.rmSync(scratch, { recursive: true, force: true });
});

describe("calibration without labels", () => {
  it("validates its input in the envelope", async () => {
    for (const body of [{}, { store: "" }, { store: "x", extra: 1 }, { store: "x", confirm_recalls: -1 }]) {
      const bad = await callRoute(calibrationsRoute.POST, { body });
      expect(bad.status, JSON.stringify(body)).toBe(422);
      expect(bad.json).toMatchObject({ error: expect.any(String), message: expect.any(String) });
    }
    expect((await callRoute(calibrationsRoute.POST, { body: { store: "nope" } })).status).toBe(404);
  });

  it("a store of random text learns its null: probes read nothing relevant, its own memories present", async () => {
    expect((await callRoute(storesRoute.POST, { body: { name: "noise" } })).status).toBe(201);
    const rng = mulberry32(42);
    const items = Array.from({ length: 40 }, (_, i) => ({ id: `n-${i}`, summary: randomText(rng, 12) }));
    const imported = await callRoute(memoriesRoute.POST, { url: "/api/memories?store=noise", body: { memories: items } });
    expect(imported.status, JSON.stringify(imported.json).slice(0, 300)).toBeLessThan(300);

    const before = await callRoute(recallRoute.POST, { body: { query: items[0]!.summary, k: 5, store: "noise" } });
    expect(before.json.profile_confidence.calibration.store_relative).toBe(false);

    const started = await callRoute(calibrationsRoute.POST, { body: { store: "noise" } });
    expect(started.status).toBe(202);
    expect(started.json.calibration.state).toBe("calibrating");
    expect(started.json.recalls).toBeGreaterThanOrEqual(500);
    await calibrationIdle("noise");

    const listed = await callRoute(calibrationsRoute.GET);
    const cal = listed.json.calibrations.noise;
    expect(cal).toMatchObject({ state: "ready", method: "label_free", memories_at: 40 });
    expect(cal.examples.probes).toBeGreaterThanOrEqual(500);
    expect(cal.examples.memories).toBeGreaterThan(20);
    // Probes are this store's null: few of them read worth reading; its own memories' queries do.
    expect(cal.estimate.probes_worth_reading).toBeLessThan(0.15);
    expect(cal.estimate.balanced_accuracy).toBeGreaterThan(0.8);

    const stores = (await callRoute(storesRoute.GET)).json.stores as { name: string; calibration: { state: string } }[];
    expect(stores.find((s) => s.name === "noise")!.calibration).toMatchObject({ state: "ready", method: "label_free" });

    const after = await callRoute(recallRoute.POST, { body: { query: items[3]!.summary, k: 5, store: "noise" } });
    expect(after.json.profile_confidence.calibration.store_relative).toBe(true);
    expect(["high", "moderate"]).toContain(after.json.profile_confidence.level);
    const probe = await callRoute(recallRoute.POST, { body: { query: "how do I descale a kettle", k: 5, store: "noise" } });
    expect(["low", "none"]).toContain(probe.json.profile_confidence.level);

    // A fit from a few of the store's labels leans on the examples its calibration kept.
    const db = await getDatabase();
    const asked = [
      ...items.slice(10, 16).map((m) => ({ query: m.summary.split(" ").slice(0, 8).join(" "), yes: true })),
      ...[
        "when is the next train to Leeds",
        "a recipe for lentil soup",
        "how do I reset my router",
        "best hiking boots",
        "what is a Roth IRA",
        "tips for a job interview",
      ].map((query) => ({ query, yes: false })),
    ];
    for (const { query, yes } of asked) {
      const view = (await callRoute(recallRoute.POST, { body: { query, k: 5, store: "noise" } })).json;
      await db.prisma.recall.update({ where: { id: view.id }, data: { labelPresent: yes ? "yes" : "no" } });
    }
    const fit = await callRoute(fitRoute.POST, { body: { recall_filters: { store: "noise" } } });
    expect(fit.status, JSON.stringify(fit.json).slice(0, 300)).toBe(200);
    const verdict = fit.json.verdict;
    expect(verdict.basis).toMatch(/^12 labels \+ label-free prior \(weight 0\.\d\d\)$/);
    expect(verdict.prior_note).toBeNull();
    expect(verdict.model.trained_on).toMatchObject({ present: 6, absent: 6 });
    expect(verdict.model.prior).toMatchObject({
      pseudo_labels: 20,
      probes: cal.examples.probes,
      memories: cal.examples.memories,
    });
    // Measured against the store's null, like the shipped model; still loudly marked as too few labels.
    expect(verdict.model.relative_to).toMatchObject({ probes: cal.examples.probes });
    expect(verdict.warning).toMatch(/fewer than 20 of each/);
  }, 300_000);
});
