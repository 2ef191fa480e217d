import { NextRequest } from "next/server";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { confidenceInputFromCandidates, kSensitivity, profileConfidence } from "@/lib/calibration/level";
import { predictVerdict, recallSignals, type RecallSignals } from "@/lib/calibration/model";
import { computeConfidence, toWireConfidence } from "@/lib/recall/confidence";
import { callRoute } from "../support/call-route";

/**
 * Profiles, store assignment, profile_confidence and k_sensitivity on recalls, fitting from
 * labeled recalls and from an evaluation run, and what-if, through the real handlers on a throw-away PGlite database.
 */
const scratch = fs.mkdtempSync(path.join(os.tmpdir(), "recall-inspector-profiles-"));
process.env.PGLITE_DATA_DIR = path.join(scratch, "data");
process.env.DEMO_CORPUS = "off";
delete process.env.DATABASE_URL;

const memoriesRoute = await import("@/app/api/memories/route");
const recallRoute = await import("@/app/api/recall/route");
const recallsRoute = await import("@/app/api/recalls/[id]/route");
const profilesRoute = await import("@/app/api/profiles/route");
const profileRoute = await import("@/app/api/profiles/[name]/route");
const fitRoute = await import("@/app/api/profiles/fit/route");
const storesRoute = await import("@/app/api/stores/route");
const storeProfileRoute = await import("@/app/api/stores/[name]/profile/route");
const whatIfRoute = await import("@/app/api/what-if/route");
const datasetsRoute = await import("@/app/api/datasets/route");
const runsRoute = await import("@/app/api/eval-runs/route");
const { evalQueueIdle } = await import("@/lib/eval/server/runs");
const { fitProfile } = await import("@/lib/calibration/fit");
const { DEFAULT_PROFILE, editProfile } = await import("@/lib/calibration/profile");
const { getDatabase } = await import("@/lib/db/server");
const { getEmbedder } = await import("@/lib/embeddings/server");
const { SHIPPED_PROFILE } = await import("@/lib/profiles/builtin");

const SEED = [
  { id: "oncall", summary: "Priya is on call this week; escalate Kafka lag pages to her before 22:00." },
  { id: "kafka", summary: "Kafka consumer lag alerts fire when the dispatch consumer falls 5 minutes behind." },
  { id: "lunch", summary: "The team lunch on Thursdays is at the Vietnamese place near the office." },
  { id: "db", summary: "PgBouncer sits in front of Postgres because the rates API opened too many connections." },
  { id: "editor", summary: "Maya writes code in Neovim with a light colour scheme." },
  { id: "deploy", summary: "Production deploys are frozen on Friday afternoons." },
];

beforeAll(async () => {
  expect((await callRoute(memoriesRoute.POST, { body: { memories: SEED } })).status).toBe(201);
});

afterAll(async () => {
  await evalQueueIdle();
  const db = await getDatabase();
  await (getEmbedder() as { close?: () => Promise<void> }).close?.();
  await db.prisma.$disconnect();
  await db.raw.close();
  fs.rmSync(scratch, { recursive: true, force: true });
});

async function streamWhatIf(body: unknown) {
  const request = new NextRequest(new URL("/api/what-if", "http://localhost"), {
    method: "POST",
    body: JSON.stringify(body),
    headers: { "content-type": "application/json" },
  });
  const response = await whatIfRoute.POST(request, { params: Promise.resolve({}) });
  const text = await response.text();
  return {
    status: response.status,
    events:
      response.status === 200
        ? text
            .trim()
            .split("\n")
            .map((l) => JSON.parse(l))
        : [JSON.parse(text)],
  };
}

