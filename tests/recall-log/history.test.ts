import { Prisma, PrismaClient } from "@prisma/client";
import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { logExtent } from "@/lib/insights/server/extent";
import type { Level } from "@/lib/recall/confidence";
import {
  decodeHistoryCursor,
  encodeHistoryCursor,
  HistoryQuerySchema,
  type HistoryFilters,
  type HistoryItem,
} from "@/lib/recall-log/history";
import { countRecalls } from "@/lib/recall-log/server/history-count";
import { listRecalls } from "@/lib/recall-log/server/history-list";
import { historyWhereSql } from "@/lib/recall-log/server/history-sql";
import { insertRecall, recallRow } from "@/lib/recall-log/server/repository";
import type { LoggedConfidence, LoggedRequest } from "@/lib/recall-log/types";
import { appUnderTest, callRoute, type AppUnderTest } from "../support/app-under-test";
import { DATABASE_KINDS, migratedDatabase, type MigratedDatabase } from "../support/databases";

/**
 * The history list against real databases (PGlite and PostgreSQL): every filter, the order, and
 * keyset paging through ties on created_at. The expected answer of each query is computed here
 * in plain TypeScript from the fixture specs.
 */

interface Spec {
  id: string;
  createdAt: Date;
  store: string;
  query: string;
  source: "console" | "ingest";
  /** null: the recall failed. */
  level: Level | null;
  /** null: selector not applied; a number: applied, with this many dropped. */
  dropped: number | null;
  pool: boolean;
}

/** The level under a non-reference profile for some recalls (every third ok one), else null. */
function profileLevelOf(spec: Spec, index: number): Level | null {
  if (spec.level === null || index % 3 !== 1) return null;
  return LEVEL_CYCLE[(index + 1) % 4]!;
}

const T0 = Date.parse("2025-01-01T00:00:00.000Z");
const LEVEL_CYCLE: Level[] = ["high", "moderate", "low", "none"];
const TOPICS = ["Kafka lag on the dispatch consumer", "VAT on Belgian invoices", "why did the DEPLOY fail", "kafka retention"];

function buildSpecs(): Spec[] {
  const specs: Spec[] = [];
  // 36 recalls in groups of three sharing one timestamp (to the millisecond).
  for (let i = 0; i < 36; i++) {
    const failed = i % 7 === 6;
    specs.push({
      id: randomUUID(),
      createdAt: new Date(T0 + Math.floor(i / 3) * 60_000 + 123),
      store: i % 3 === 0 ? "remote-prod" : "embedded",
      query: `${TOPICS[i % TOPICS.length]} #${i}`,
      source: i % 5 === 0 ? "ingest" : "console",
      level: failed ? null : LEVEL_CYCLE[i % 4]!,
      // A failed recall has no selector block.
      dropped: !failed && i % 4 === 1 ? (i % 8 === 1 ? 2 : 0) : null,
      pool: i % 5 !== 0,
    });
  }
  // Eight more at one single instant, in the middle of the range.
  const tie = new Date(T0 + 5 * 60_000 + 500);
  for (let j = 0; j < 8; j++) {
    specs.push({
      id: randomUUID(),
      createdAt: tie,
      store: j % 2 ? "embedded" : "remote-prod",
      query:
        j === 0
          ? "progress 100% done"
          : j === 1
            ? "progress 1000 done"
            : j === 2
              ? "snake_case keys"
              : j === 3
                ? "logs under C:\\temp\\x"
                : `tied recall ${j}`,
      source: "console",
      level: LEVEL_CYCLE[j % 4]!,
      dropped: j % 2 ? 1 : null,
      pool: true,
    });
  }
  return specs;
}

const TRACE_A = "0af7651916cd43dd8448eb211c80319c";
const TRACE_B = "4bf92f3577b34da6a3ce929d0e0e4736";

/** Ingested recalls carry a trace: two traces, alternating by position. */
function traceOf(spec: Spec): string | null {
  if (spec.source !== "ingest") return null;
  return (SPEC_INDEX.get(spec.id) ?? 0) % 2 === 0 ? TRACE_A : TRACE_B;
}

