import { PrismaClient } from "@prisma/client";
import { randomUUID } from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { OpenDatabase } from "@/lib/db/server/connection";
import { insightsQuerySchema, type InsightsQuery, type InsightsResponse } from "@/lib/insights/schema";
import { getInsights, UnknownTimeZoneError } from "@/lib/insights/server/sql";
import { HistoryQuerySchema } from "@/lib/recall-log/history";
import { listRecalls } from "@/lib/recall-log/server/history-list";
import { insertRecall, insertRecalls, recallRow } from "@/lib/recall-log/server/repository";
import { applyRetention } from "@/lib/recall-log/server/retention";
import { FIXTURE, fixtureRow, NY_FROM, NY_TO, summaryOf } from "./fixture";
import { callRoute } from "../support/call-route";
import { DATABASE_KINDS, migratedDatabase, type MigratedDatabase } from "../support/databases";

/**
 * Insights against real databases (PGlite and PostgreSQL), checked against counts made by hand
 * from tests/insights/fixture.ts (each recall's contribution is noted there), and the rollups
 * checked against the recalls they summarize after inserts, deletes and updates.
 */

const query = (q: Partial<InsightsQuery> = {}): InsightsQuery => ({
  from: NY_FROM,
  to: NY_TO,
  bucket: "day",
  tz: "America/New_York",
  ...q,
});

/** The counters of a stats object (rates left out), for compact comparisons. */
function counts(s: InsightsResponse["totals"]) {
  const {
    recalls,
    failed,
    ok,
    applied,
    not_applied,
    counted,
    kept,
    dropped,
    listed_dropped,
    lost_any,
    high,
    moderate,
    low,
    none,
    unknown_level,
    high_top_dropped,
    weak_kept_all,
  } = s;
  return {
    recalls,
    failed,
    ok,
    applied,
    not_applied,
    counted,
    kept,
    dropped,
    listed_dropped,
    lost_any,
    high,
    moderate,
    low,
    none,
    unknown_level,
    high_top_dropped,
    weak_kept_all,
  };
}

