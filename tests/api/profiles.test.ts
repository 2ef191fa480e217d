import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { NextRequest } from "next/server";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { computeConfidence, toWireConfidence } from "@/lib/recall/confidence";
import { confidenceInputFromCandidates, kSensitivity, profileConfidence } from "@/lib/calibration/level";
import { callRoute } from "../support/call-route";

/**
 * Profiles, store assignment, profile_confidence and k_sensitivity on recalls, fitting from
 * labeled recalls, and what-if, through the real handlers on a throw-away PGlite database.
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
const { getDatabase } = await import("@/lib/db");
const { getEmbedder } = await import("@/lib/embeddings");
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
    expect(view.profile_confidence.level).toBe(profileConfidence(view.candidates, 2, SHIPPED_PROFILE).level);
    expect(view.k_sensitivity.map((p: { k: number }) => p.k)).toEqual([5, 10, 20]);
    expect(view.k_sensitivity).toEqual(kSensitivity(view.candidates, SHIPPED_PROFILE));
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
    let flips = 0;
    for (const r of all) {
      const cands = r.candidates.map((c) => ({
        raw_cosine: c.rawCosine,
        hybrid_score: c.hybridScore,
        keyword_score: c.keywordScore,
      }));
      if (profileConfidence(cands, r.k, SHIPPED_PROFILE).level !== r.level) flips++;
    }
    expect(result.flip_count).toBe(flips);
    expect(result.flips).toHaveLength(flips);
    const live = await streamWhatIf({ thresholds: {}, filters: { q: "kafka" } });
    expect(live.events.at(-1)).toMatchObject({ type: "result", flip_count: 0 });
    // The what-if's SQL filters select what History's would.
    const { historyWhere, HistoryFiltersSchema } = await import("@/lib/recall-log/history");
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