function toRow(spec: Spec) {
  const request: LoggedRequest = {
    store: spec.store,
    query: spec.query,
    k: 5,
    search_mode: "hybrid",
    use_rerank: false,
    selector: spec.dropped === null ? "off" : "llm",
  };
  const base = {
    id: spec.id,
    createdAt: spec.createdAt,
    source: spec.source,
    trace: traceOf(spec) ? { traceId: traceOf(spec)!, spanId: spec.id.replaceAll("-", "").slice(0, 16) } : null,
    request,
    latencyMs: 12.5,
  };
  if (spec.level === null) {
    return recallRow({ ...base, error: { code: "store_unavailable", message: "The store is down.", status: 502 } });
  }
  const results = Array.from({ length: 5 }, (_, r) => ({ memory_id: `m-${r}`, summary: `memory ${r}`, score: 0.9 - r / 10 }));
  const confidence = {
    level: spec.level,
    top_score: 0.812345,
    prominence: 0.4567,
    relative_margin: 2.5,
    result_count: 5,
    rationale: "test",
    background_mean: 0.55,
    background_std: 0.05,
    basis: "semantic",
    thresholds: "default",
    trace: [],
  } as unknown as LoggedConfidence;
  const selector =
    spec.dropped === null
      ? { applied: false as const, reason: "disabled" }
      : {
          applied: true as const,
          model: "selector-model",
          kept: 5 - spec.dropped,
          dropped: spec.dropped,
          dropped_memory_ids: results.slice(0, spec.dropped).map((r) => r.memory_id),
        };
  const candidates = spec.pool
    ? results.map((r, rank) => ({
        memory_id: r.memory_id,
        summary: r.summary,
        rank: rank + 1,
        raw_cosine: r.score,
        keyword_score: null,
        hybrid_score: r.score,
        in_pool: true,
        returned: true,
      }))
    : null;
  const index = SPEC_INDEX.get(spec.id) ?? 0;
  const profileLevel = profileLevelOf(spec, index);
  const profileConfidence = profileLevel
    ? ({ profile: "use-lite", level: profileLevel, trace: [], thresholds: {}, pool_size: 5 } as never)
    : null;
  return recallRow({
    ...base,
    outcome: { results, confidence, selector, candidates, timings: { total: 12.5 }, profileConfidence },
  });
}

const SPEC_INDEX = new Map<string, number>();

/** Newest first; ties by id, descending (uuid order is the order of its lowercase text). */
function byHistoryOrder(a: Spec, b: Spec): number {
  return b.createdAt.getTime() - a.createdAt.getTime() || (a.id < b.id ? 1 : a.id > b.id ? -1 : 0);
}

function expected(specs: Spec[], keep: (spec: Spec) => boolean): string[] {
  return specs
    .filter(keep)
    .sort(byHistoryOrder)
    .map((s) => s.id);
}