describe.each(DATABASE_KINDS)("insights on %s", (kind) => {
  let database: MigratedDatabase | undefined;
  let db: OpenDatabase;
  let prisma: PrismaClient;
  const ids = new Map<string, string>();

  beforeAll(async () => {
    database = await migratedDatabase(kind);
    ({ db, prisma } = database);
    // Some in one batch (one trigger run upserting shared keys), the rest one by one.
    const rows = FIXTURE.map((spec) => {
      const row = fixtureRow(spec);
      ids.set(spec.name, row.id);
      return row;
    });
    await insertRecalls(prisma, rows.slice(0, 7));
    for (const row of rows.slice(7)) await insertRecall(prisma, row);
  });

  afterAll(async () => {
    await database?.close();
  });

  it("adds up the range by hand: failed recalls in volume only, drop rate from the counts", async () => {
    const answer = await getInsights(prisma, query());
    expect(counts(answer.totals)).toEqual({
      recalls: 11,
      failed: 1,
      ok: 10,
      applied: 7,
      not_applied: 3,
      counted: 6,
      kept: 15,
      dropped: 29,
      listed_dropped: 26,
      lost_any: 5,
      high: 3,
      moderate: 2,
      low: 2,
      none: 2,
      unknown_level: 1,
      high_top_dropped: 1,
      weak_kept_all: 1,
    });
    expect(answer.totals.applied_rate).toBeCloseTo(7 / 10, 12);
    expect(answer.totals.drop_rate).toBeCloseTo(29 / 44, 12);
    expect(answer.totals.lost_any_rate).toBeCloseTo(5 / 7, 12);
    expect(answer.totals.weak_hit_rate).toBeCloseTo(4 / 9, 12);
    expect(answer.totals.level_mix).toEqual({ high: 3 / 9, moderate: 2 / 9, low: 2 / 9, none: 2 / 9 });
    expect(answer.most_dropped.unlisted_drops).toBe(3); // R6: 22 − 20 listed, R7: 3 − 2
    expect(answer).toMatchObject({
      from: NY_FROM.toISOString(),
      to: NY_TO.toISOString(),
      bucket: "day",
      tz: "America/New_York",
      filters: { store: null, selector_model: null },
    });
  });

  it("cuts days at New York midnight: 22:30 local on the 9th is the 9th, not the 10th (UTC)", async () => {
    const ny = await getInsights(prisma, query());
    expect(ny.series.map((p) => [p.local_start, p.start, p.end, p.partial, p.recalls])).toEqual([
      ["2025-01-09T00:00", "2025-01-09T05:00:00.000Z", "2025-01-10T05:00:00.000Z", false, 5],
      ["2025-01-10T00:00", "2025-01-10T05:00:00.000Z", "2025-01-11T05:00:00.000Z", false, 2],
      ["2025-01-11T00:00", "2025-01-11T05:00:00.000Z", "2025-01-12T05:00:00.000Z", false, 4],
    ]);
    const [d9, d10, d11] = ny.series;
    expect(counts(d9!)).toEqual({
      recalls: 5,
      failed: 1,
      ok: 4,
      applied: 3,
      not_applied: 1,
      counted: 3,
      kept: 8,
      dropped: 2,
      listed_dropped: 2,
      lost_any: 2,
      high: 2,
      moderate: 0,
      low: 1,
      none: 1,
      unknown_level: 0,
      high_top_dropped: 1,
      weak_kept_all: 1,
    });
    expect(d9!.drop_rate).toBeCloseTo(2 / 10, 12);
    expect(d9!.weak_hit_rate).toBeCloseTo(2 / 4, 12);
    expect(counts(d10!)).toMatchObject({
      recalls: 2,
      applied: 2,
      kept: 5,
      dropped: 25,
      listed_dropped: 22,
      lost_any: 2,
      high: 1,
      moderate: 1,
    });
    expect(d10!.drop_rate).toBeCloseTo(25 / 30, 12);
    expect(counts(d11!)).toMatchObject({
      recalls: 4,
      failed: 0,
      applied: 2,
      counted: 1,
      kept: 2,
      dropped: 2,
      lost_any: 1,
      none: 1,
      low: 1,
      moderate: 1,
      unknown_level: 1,
    });
    expect(d11!.drop_rate).toBeCloseTo(2 / 4, 12);
    expect(d11!.weak_hit_rate).toBeCloseTo(2 / 3, 12);

    // The same instants in UTC days: R4 and R5 move to the 10th; both ends are partial days.
    const utc = await getInsights(prisma, query({ tz: "UTC" }));
    expect(utc.series.map((p) => [p.local_start, p.partial, p.recalls])).toEqual([
      ["2025-01-09T00:00", true, 3],
      ["2025-01-10T00:00", false, 4],
      ["2025-01-11T00:00", false, 4],
      ["2025-01-12T00:00", true, 0],
    ]);
    // An empty bucket is a gap: counts 0, rates null.
    expect(utc.series[3]).toMatchObject({
      recalls: 0,
      applied_rate: null,
      drop_rate: null,
      lost_any_rate: null,
      weak_hit_rate: null,
      level_mix: null,
    });
  });

  it("breaks the range down per store, per selector model and per reason the selector did not run", async () => {
    const answer = await getInsights(prisma, query());
    expect(
      answer.by_store.map((s) => [s.store, s.recalls, s.failed, s.applied, s.counted, s.kept, s.dropped, s.lost_any]),
    ).toEqual([
      ["alpha", 6, 1, 3, 3, 8, 24, 3],
      ["beta", 5, 0, 4, 3, 7, 5, 2],
    ]);
    expect(
      answer.by_model.map((m) => [
        m.selector_model,
        m.applied,
        m.counted,
        m.kept,
        m.dropped,
        m.lost_any,
        m.high,
        m.moderate,
        m.low,
      ]),
    ).toEqual([
      ["gpt-x", 5, 4, 10, 26, 4, 2, 2, 1],
      ["score-gap", 2, 2, 5, 3, 1, 1, 0, 1],
    ]);
    expect(answer.by_model[0]!.drop_rate).toBeCloseTo(26 / 36, 12);
    expect(answer.not_applied_reasons).toEqual([
      { reason: "disabled", kind: "off", recalls: 1, share: 1 / 3 },
      { reason: "no_clear_gap", kind: "unknown", recalls: 1, share: 1 / 3 },
      { reason: null, kind: "unknown", recalls: 1, share: 1 / 3 },
    ]);
  });

  it("ranks the most-dropped memories with times kept and the summaries seen on pages", async () => {
    const answer = await getInsights(prisma, query(), { listSize: 30 });
    const items = answer.most_dropped.items;
    expect(items).toHaveLength(25);
    expect(items[0]).toEqual({
      store: "beta",
      memory_id: "b3",
      summary: summaryOf("b3"),
      dropped: 2,
      kept: 1,
      drop_share: 2 / 3,
    });
    expect(items[1]).toEqual({ store: "alpha", memory_id: "a1", summary: summaryOf("a1"), dropped: 1, kept: 1, drop_share: 0.5 });
    expect(items[2]).toEqual({ store: "alpha", memory_id: "a4", summary: summaryOf("a4"), dropped: 1, kept: 0, drop_share: 1 });
    // c04…c23 are listed; c24 and c25 were dropped beyond the cap of 20 and are not counted.
    expect(items.slice(3, 23).map((i) => i.memory_id)).toEqual(
      Array.from({ length: 20 }, (_, i) => `c${String(i + 4).padStart(2, "0")}`),
    );
    expect(items.some((i) => i.memory_id === "c24" || i.memory_id === "c25")).toBe(false);
    expect(items[23]).toMatchObject({ store: "beta", memory_id: "b4", dropped: 1, kept: 0 });
    // b9 was only ever listed as dropped, never on a page: no summary known.
    expect(items[24]).toEqual({ store: "beta", memory_id: "b9", summary: null, dropped: 1, kept: 0, drop_share: 1 });

    const top = await getInsights(prisma, query());
    expect(top.most_dropped.items).toHaveLength(20);
    expect(top.most_dropped.items[0]!.memory_id).toBe("b3");
  });

  it("lists the disagreements, newest first, with the top hit", async () => {
    const answer = await getInsights(prisma, query());
    expect(answer.disagreements.top_dropped.total).toBe(1);
    expect(answer.disagreements.top_dropped.items).toEqual([
      {
        id: ids.get("R2"),
        created_at: "2025-01-09T12:10:00.000Z",
        store: "alpha",
        query: "question R2",
        level: "high",
        top_score: 0.7,
        selector_model: "gpt-x",
        kept: 2,
        dropped: 1,
        top_memory_id: "a1",
        top_summary: summaryOf("a1"),
      },
    ]);
    expect(answer.disagreements.weak_kept_all).toMatchObject({
      total: 1,
      items: [{ id: ids.get("R3"), level: "low", dropped: 0, kept: 3, top_memory_id: "b1" }],
    });
    // R10 (high, top dropped) lies after the range.
    const wider = await getInsights(prisma, query({ to: new Date("2025-01-13T05:00:00Z") }));
    expect(wider.disagreements.top_dropped.items.map((i) => i.id)).toEqual([ids.get("R10"), ids.get("R2")]);
    expect(wider.disagreements.weak_kept_all.items.map((i) => i.id)).toEqual([ids.get("R3")]);
  });

  it("filters by store and by selector model (a model filter keeps only recalls the selector ran on)", async () => {
    const beta = await getInsights(prisma, query({ store: "beta" }));
    expect(counts(beta.totals)).toMatchObject({
      recalls: 5,
      failed: 0,
      applied: 4,
      counted: 3,
      kept: 7,
      dropped: 5,
      high: 1,
      moderate: 1,
      low: 2,
      none: 1,
    });
    expect(beta.by_store.map((s) => s.store)).toEqual(["beta"]);
    expect(beta.most_dropped.items.every((i) => i.store === "beta")).toBe(true);
    expect(beta.disagreements.top_dropped).toEqual({ total: 0, items: [] });
    expect(beta.filters).toEqual({
      store: "beta",
      selector_model: null,
      verdict: null,
      level: null,
      profile_level: null,
      profile: null,
      sources: null,
    });

    const gpt = await getInsights(prisma, query({ selector_model: "gpt-x" }), { listSize: 30 });
    expect(counts(gpt.totals)).toMatchObject({
      recalls: 5,
      failed: 0,
      applied: 5,
      not_applied: 0,
      counted: 4,
      kept: 10,
      dropped: 26,
    });
    expect(gpt.totals.applied_rate).toBe(1);
    expect(gpt.not_applied_reasons).toEqual([]);
    // b3 dropped by gpt-x once (R9), kept by score-gap (R3): neither R7 nor R3 counts here.
    expect(gpt.most_dropped.items.find((i) => i.memory_id === "b3")).toMatchObject({ dropped: 1, kept: 0 });
    expect(gpt.disagreements.weak_kept_all.total).toBe(0);

    const none = await getInsights(prisma, query({ store: "nowhere" }));
    expect(none.totals.recalls).toBe(0);
    expect(none.series).toHaveLength(3);
    expect(none.series.every((p) => p.recalls === 0 && p.drop_rate === null)).toBe(true);
    expect(none.by_store).toEqual([]);
    expect(none.most_dropped).toEqual({ items: [], unlisted_drops: 0 });
  });

  it("answers the same from the rollups as from the recalls, for any edges, zone and bucket", async () => {
    const cases: Partial<InsightsQuery>[] = [
      {},
      { from: new Date("2025-01-09T06:05:00Z"), to: new Date("2025-01-11T20:00:00.001Z") }, // cuts R1 out, keeps R9
      { from: new Date("2025-01-09T12:10:00Z"), to: new Date("2025-01-09T12:10:00.001Z") }, // R2 alone
      { from: new Date("2025-01-08T00:00:00Z"), to: new Date("2025-01-14T00:00:00Z"), tz: "Asia/Kolkata", bucket: "hour" }, // +05:30
      { from: new Date("2025-01-01T00:00:00Z"), to: new Date("2025-02-01T00:00:00Z"), tz: "Asia/Kathmandu", bucket: "week" }, // +05:45
      { from: new Date("2025-01-09T05:07:00Z"), to: new Date("2025-01-12T04:59:00Z"), store: "alpha" },
      {
        from: new Date("2025-01-09T05:07:00Z"),
        to: new Date("2025-01-12T04:59:00Z"),
        selector_model: "score-gap",
        tz: "UTC",
        bucket: "hour",
      },
    ];
    for (const c of cases) {
      const q = query(c);
      const fromRollups = await getInsights(prisma, q, { listSize: 30 });
      const fromRecalls = await getInsights(prisma, q, { listSize: 30, rollups: false });
      expect(fromRollups, JSON.stringify(c)).toEqual(fromRecalls);
    }
    const sliver = await getInsights(prisma, query(cases[2]));
    expect(counts(sliver.totals)).toMatchObject({ recalls: 1, high: 1, high_top_dropped: 1, dropped: 1 });
    const cut = await getInsights(prisma, query(cases[1]));
    expect(cut.totals.recalls).toBe(10);
    const kolkata = await getInsights(prisma, query(cases[3]));
    expect(kolkata.series).toHaveLength(6 * 24 + 1); // 05:30 offset: the range starts and ends mid-hour locally
    expect(kolkata.series[0]).toMatchObject({
      local_start: "2025-01-08T05:00",
      start: "2025-01-07T23:30:00.000Z",
      partial: true,
    });
    expect(kolkata.totals.recalls).toBe(FIXTURE.length);
  });

  it("drills down: the history filtered by dropped_memory and selector_model lists the recalls behind a row", async () => {
    const page = await listRecalls(
      prisma,
      HistoryQuerySchema.parse({ store: "beta", dropped_memory: "b3", from: NY_FROM.toISOString(), to: NY_TO.toISOString() }),
    );
    expect(page.items.map((i) => i.id).sort()).toEqual([ids.get("R7"), ids.get("R9")].sort());
    const gpt = await listRecalls(
      prisma,
      HistoryQuerySchema.parse({ selector_model: "gpt-x", from: NY_FROM.toISOString(), to: NY_TO.toISOString() }),
    );
    expect(gpt.items).toHaveLength(5);
  });

  it("uses the embedded store's own memories for a summary no page showed", async () => {
    await prisma.embeddedStoreRecord.createMany({ data: [{ name: "embedded" }], skipDuplicates: true });
    await prisma.memory.create({ data: { store: "embedded", id: "e-only-listed", summary: "From the memories table" } });
    const row = recallRow({
      id: randomUUID(),
      createdAt: new Date("2025-03-01T12:00:00Z"),
      request: { store: "embedded", query: "embedded question", k: 1, search_mode: "hybrid", use_rerank: false, selector: "llm" },
      latencyMs: 1,
      outcome: {
        results: [],
        confidence: null,
        selector: { applied: true, model: "m", kept: 0, dropped: 1, dropped_memory_ids: ["e-only-listed"] },
        candidates: null,
        timings: {},
      },
    });
    await insertRecall(prisma, row);
    const answer = await getInsights(
      prisma,
      query({ from: new Date("2025-03-01T00:00:00Z"), to: new Date("2025-03-02T00:00:00Z") }),
    );
    expect(answer.most_dropped.items).toEqual([
      { store: "embedded", memory_id: "e-only-listed", summary: "From the memories table", dropped: 1, kept: 0, drop_share: 1 },
    ]);
  });

  it("cuts a DST day at 23 hours and leaves out the local hour that does not exist", async () => {
    const day = await getInsights(
      prisma,
      query({ from: new Date("2025-03-09T05:00:00Z"), to: new Date("2025-03-10T04:00:00Z") }),
    );
    expect(day.series.map((p) => [p.local_start, p.start, p.end])).toEqual([
      ["2025-03-09T00:00", "2025-03-09T05:00:00.000Z", "2025-03-10T04:00:00.000Z"],
    ]);
    const hours = await getInsights(
      prisma,
      query({ from: new Date("2025-03-09T05:00:00Z"), to: new Date("2025-03-09T09:00:00Z"), bucket: "hour" }),
    );
    expect(hours.series.map((p) => p.local_start)).toEqual([
      "2025-03-09T00:00",
      "2025-03-09T01:00",
      "2025-03-09T03:00",
      "2025-03-09T04:00",
    ]);
  });

  it("refuses a zone the database does not know as such", async () => {
    await expect(getInsights(prisma, query({ tz: "Mars/Olympus_Mons" }))).rejects.toBeInstanceOf(UnknownTimeZoneError);
  });

  it("keeps the rollups true through deletes (retention), updates and truncation", async () => {
    const everything = query({
      from: new Date("2024-01-01T00:00:00Z"),
      to: new Date("2026-01-01T00:00:00Z"),
      bucket: "week",
      tz: "UTC",
    });
    const check = async () => {
      const a = await getInsights(prisma, everything, { listSize: 100 });
      const b = await getInsights(prisma, everything, { listSize: 100, rollups: false });
      expect(a).toEqual(b);
      return a;
    };
    const before = await check();
    expect(before.totals.recalls).toBe(FIXTURE.length + 1);

    // One statement updating several recalls: R1 becomes none and loses its selector counts.
    await db.withSession((s) =>
      s.query(
        `UPDATE recalls SET level = 'none', selector_dropped = 0, selector_kept = 4, dropped_memory_ids = '{}' WHERE id = ANY($1::uuid[])`,
        [[ids.get("R1"), ids.get("R6")]],
      ),
    );
    const updated = await check();
    expect(updated.totals.weak_kept_all).toBe(before.totals.weak_kept_all + 2);

    // Retention deletes everything before 2025-01-11 (R1…R7 and R11).
    const { deleted } = await applyRetention(prisma, { keepDays: 30, now: new Date("2025-02-10T00:00:00Z") });
    expect(deleted).toBe(8);
    const after = await check();
    expect(after.totals.recalls).toBe(FIXTURE.length + 1 - 8);
    // Emptied rollup rows are gone, not left at zero.
    const zeros = await db.withSession((s) =>
      s.query<{ n: number }>(`SELECT count(*)::int AS n FROM recall_rollup WHERE recalls = 0`),
    );
    expect(zeros[0]!.n).toBe(0);
    const memZeros = await db.withSession((s) =>
      s.query<{ n: number }>(`SELECT count(*)::int AS n FROM recall_memory_rollup WHERE dropped = 0 AND kept = 0`),
    );
    expect(memZeros[0]!.n).toBe(0);

    await db.withSession((s) => s.exec(`TRUNCATE recalls CASCADE`));
    const empty = await check();
    expect(empty.totals.recalls).toBe(0);
    const rollupRows = await db.withSession((s) =>
      s.query<{ n: number }>(`SELECT (SELECT count(*) FROM recall_rollup) + (SELECT count(*) FROM recall_memory_rollup) AS n`),
    );
    expect(Number(rollupRows[0]!.n)).toBe(0);
  });

  it("rolls up a recall logged alone (the cached single-row path) exactly as a batch does", async () => {
    const rollupTables = () =>
      db.withSession(async (s) => ({
        rollup: await s.query(
          `SELECT * FROM recall_rollup ORDER BY bucket, store, selector_applied, selector_model, selector_reason,
             selector_prompt_version, level, profile_name, profile_level`,
        ),
        memories: await s.query(
          `SELECT * FROM recall_memory_rollup ORDER BY store, memory_id, selector_model, bucket, level, profile_name, profile_level`,
        ),
        // seen_at moves only when a summary changes, so it follows the order of the statements.
        summaries: await s.query(`SELECT store, memory_id, summary FROM recall_memory_summaries ORDER BY store, memory_id`),
      }));
    const clear = () => db.withSession((s) => s.exec(`TRUNCATE recalls CASCADE; TRUNCATE recall_memory_summaries`));

    await clear();
    for (const spec of FIXTURE) await insertRecall(prisma, fixtureRow(spec));
    const alone = await rollupTables();
    await clear();
    await insertRecalls(
      prisma,
      FIXTURE.map((spec) => fixtureRow(spec)),
    );
    const batched = await rollupTables();

    expect(alone.rollup.length).toBeGreaterThan(3);
    expect(alone.memories.length).toBeGreaterThan(3);
    expect(alone.summaries.length).toBeGreaterThan(3);
    expect(alone).toEqual(batched);
  });
});