describe("profiles", () => {
  it("lists the built-in profiles, which are read-only", async () => {
    const { json } = await callRoute(profilesRoute.GET);
    expect(json.profiles.slice(0, 2).map((p: { name: string }) => p.name)).toEqual(["default", "use-lite"]);
    expect(json.profiles[1]).toMatchObject({ builtin: true, pool_size: SHIPPED_PROFILE.pool_size });
    const refused = await callRoute(profilesRoute.POST, { body: { name: "use-lite", thresholds: {} } });
    expect(refused.status).toBe(409);
    expect((await callRoute(profilesRoute.POST, { body: { name: "default" } })).status).toBe(422);
  });

  it("creates, replaces and reads a profile; bad constants answer 422 with every issue", async () => {
    const created = await callRoute(profilesRoute.POST, {
      body: { name: "strict", thresholds: { abs_low_cosine: 0.45, abs_moderate_cosine: 0.6 }, pool_size: 10, description: "d" },
    });
    expect(created.status).toBe(201);
    expect(created.json.thresholds).toMatchObject({ name: "strict", abs_low_cosine: 0.45, high_prominence: 0.4 });
    const replaced = await callRoute(profilesRoute.POST, {
      body: { name: "strict", thresholds: { abs_low_cosine: 0.5, abs_moderate_cosine: 0.6 }, pool_size: 10 },
    });
    expect(replaced.status).toBe(200);
    const got = await callRoute(profileRoute.GET, { params: { name: "strict" } });
    expect(got.json).toMatchObject({ name: "strict", pool_size: 10, builtin: false, thresholds: { abs_low_cosine: 0.5 } });
    expect((await callRoute(profileRoute.GET, { params: { name: "missing" } })).status).toBe(404);
    const bad = await callRoute(profilesRoute.POST, {
      body: { name: "bad", thresholds: { high_prominence: 0.1, abs_low_cosine: 2 }, pool_size: 0 },
    });
    expect(bad.status).toBe(422);
    expect(bad.json.error).toBe("invalid_thresholds");
  });
});

describe("a store's profile", () => {
  it("the embedded store ships with the fitted profile; recalls carry both levels and k-sensitivity", async () => {
    const stores = await callRoute(storesRoute.GET);
    expect(stores.json.stores[0]).toMatchObject({ name: "embedded", profile: "use-lite" });
    const posted = await callRoute(recallRoute.POST, { body: { query: "who is on call for kafka", k: 2 } });
    expect(posted.status).toBe(200);
    const view = posted.json;
    // The wire block stays the reference's, exactly as computed over the in-pool candidates.
    const inPool = view.candidates.filter((c: { in_pool: boolean }) => c.in_pool);
    expect(toWireConfidence(view.confidence)).toEqual(
      toWireConfidence(computeConfidence(confidenceInputFromCandidates(inPool, inPool.length))),
    );
    expect(view.confidence.thresholds).toBe("default");
    expect(view.profile_confidence).toMatchObject({ profile: "use-lite", pool_size: SHIPPED_PROFILE.pool_size });
    // The profile's thresholds give the rules' level; the verdict is the model's probability cut.
    expect(view.profile_confidence.rules_level).toBe(profileConfidence(view.candidates, 2, SHIPPED_PROFILE).level);
    const pc = view.profile_confidence;
    expect(pc.probability).toBeGreaterThanOrEqual(0);
    expect(pc.probability).toBeLessThanOrEqual(1);
    expect(predictVerdict(SHIPPED_PROFILE.model!, pc.signals)).toEqual({ probability: pc.probability, level: pc.level });
    const cosines = view.candidates.slice(0, 10).map((c: { raw_cosine: number | null }) => c.raw_cosine ?? -Infinity);
    expect(pc.signals.top_cosine).toBeCloseTo(Math.max(...cosines), 5);
    // The keyword arm's evidence was read: "kafka" and "call" are in the demo corpus.
    expect(pc.signals.idf_coverage).toBeGreaterThan(0);
    expect(pc.calibration).toMatchObject({ method: "shipped", store_relative: false });
    expect(view.k_sensitivity.map((p: { k: number }) => p.k)).toEqual([5, 10, 20]);
    // A model's level does not move with k as the rules' does: the k-strip shows the reference only.
    expect(view.k_sensitivity).toEqual(kSensitivity(view.candidates, null));
    expect((await callRoute(recallsRoute.GET, { params: { id: view.id } })).json).toEqual(view);
    const db = await getDatabase();
    const row = await db.prisma.recall.findUniqueOrThrow({ where: { id: view.id } });
    expect(row).toMatchObject({ profileName: "use-lite", profileLevel: view.profile_confidence.level });
  });

  it("assigning the reference drops the profile block; unknown stores and profiles answer 404", async () => {
    expect(
      (await callRoute(storeProfileRoute.PUT, { method: "PUT", params: { name: "embedded" }, body: { profile: "default" } }))
        .json,
    ).toEqual({ store: "embedded", profile: "default" });
    const view = (await callRoute(recallRoute.POST, { body: { query: "friday deploys", k: 3 } })).json;
    expect(view.profile_confidence).toBeUndefined();
    expect(view.k_sensitivity[0]).not.toHaveProperty("profile_level");
    expect(
      (await callRoute(storeProfileRoute.PUT, { method: "PUT", params: { name: "nope" }, body: { profile: "default" } })).status,
    ).toBe(404);
    expect(
      (await callRoute(storeProfileRoute.PUT, { method: "PUT", params: { name: "embedded" }, body: { profile: "nope" } })).status,
    ).toBe(404);
    await callRoute(storeProfileRoute.PUT, { method: "PUT", params: { name: "embedded" }, body: { profile: "strict" } });
    expect((await callRoute(recallRoute.POST, { body: { query: "what editor", k: 2 } })).json.profile_confidence.profile).toBe(
      "strict",
    );
    // An assignment whose profile has gone (written behind the API's back) judges with the reference.
    const { prisma } = await getDatabase();
    await prisma.storeProfile.update({ where: { store: "embedded" }, data: { profile: "gone" } });
    const fallback = (await callRoute(recallRoute.POST, { body: { query: "what editor", k: 2 } })).json;
    expect(fallback.confidence.thresholds).toBe("default");
    expect(fallback.profile_confidence).toBeUndefined();
    await prisma.storeProfile.update({ where: { store: "embedded" }, data: { profile: "strict" } });
  });
});