describe.each(DATABASE_KINDS)("recall history on %s", (kind) => {
  let database: MigratedDatabase | undefined;
  let prisma: PrismaClient;
  const specs = buildSpecs();
  specs.forEach((spec, index) => SPEC_INDEX.set(spec.id, index));
  const profileOf = (spec: Spec) => profileLevelOf(spec, SPEC_INDEX.get(spec.id)!);

  /** Every matching id, walking the pages with the cursor. */
  async function walk(params: Record<string, string>, limit: number): Promise<{ ids: string[]; pages: number }> {
    const ids: string[] = [];
    let cursor: string | null = null;
    let pages = 0;
    do {
      const query = HistoryQuerySchema.parse({ ...params, limit: String(limit), ...(cursor ? { cursor } : {}) });
      const page = await listRecalls(prisma, query);
      expect(page.items.length).toBeLessThanOrEqual(limit);
      ids.push(...page.items.map((item) => item.id));
      cursor = page.next_cursor;
      pages++;
      expect(pages).toBeLessThan(200);
    } while (cursor);
    return { ids, pages };
  }

  /**
   * The one page of a filter's matches; the raw-SQL form of the filter (history-sql.ts) and the
   * count (history-count.ts) must select exactly the same rows.
   */
  async function first(params: Record<string, string>): Promise<string[]> {
    const query = HistoryQuerySchema.parse({ ...params, limit: "200" });
    const page = await listRecalls(prisma, query);
    expect(page.next_cursor).toBeNull();
    const ids = page.items.map((item) => item.id);
    const raw = await prisma.$queryRaw<{ id: string }[]>(
      Prisma.sql`SELECT r."id"::text AS id FROM "recalls" AS r WHERE ${historyWhereSql(query)} ORDER BY r."created_at" DESC, r."id" DESC`,
    );
    expect(
      raw.map((row) => row.id),
      `raw SQL of ${JSON.stringify(params)}`,
    ).toEqual(ids);
    const count = await countRecalls(prisma, query);
    expect(count, `count of ${JSON.stringify(params)}`).toMatchObject({ total: ids.length, exact: true, grouped: ids.length });
    return ids;
  }

  beforeAll(async () => {
    database = await migratedDatabase(kind);
    prisma = database.prisma;
    // Inserted in shuffled order, so the answer's order cannot come from insertion order.
    const shuffled = [...specs].sort((a, b) => (a.id < b.id ? -1 : 1));
    for (const spec of shuffled) await insertRecall(prisma, toRow(spec));
    // Migrating a fresh PGlite and inserting one by one takes a while on a loaded machine.
  }, 120_000);

  afterAll(async () => {
    await database?.close();
  });

  it("lists newest first, ties broken by id, and answers the table's columns only", async () => {
    const page = await listRecalls(prisma, HistoryQuerySchema.parse({}));
    const all = expected(specs, () => true);
    expect(page.items.map((item) => item.id)).toEqual(all);
    expect(page.next_cursor).toBeNull();

    const spec = specs[1]!; // embedded, moderate, selector applied and dropped 2, with a pool
    const item = page.items.find((i) => i.id === spec.id)!;
    expect(item).toEqual({
      id: spec.id,
      created_at: spec.createdAt.toISOString(),
      source: "console",
      store: "embedded",
      query: spec.query,
      k: 5,
      search_mode: "hybrid",
      status: "ok",
      level: "moderate",
      top_score: 0.812345,
      prominence: 0.4567,
      basis: "semantic",
      degraded: false,
      profile_name: "use-lite",
      profile_level: profileOf(spec),
      profile_probability: null, // a profile of the old shape: no verdict model
      returned_count: 3, // the page after the selector: 5 results, 2 dropped
      selector_applied: true,
      selector_model: "selector-model",
      selector_kept: 3,
      selector_dropped: 2,
      selector_reason: null,
      top_dropped: true, // its top memory (rank 1, no pool cosine beats it) is one of the two dropped
      latency_ms: 12.5,
      has_candidates: true,
      label_present: null,
      label_relevant: [],
      label_not_relevant: [],
      labeler: null,
      labeled_at: null,
      trace_id: null,
    } satisfies HistoryItem);

    const failed = page.items.find((i) => i.id === specs[6]!.id)!;
    expect(failed).toMatchObject({
      status: "error",
      level: null,
      top_score: null,
      prominence: null,
      returned_count: 0,
      selector_applied: false,
      selector_reason: null,
      has_candidates: false,
    });
    const ingested = page.items.find((i) => i.id === specs[5]!.id)!;
    expect(ingested).toMatchObject({ source: "ingest", has_candidates: false, selector_applied: true, selector_dropped: 0 });
    const notApplied = page.items.find((i) => i.id === specs[2]!.id)!;
    expect(notApplied).toMatchObject({
      selector_applied: false,
      selector_reason: "disabled",
      selector_kept: null,
      selector_dropped: null,
    });
  });

  it("filters by store, level (one or several), selector applied, has dropped, status and source", async () => {
    const cases: [Record<string, string>, (s: Spec) => boolean][] = [
      [{ store: "remote-prod" }, (s) => s.store === "remote-prod"],
      [{ store: "nowhere" }, () => false],
      [{ level: "high" }, (s) => s.level === "high"],
      [{ level: "low,none" }, (s) => s.level === "low" || s.level === "none"],
      [{ profile_level: "high" }, (s) => profileOf(s) === "high"],
      [{ profile_level: "low,none" }, (s) => profileOf(s) === "low" || profileOf(s) === "none"],
      [{ profile: "use-lite" }, (s) => profileOf(s) !== null],
      [{ profile: "use-lite", level: "high" }, (s) => profileOf(s) !== null && s.level === "high"],
      // The store's verdict: the profile's level where one judged the recall, else the reference level.
      [{ verdict: "high" }, (s) => (profileOf(s) ?? s.level) === "high"],
      [{ verdict: "low,none" }, (s) => ["low", "none"].includes(profileOf(s) ?? s.level ?? "")],
      [{ mode: "hybrid" }, () => true],
      [{ mode: "keyword" }, () => false],
      [{ selector_applied: "true" }, (s) => s.dropped !== null],
      [{ selector_applied: "false" }, (s) => s.dropped === null],
      [{ has_dropped: "true" }, (s) => (s.dropped ?? 0) > 0],
      [{ has_dropped: "false" }, (s) => (s.dropped ?? 0) === 0],
      [{ status: "error" }, (s) => s.level === null],
      [{ status: "ok" }, (s) => s.level !== null],
      [{ source: "ingest" }, (s) => s.source === "ingest"],
      [{ trace_id: TRACE_A.toUpperCase() }, (s) => traceOf(s) === TRACE_A],
      [{ trace_id: TRACE_B, source: "ingest" }, (s) => traceOf(s) === TRACE_B],
      [{ trace_id: "f".repeat(32) }, () => false],
      [
        { store: "embedded", level: "high,moderate", has_dropped: "true" },
        (s) => s.store === "embedded" && (s.level === "high" || s.level === "moderate") && (s.dropped ?? 0) > 0,
      ],
      [{ selector_model: "selector-model" }, (s) => s.dropped !== null],
      [{ selector_model: "another-model" }, () => false],
      // The selector drops results from the top of the page: m-1 goes whenever two are dropped.
      [{ dropped_memory: "m-1" }, (s) => (s.dropped ?? 0) >= 2],
      [{ dropped_memory: "m-0" }, (s) => (s.dropped ?? 0) >= 1],
      [{ dropped_memory: "m-4" }, () => false],
      [{ selector_reason: "disabled" }, (s) => s.dropped === null && s.level !== null],
      [{ selector_kind: "off" }, (s) => s.dropped === null && s.level !== null],
      [{ selector_kind: "failed" }, () => false],
      [{ label: "unlabeled" }, () => true],
      [{ label: "present" }, () => false],
      [{ dropped_memory: "m-0", store: "remote-prod" }, (s) => (s.dropped ?? 0) >= 1 && s.store === "remote-prod"],
    ];
    for (const [params, keep] of cases) {
      const want = expected(specs, keep);
      expect(await first(params), JSON.stringify(params)).toEqual(want);
    }
    // The fixture exercises each case with at least one row in and one out.
    expect(expected(specs, (s) => (s.dropped ?? 0) > 0).length).toBeGreaterThan(0);
  });

  it("matches text in the query case-insensitively, with % and _ taken literally", async () => {
    expect(await first({ q: "KAFKA" })).toEqual(expected(specs, (s) => s.query.toLowerCase().includes("kafka")));
    expect(await first({ q: "deploy" })).toEqual(expected(specs, (s) => s.query.includes("DEPLOY")));
    expect(await first({ q: "#7" })).toEqual(expected(specs, (s) => s.query.includes("#7")));
    expect(await first({ q: "100%" })).toEqual(expected(specs, (s) => s.query.includes("100%")));
    expect(await first({ q: "snake_case" })).toEqual(expected(specs, (s) => s.query.includes("snake_case")));
    expect(await first({ q: "1_00" })).toEqual([]); // "1000" would match an unescaped _
    expect(await first({ q: "%" })).toEqual(expected(specs, (s) => s.query.includes("%")));
    expect(await first({ q: "c:\\TEMP\\" })).toEqual(expected(specs, (s) => s.query.includes("C:\\temp\\")));
    expect(await first({ q: "\\" })).toHaveLength(1);
  });

  it("bounds the time range: from inclusive, to exclusive", async () => {
    const from = new Date(T0 + 3 * 60_000 + 123); // exactly the 4th group's timestamp
    const to = new Date(T0 + 5 * 60_000 + 500); // exactly the big tie's timestamp
    const inRange = (s: Spec) => s.createdAt >= from && s.createdAt < to;
    expect(await first({ from: from.toISOString(), to: to.toISOString() })).toEqual(expected(specs, inRange));
    expect(await first({ from: to.toISOString() })).toEqual(expected(specs, (s) => s.createdAt >= to));
    expect(await first({ to: from.toISOString() })).toEqual(expected(specs, (s) => s.createdAt < from));
    expect(expected(specs, inRange).length).toBeGreaterThan(0);
  });

  it("walks every page exactly once through ties, at any page size", async () => {
    const all = expected(specs, () => true);
    for (const limit of [1, 2, 3, 5, 7, 43, 44, 45]) {
      const { ids, pages } = await walk({}, limit);
      expect(ids, `limit ${limit}`).toEqual(all);
      expect(new Set(ids).size).toBe(all.length);
      expect(pages).toBe(Math.max(1, Math.ceil(all.length / limit)));
    }
  });

  it("walks a filtered history the same way", async () => {
    const { ids } = await walk({ store: "remote-prod", status: "ok" }, 2);
    expect(ids).toEqual(expected(specs, (s) => s.store === "remote-prod" && s.level !== null));
    const dropped = await walk({ has_dropped: "false", q: "kafka" }, 3);
    expect(dropped.ids).toEqual(expected(specs, (s) => (s.dropped ?? 0) === 0 && s.query.toLowerCase().includes("kafka")));
  });

  it("counts exactly up to the cap and splits by level and profile level; beyond it, estimates and says so", async () => {
    const all = await countRecalls(prisma, {});
    expect(all).toMatchObject({ total: specs.length, exact: true, grouped: specs.length });
    const byLevel: Record<string, number> = {};
    const byProfile: Record<string, number> = {};
    for (const spec of specs) {
      byLevel[spec.level ?? "unknown"] = (byLevel[spec.level ?? "unknown"] ?? 0) + 1;
      byProfile[profileOf(spec) ?? "reference"] = (byProfile[profileOf(spec) ?? "reference"] ?? 0) + 1;
    }
    expect(all.by_level).toEqual(byLevel);
    expect(all.by_profile_level).toEqual(byProfile);
    const byVerdict: Record<string, number> = {};
    for (const spec of specs) {
      const verdict = profileOf(spec) ?? spec.level ?? "unknown";
      byVerdict[verdict] = (byVerdict[verdict] ?? 0) + 1;
    }
    expect(all.by_verdict).toEqual(byVerdict);

    // A cap below the matches: the total is an estimate (never below cap + 1), the split is of the newest `cap`.
    const capped = await countRecalls(prisma, {}, 10);
    expect(capped.exact).toBe(false);
    expect(capped.total).toBeGreaterThanOrEqual(11);
    expect(capped.grouped).toBe(10);
    const newest = [...specs].sort(byHistoryOrder).slice(0, 10);
    const newestByLevel: Record<string, number> = {};
    for (const spec of newest) newestByLevel[spec.level ?? "unknown"] = (newestByLevel[spec.level ?? "unknown"] ?? 0) + 1;
    expect(capped.by_level).toEqual(newestByLevel);
    // Exactly at the cap is still exact.
    expect(await countRecalls(prisma, {}, specs.length)).toMatchObject({ exact: true, total: specs.length });
  });

  it("knows the log's first and last recall (Insights' default range)", async () => {
    const times = specs.map((s) => s.createdAt.getTime());
    expect(await logExtent(prisma)).toEqual({
      first: new Date(Math.min(...times)).toISOString(),
      last: new Date(Math.max(...times)).toISOString(),
    });
  });

  it("keyset position in raw SQL walks the same pages as Prisma's", async () => {
    const query = HistoryQuerySchema.parse({ limit: "7" });
    const page = await listRecalls(prisma, query);
    const cursor = decodeHistoryCursor(page.next_cursor!)!;
    const next = await listRecalls(prisma, { ...query, cursor });
    const raw = await prisma.$queryRaw<{ id: string }[]>(
      Prisma.sql`SELECT r."id"::text AS id FROM "recalls" AS r WHERE ${historyWhereSql({ cursor })} ORDER BY r."created_at" DESC, r."id" DESC LIMIT 7`,
    );
    expect(raw.map((row) => row.id)).toEqual(next.items.map((item) => item.id));
  });

  it("pages from a cursor inside the big tie without repeating or skipping a tied row", async () => {
    const all = expected(specs, () => true);
    const tiedIds = expected(specs, (s) => s.createdAt.getTime() === T0 + 5 * 60_000 + 500);
    expect(tiedIds).toHaveLength(8);
    const middle = tiedIds[3]!;
    const at = all.indexOf(middle);
    const cursor = encodeHistoryCursor({ createdAt: new Date(T0 + 5 * 60_000 + 500), id: middle });
    const page = await listRecalls(prisma, HistoryQuerySchema.parse({ cursor, limit: "6" }));
    expect(page.items.map((i) => i.id)).toEqual(all.slice(at + 1, at + 7));
  });

  it("answers an empty page (no next cursor) past the oldest row", async () => {
    const cursor = encodeHistoryCursor({ createdAt: new Date(T0 - 1), id: randomUUID() });
    expect(await listRecalls(prisma, HistoryQuerySchema.parse({ cursor }))).toEqual({ items: [], next_cursor: null });
    const filters: HistoryFilters = { store: "nowhere" };
    expect(await listRecalls(prisma, { ...filters, limit: 10 })).toEqual({ items: [], next_cursor: null });
  });
});