describe("GET /api/insights", () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "recall-inspector-insights-"));
  let route: typeof import("@/app/api/insights/route");
  let getDatabase: typeof import("@/lib/db/server").getDatabase;

  beforeAll(async () => {
    process.env.PGLITE_DATA_DIR = path.join(dir, "data");
    process.env.DEMO_CORPUS = "off";
    delete process.env.DATABASE_URL;
    route = await import("@/app/api/insights/route");
    ({ getDatabase } = await import("@/lib/db/server"));
    const { prisma } = await getDatabase();
    await insertRecalls(
      prisma,
      FIXTURE.map((spec) => fixtureRow(spec)),
    );
  });

  afterAll(async () => {
    const db = await getDatabase();
    await db.prisma.$disconnect();
    await db.raw.close();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  const url = (params: Record<string, string>) => `/api/insights?${new URLSearchParams(params).toString()}`;

  it("answers one JSON with series, tables and totals", async () => {
    const res = await callRoute(route.GET, {
      url: url({ from: NY_FROM.toISOString(), to: NY_TO.toISOString(), bucket: "day", tz: "America/New_York" }),
    });
    expect(res.status).toBe(200);
    expect(Object.keys(res.json).sort()).toEqual(
      [
        "bucket",
        "by_model",
        "by_store",
        "disagreements",
        "filters",
        "from",
        "judges",
        "labels",
        "limits",
        "markers",
        "most_dropped",
        "not_applied_reasons",
        "series",
        "to",
        "totals",
        "tz",
      ].sort(),
    );
    expect(res.json.totals).toMatchObject({ recalls: 11, failed: 1, applied: 7, kept: 15, dropped: 29 });
    expect(res.json.series).toHaveLength(3);
    expect(res.json.limits).toEqual({ max_buckets: 2000, list_size: 20 });
  });

  it("defaults to the last 30 days in day buckets, UTC", async () => {
    const res = await callRoute(route.GET, { url: "/api/insights" });
    expect(res.status).toBe(200);
    expect(res.json).toMatchObject({ bucket: "day", tz: "UTC" });
    expect(Date.parse(res.json.to) - Date.parse(res.json.from)).toBe(30 * 86_400_000);
    expect(res.json.series.length).toBeGreaterThanOrEqual(30);
  });

  it("answers bad input with the 422 envelope", async () => {
    const cases: [Record<string, string>, string][] = [
      [{ tz: "Not/AZone" }, "tz"],
      [{ tz: "+02:00" }, "tz"],
      [{ tz: "UTC+2" }, "tz"],
      [{ bucket: "minute" }, "bucket"],
      [{ from: "2025-02-01T00:00:00Z", to: "2025-01-01T00:00:00Z" }, "from"],
      [{ from: "yesterday" }, "from"],
      [{ from: "2024-01-01T00:00:00Z", to: "2025-01-01T00:00:00Z", bucket: "hour" }, "bucket"],
    ];
    for (const [params, at] of cases) {
      const res = await callRoute(route.GET, { url: url(params) });
      expect(res.status, JSON.stringify(params)).toBe(422);
      expect(res.json.error).toBe("validation_failed");
      expect(res.json.details.issues[0].path).toEqual([at]);
    }
    const many = await callRoute(route.GET, {
      url: url({ from: "2024-01-01T00:00:00Z", to: "2025-01-01T00:00:00Z", bucket: "hour" }),
    });
    expect(many.json.message).toMatch(/8,785 hour buckets; the limit is 2,000/);
  });

  it("takes a default `now` from the schema factory", () => {
    const now = new Date("2025-06-01T12:00:00Z");
    expect(insightsQuerySchema(() => now).parse({})).toEqual({
      from: new Date("2025-05-02T12:00:00Z"),
      to: now,
      bucket: "day",
      tz: "UTC",
      store: undefined,
      selector_model: undefined,
      sources: ["console", "ingest", "proxy", "otel"],
    });
  });
});