describe("fit and what-if over logged recalls", () => {
  it("fits from labeled recalls, saves under a name, and a what-if agrees with recomputing each recall", async () => {
    const db = await getDatabase();
    const queries = [
      "kafka lag pager",
      "who is on call",
      "pgbouncer postgres",
      "neovim editor",
      "friday deploy freeze",
      "price of bananas in Peru",
      "best sushi in Osaka",
      "how tall is Everest",
    ];
    for (const query of queries) {
      const view = (await callRoute(recallRoute.POST, { body: { query, k: 3 } })).json;
      await db.prisma.recall.update({
        where: { id: view.id },
        data: { labelPresent: queries.indexOf(query) < 5 ? "yes" : "no" },
      });
    }
    const tooFew = await callRoute(fitRoute.POST, { body: { recall_filters: { q: "bananas" } } });
    expect(tooFew.status).toBe(422);
    expect(tooFew.json.error).toBe("not_enough_labels");
    const fit = await callRoute(fitRoute.POST, { body: { recall_filters: {}, name: "from-labels" } });
    expect(fit.status).toBe(200);
    expect(fit.json.used).toBe(8);
    expect(fit.json.estimate.folds).toBeGreaterThanOrEqual(2);
    expect(fit.json.saved).toMatchObject({ name: "from-labels", source: { kind: "fit" } });
    expect((await callRoute(profileRoute.GET, { params: { name: "from-labels" } })).json.pool_size).toBe(fit.json.pool_size);
    // The store's verdict model on the same labels: cross-validated figures, loudly marked as too few.
    expect(fit.json.verdict.model).toMatchObject({ method: "labels", trained_on: { present: 5, absent: 3 } });
    expect(fit.json.verdict.model.estimate).toMatchObject({
      balanced_accuracy: expect.any(Number),
      brier: expect.any(Number),
      ece: expect.any(Number),
    });
    expect(fit.json.verdict.warning).toMatch(/fewer than 20 of each/);
    expect(fit.json.saved.model.warning).toMatch(/fewer than 20/);
    // The store never calibrated itself without labels: no prior to lean on, and the fit says so.
    expect(fit.json.verdict.basis).toBe("8 labels");
    expect(fit.json.verdict.prior_note).toMatch(/no kept label-free calibration/);
    // Assigning the fitted profile changes the store's verdict (the headline) to the labeled model's.
    await callRoute(storeProfileRoute.PUT, { method: "PUT", params: { name: "embedded" }, body: { profile: "from-labels" } });
    const judged = (await callRoute(recallRoute.POST, { body: { query: "kafka lag pager", k: 3 } })).json;
    expect(judged.profile_confidence).toMatchObject({ profile: "from-labels", calibration: { method: "labels", examples: 8 } });
    expect(judged.profile_confidence.calibration.warning).toMatch(/fewer than 20/);
    await callRoute(storeProfileRoute.PUT, { method: "PUT", params: { name: "embedded" }, body: { profile: "use-lite" } });
    await db.prisma.recall.delete({ where: { id: judged.id } });

    const { status, events } = await streamWhatIf({ profile: "use-lite", filters: {} });
    expect(status).toBe(200);
    expect(events[0].type).toBe("start");
    const result = events.at(-1);
    expect(result.type).toBe("result");
    const all = await db.prisma.recall.findMany({
      where: { status: "ok" },
      include: { candidates: { orderBy: { rank: "asc" } } },
    });
    expect(result.total).toBe(all.length);
    // The baseline is the store's verdict as each recall logged it (its profile's level, else the
    // reference's); the profile in use judges by its model from the logged signals.
    const poolOf = (r: (typeof all)[number]) =>
      r.candidates.map((c) => ({ raw_cosine: c.rawCosine, hybrid_score: c.hybridScore, keyword_score: c.keywordScore }));
    const baseline = (r: (typeof all)[number]) => r.profileLevel ?? r.level;
    const signalsOf = (r: (typeof all)[number]) =>
      (r.profileConfidence as { signals?: RecallSignals } | null)?.signals ?? recallSignals(poolOf(r), null);
    let flips = 0;
    for (const r of all) if (predictVerdict(SHIPPED_PROFILE.model!, signalsOf(r)).level !== baseline(r)) flips++;
    expect(result.flip_count).toBe(flips);
    expect(result.flips).toHaveLength(flips);
    // What-if of the profile already in use changes no recall it judged.
    const underUseLite = new Set(all.filter((r) => r.profileName === "use-lite").map((r) => r.id));
    expect(underUseLite.size).toBeGreaterThan(0);
    expect(result.flips.filter((f: { recall_id: string }) => underUseLite.has(f.recall_id))).toEqual([]);
    // Each changed recall names its query and label.
    for (const f of result.flips) {
      const r = all.find((x) => x.id === f.recall_id)!;
      expect(f).toMatchObject({ query: r.query, label: r.labelPresent });
    }
    const live = await streamWhatIf({ thresholds: {}, filters: { q: "kafka" } });
    const kafka = all.filter((r) => r.query.toLowerCase().includes("kafka"));
    const liveFlips = kafka.filter((r) => profileConfidence(poolOf(r), r.k, DEFAULT_PROFILE).level !== baseline(r)).length;
    expect(live.events.at(-1)).toMatchObject({ type: "result", flip_count: liveFlips });
    // Edited live over a profile (unsaved): the edits merge over its constants, the pool over its own.
    // Guards at 0 and a prominence band below 0: every pool with a usable background reads worth reading.
    const edits = { abs_low_cosine: 0, abs_moderate_cosine: 0, moderate_prominence: -0.5, low_prominence: -0.7 };
    const editedRules = editProfile(SHIPPED_PROFILE, { thresholds: edits, pool_size: 2 });
    expect(editedRules).toMatchObject({
      pool_size: 2,
      thresholds: { ...edits, high_prominence: SHIPPED_PROFILE.thresholds.high_prominence, name: "custom" },
    });
    const edited = (await streamWhatIf({ profile: "use-lite", thresholds: edits, pool_size: 2, filters: {} })).events.at(-1);
    let editedFlips = 0;
    for (const r of all) if (profileConfidence(poolOf(r), r.k, editedRules).level !== baseline(r)) editedFlips++;
    expect(edited).toMatchObject({ type: "result", total: all.length, flip_count: editedFlips });
    expect(edited.after.low + edited.after.none).toBeLessThan(result.after.low + result.after.none);
    const refused = await streamWhatIf({ profile: "use-lite", thresholds: { high_prominence: -0.5 }, filters: {} });
    expect(refused.status).toBe(422);
    expect(refused.events[0].details.issues.map((i: { path: string[] }) => i.path.join("."))).toContain(
      "thresholds.high_prominence",
    );
    expect((await streamWhatIf({ profile: "nope", thresholds: {}, filters: {} })).status).toBe(404);
    expect((await streamWhatIf({ profile: "use-lite", thresholds: { name: "x" }, filters: {} })).status).toBe(422);
    // The what-if's SQL filters select what History's would.
    const { HistoryFiltersSchema } = await import("@/lib/recall-log/history");
    const { historyWhere } = await import("@/lib/recall-log/server/history-list");
    for (const filters of [
      { q: "kafka" },
      { level: "low,none" },
      { store: "embedded", source: "console" },
      { selector_applied: "false", has_dropped: "false" },
    ]) {
      const parsed = HistoryFiltersSchema.parse(filters);
      const expected = await db.prisma.recall.count({
        where: { AND: [historyWhere(parsed), { status: "ok" }, { level: { not: null } }] },
      });
      expect((await streamWhatIf({ profile: "use-lite", filters })).events.at(-1).total, JSON.stringify(filters)).toBe(expected);
    }
    expect((await streamWhatIf({ filters: {} })).status).toBe(422);
    expect((await streamWhatIf({ profile: "use-lite", filters: { level: "bogus" } })).status).toBe(422);
  });
});