describe("GET /api/recalls", () => {
  let app: AppUnderTest | undefined;
  let route: typeof import("@/app/api/recalls/route");

  beforeAll(async () => {
    app = appUnderTest("history");
    route = await import("@/app/api/recalls/route");
    const { getPrisma } = await import("@/lib/db/server");
    const prisma = await getPrisma();
    for (const spec of buildSpecs().slice(0, 5)) await insertRecall(prisma, toRow(spec));
  });

  afterAll(async () => {
    await app?.close();
  });

  it("answers { items, next_cursor, deleted_stores } and follows its own cursor", async () => {
    const one = await callRoute(route.GET, { url: "/api/recalls?limit=3" });
    expect(one.status).toBe(200);
    expect(Object.keys(one.json).sort()).toEqual(["deleted_stores", "items", "next_cursor"]);
    expect(one.json.deleted_stores).toEqual([]);
    expect(one.json.items).toHaveLength(3);
    expect(typeof one.json.next_cursor).toBe("string");
    const two = await callRoute(route.GET, { url: `/api/recalls?limit=3&cursor=${one.json.next_cursor}` });
    expect(two.status).toBe(200);
    expect(two.json.items).toHaveLength(2);
    expect(two.json.next_cursor).toBeNull();
  });

  it("answers bad input with the 422 envelope", async () => {
    const range = await callRoute(route.GET, { url: "/api/recalls?from=2025-02-01T00:00:00Z&to=2025-01-01T00:00:00Z" });
    expect(range.status).toBe(422);
    expect(range.json).toMatchObject({
      error: "validation_failed",
      message: expect.stringContaining("from must be earlier than to"),
    });

    const date = await callRoute(route.GET, { url: "/api/recalls?from=last%20week" });
    expect(date.status).toBe(422);
    expect(date.json.details.issues[0].path).toEqual(["from"]);

    const cursor = await callRoute(route.GET, { url: "/api/recalls?cursor=bm90LWEtY3Vyc29y" });
    expect(cursor.status).toBe(422);
    expect(cursor.json.message).toMatch(/cursor: .*start over/);

    const level = await callRoute(route.GET, { url: "/api/recalls?level=great" });
    expect(level.status).toBe(422);
    const limit = await callRoute(route.GET, { url: "/api/recalls?limit=500" });
    expect(limit.status).toBe(422);
  });
});