describe("fit from an evaluation run", () => {
  // Present items name a seeded memory; absent ones name none; near-misses are reported apart.
  const ITEMS = [
    { id: "p1", query: "who is on call this week", relevant: ["oncall"], kind: "on_topic" },
    { id: "p2", query: "kafka consumer lag alerts", relevant: ["kafka"], kind: "on_topic" },
    { id: "p3", query: "why pgbouncer in front of postgres", relevant: ["db"], kind: "on_topic" },
    { id: "p4", query: "which editor does Maya use", relevant: ["editor"], kind: "on_topic" },
    { id: "p5", query: "are deploys frozen on friday", relevant: ["deploy"], kind: "on_topic" },
    { id: "p6", query: "where is the thursday team lunch", relevant: ["lunch"], kind: "on_topic" },
    { id: "a1", query: "how many moons does Jupiter have", relevant: [], kind: "off_topic" },
    { id: "a2", query: "recipe for sourdough bread", relevant: [], kind: "off_topic" },
    { id: "a3", query: "the capital of Mongolia", relevant: [], kind: "off_topic" },
    { id: "a4", query: "rules of cricket", relevant: [], kind: "off_topic" },
    { id: "n1", query: "who is on call next month", relevant: [], kind: "near_miss" },
    { id: "n2", query: "kafka producer retries", relevant: [], kind: "near_miss" },
  ];

  let fittedRun = "";

  async function runOf(name: string, items: unknown[]): Promise<string> {
    const set = await callRoute(datasetsRoute.POST, { body: { name, items } });
    expect(set.status, JSON.stringify(set.json)).toBe(201);
    const started = await callRoute(runsRoute.POST, { body: { dataset_id: set.json.id, k: 5 } });
    expect(started.status).toBe(202);
    await evalQueueIdle();
    return started.json.id;
  }

  it("fits from a run's logged recalls labeled by its set, equal to fitting those pools directly, and saves it with its source", async () => {
    const runId = await runOf("fit-from-run", ITEMS);
    fittedRun = runId;
    const fit = await callRoute(fitRoute.POST, { body: { run_id: runId, name: "from-run", description: "fitted in a test" } });
    expect(fit.status, JSON.stringify(fit.json)).toBe(200);
    expect(fit.json).toMatchObject({ examples: ITEMS.length, used: ITEMS.length - 2, skipped: 0 });
    expect(fit.json.by_kind).toMatchObject({
      on_topic: { count: 6, present: 6, absent: 0 },
      off_topic: { count: 4, present: 0, absent: 4 },
      near_miss: { count: 2, present: 0, absent: 2 },
    });
    const cells = Object.values(fit.json.confusion as Record<string, { present: number; absent: number }>);
    expect(cells.reduce((n, c) => n + c.present + c.absent, 0)).toBe(ITEMS.length - 2);
    expect(fit.json.estimate.folds).toBeGreaterThanOrEqual(2);
    expect(fit.json.estimate.balanced_accuracy).toBeLessThanOrEqual(fit.json.estimate.train_balanced_accuracy + 1e-12);

    // The same fit from the logged pools read here, each labeled by its set item (by position).
    const db = await getDatabase();
    const recalls = await db.prisma.recall.findMany({
      where: { evalRunId: runId },
      orderBy: { evalItem: "asc" },
      include: { candidates: { orderBy: { rank: "asc" } } },
    });
    expect(recalls).toHaveLength(ITEMS.length);
    const examples = recalls.map((r) => {
      const item = ITEMS[r.evalItem!]!;
      expect(r.query).toBe(item.query);
      return {
        group: item.id,
        present: item.relevant.length > 0,
        kind: item.kind,
        k: r.k,
        candidates: r.candidates.map((c) => ({
          raw_cosine: c.rawCosine,
          hybrid_score: c.hybridScore,
          keyword_score: c.keywordScore,
        })),
      };
    });
    const direct = fitProfile(examples, { name: "from-run" });
    expect(fit.json).toMatchObject({
      shape: direct.shape,
      pool_size: direct.pool_size,
      thresholds: direct.thresholds,
      estimate: direct.estimate,
      confusion: direct.confusion,
      reference: direct.reference,
    });

    // Saved under its name, with where it came from.
    expect(fit.json.saved).toMatchObject({ name: "from-run", builtin: false });
    const { json: saved } = await callRoute(profileRoute.GET, { params: { name: "from-run" } });
    expect(saved).toMatchObject({
      name: "from-run",
      description: "fitted in a test",
      pool_size: direct.pool_size,
      thresholds: direct.thresholds,
      source: {
        kind: "fit",
        run_id: runId,
        fitted_at: expect.any(String),
        estimate: {
          balanced_accuracy: direct.estimate.balanced_accuracy,
          train_balanced_accuracy: direct.estimate.train_balanced_accuracy,
          folds: direct.estimate.folds,
        },
      },
    });
    // Without a name nothing is saved.
    const unsaved = await callRoute(fitRoute.POST, { body: { run_id: runId } });
    expect(unsaved.status).toBe(200);
    expect(unsaved.json.saved).toBeNull();
    expect(unsaved.json.thresholds).toEqual({ ...direct.thresholds, name: "fitted" });
  });

  it("refuses a run whose set has one class, an unknown run, a bad id, and a built-in name", async () => {
    const onlyPresent = await runOf(
      "fit-one-class",
      ITEMS.filter((i) => i.relevant.length > 0),
    );
    const one = await callRoute(fitRoute.POST, { body: { run_id: onlyPresent } });
    expect(one.status).toBe(422);
    expect(one.json).toMatchObject({ error: "not_enough_labels", details: { examples: 6, skipped: 0 } });
    const unknown = await callRoute(fitRoute.POST, { body: { run_id: "00000000-0000-4000-8000-000000000000" } });
    expect(unknown.status).toBe(404);
    expect((await callRoute(fitRoute.POST, { body: { run_id: "run-1" } })).status).toBe(422);
    const builtin = await callRoute(fitRoute.POST, { body: { run_id: fittedRun, name: "use-lite" } });
    expect(builtin.status).toBe(409);
    expect((await callRoute(profileRoute.GET, { params: { name: "use-lite" } })).json.builtin).toBe(true);
  });
});
