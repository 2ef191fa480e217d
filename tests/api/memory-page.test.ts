import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { appUnderTest, callRoute } from "../support/app-under-test";

/**
 * The memory page's API through the real handlers, a throw-away PGlite database and the USE-lite
 * embedder: search by id, the recalls a memory appeared in (counts and pages, checked against a
 * recount of the fixture), its nearest neighbours (checked against cosines recomputed from the
 * stored vectors), and which ids of an old recall were deleted since.
 */
const app = appUnderTest("memory-page");

const memoriesRoute = await import("@/app/api/memories/route");
const memoryRoute = await import("@/app/api/memories/[id]/route");
const recallsOfRoute = await import("@/app/api/memories/[id]/recalls/route");
const neighboursRoute = await import("@/app/api/memories/[id]/neighbours/route");
const lookupRoute = await import("@/app/api/memories/lookup/route");
const labelsRoute = await import("@/app/api/recalls/[id]/labels/route");
const { getPrisma } = await import("@/lib/db/server");
const { insertRecall, recallRow } = await import("@/lib/recall-log/server/repository");
const { decodeVector } = await import("@/lib/stores/server/search-index/vector-codec");

const SEED = [
  {
    id: "ops.kafka-lag",
    summary: "Kafka consumer lag alerts fire when the dispatch consumer falls 5 minutes behind.",
    type: "fact",
  },
  { id: "ops.oncall", summary: "Priya is on call this week; escalate Kafka lag pages to her before 22:00.", type: "schedule" },
  { id: "team.lunch", summary: "The team lunch on Thursdays is at the Vietnamese place near the office.", type: "note" },
  {
    id: "db.pgbouncer",
    summary: "PgBouncer sits in front of Postgres because the rates API opened too many connections.",
    type: "decision",
  },
  { id: "ops.kafka-retention", summary: "Kafka topics keep seven days of messages before retention deletes them.", type: "fact" },
];

/** A fixture recall: which memories were candidates, on the page, dropped, and labeled. */
interface Fixture {
  id: string;
  createdAt: Date;
  candidates: string[];
  page: number;
  dropped: string[];
  labels?: Record<string, boolean>;
}

const TARGET = "ops.kafka-lag";
const base = Date.UTC(2026, 10, 20, 12, 0, 0);
const LABELS: Record<number, Record<string, boolean>> = { 1: { [TARGET]: true }, 4: { [TARGET]: false, "team.lunch": true } };
const FIXTURES: Fixture[] = Array.from({ length: 7 }, (_, i): Fixture => {
  const others = SEED.map((m) => m.id).filter((id) => id !== TARGET);
  // The target moves through the list: rank 1..5, sometimes absent (i = 5).
  const candidates = i === 5 ? others : [...others.slice(0, i % 5), TARGET, ...others.slice(i % 5)];
  return {
    id: randomUUID(),
    // Two recalls share a timestamp, so the keyset pages must neither repeat nor skip them.
    createdAt: new Date(base + (i === 3 ? 2 : i) * 60_000),
    candidates,
    page: 3,
    dropped: i % 3 === 0 ? [candidates[0]!, TARGET].filter((id, j, all) => all.indexOf(id) === j) : [],
    ...(LABELS[i] ? { labels: LABELS[i] } : {}),
  };
});

async function insertFixture(f: Fixture) {
  const results = f.candidates.slice(0, f.page).map((memory_id, i) => ({ memory_id, summary: memory_id, score: 0.9 - i / 10 }));
  await insertRecall(
    await getPrisma(),
    recallRow({
      id: f.id,
      createdAt: f.createdAt,
      source: "console",
      request: {
        store: "embedded",
        query: `fixture ${f.id}`,
        k: f.page,
        search_mode: "hybrid",
        use_rerank: false,
        selector: "off",
      },
      latencyMs: 2,
      outcome: {
        results,
        confidence: null,
        selector: null,
        droppedIds: f.dropped,
        candidates: f.candidates.map((memory_id, i) => ({
          memory_id,
          summary: memory_id,
          rank: i + 1,
          raw_cosine: 0.8 - i / 20,
          keyword_score: null,
          hybrid_score: 0.8 - i / 20,
          in_pool: i < 4,
          returned: i < f.page,
        })),
        timings: {},
      },
    }),
  );
  if (f.labels) {
    const saved = await callRoute(labelsRoute.PUT, { method: "PUT", params: { id: f.id }, body: { results: f.labels } });
    expect(saved.status).toBe(200);
  }
}

beforeAll(async () => {
  const { status, json } = await callRoute(memoriesRoute.POST, { body: { memories: SEED } });
  expect(status).toBe(201);
  expect(json.created).toBe(SEED.length);
  for (const f of FIXTURES) await insertFixture(f);
});

afterAll(async () => {
  await app.close();
});

const recallsOf = (id: string, query = "") =>
  callRoute(recallsOfRoute.GET, { url: `/api/memories/${encodeURIComponent(id)}/recalls${query}`, params: { id } });

describe("search by id", () => {
  it("finds a memory by its pasted id, whole or in part, as well as by its text", async () => {
    const whole = await callRoute(memoriesRoute.GET, { url: `/api/memories?q=${TARGET}` });
    expect(whole.status).toBe(200);
    expect(whole.json.items.map((m: { id: string }) => m.id)).toEqual([TARGET]);
    const part = await callRoute(memoriesRoute.GET, { url: "/api/memories?q=OPS.KAFKA" });
    expect(part.json.items.map((m: { id: string }) => m.id).sort()).toEqual(["ops.kafka-lag", "ops.kafka-retention"]);
    expect(part.json.total).toBe(2);
    const text = await callRoute(memoriesRoute.GET, { url: "/api/memories?q=vietnamese" });
    expect(text.json.items.map((m: { id: string }) => m.id)).toEqual(["team.lunch"]);
  });
});

describe("GET /api/memories/{id}/recalls", () => {
  const mine = FIXTURES.filter((f) => f.candidates.includes(TARGET));
  const rankOf = (f: Fixture) => f.candidates.indexOf(TARGET) + 1;

  it("counts the recalls the memory appeared in, was returned, dropped and labeled in", async () => {
    const { status, json } = await recallsOf(TARGET);
    expect(status).toBe(200);
    expect(json.counts).toEqual({
      appeared: mine.length,
      in_pool: mine.filter((f) => rankOf(f) <= 4).length,
      returned: mine.filter((f) => rankOf(f) <= f.page).length,
      dropped: mine.filter((f) => rankOf(f) <= f.page && f.dropped.includes(TARGET)).length,
      labeled_relevant: mine.filter((f) => f.labels?.[TARGET] === true).length,
      labeled_irrelevant: mine.filter((f) => f.labels?.[TARGET] === false).length,
    });
    expect(json.counts.appeared).toBeGreaterThan(json.counts.returned);
    expect(json.counts.dropped).toBeGreaterThan(0);
  });

  it("lists them newest first, page by page, each with its rank and fate, none repeated or skipped", async () => {
    const seen: { recall_id: string; rank: number; dropped: boolean; returned: boolean; relevant: boolean | null }[] = [];
    let cursor: string | null = null;
    do {
      const { status, json }: { status: number; json: { items: typeof seen; next_cursor: string | null } } = await recallsOf(
        TARGET,
        `?limit=2${cursor ? `&cursor=${cursor}` : ""}`,
      );
      expect(status).toBe(200);
      seen.push(...json.items);
      cursor = json.next_cursor;
    } while (cursor);
    const expected = [...mine].sort((a, b) => b.createdAt.getTime() - a.createdAt.getTime() || (b.id < a.id ? -1 : 1));
    expect(seen.map((r) => r.recall_id)).toEqual(expected.map((f) => f.id));
    for (const [i, f] of expected.entries()) {
      expect(seen[i]).toMatchObject({
        rank: rankOf(f),
        returned: rankOf(f) <= f.page,
        dropped: rankOf(f) <= f.page && f.dropped.includes(TARGET),
        relevant: f.labels?.[TARGET] ?? null,
      });
    }
  });

  it("filters to the recalls it was dropped from or labeled relevant in", async () => {
    const dropped = await recallsOf(TARGET, "?show=dropped");
    expect(dropped.json.items.length).toBe(dropped.json.counts.dropped);
    expect(dropped.json.items.every((r: { dropped: boolean }) => r.dropped)).toBe(true);
    const relevant = await recallsOf(TARGET, "?show=relevant");
    expect(relevant.json.items.map((r: { recall_id: string }) => r.recall_id)).toEqual([FIXTURES[1]!.id]);
    const lunch = await recallsOf("team.lunch", "?show=relevant");
    expect(lunch.json.items.map((r: { recall_id: string }) => r.recall_id)).toEqual([FIXTURES[4]!.id]);
  });

  it("answers zero counts for an id that never appeared, and 422 for a bad cursor or filter", async () => {
    const none = await recallsOf("never-seen");
    expect(none.status).toBe(200);
    expect(none.json).toMatchObject({ items: [], next_cursor: null, counts: { appeared: 0, returned: 0, dropped: 0 } });
    expect((await recallsOf(TARGET, "?cursor=nope")).status).toBe(422);
    expect((await recallsOf(TARGET, "?show=everything")).status).toBe(422);
  });
});

describe("GET /api/memories/{id}/neighbours", () => {
  it("lists the closest memories by raw cosine, itself left out, equal to a recomputation from the stored vectors", async () => {
    const { status, json } = await callRoute(neighboursRoute.GET, {
      url: `/api/memories/${TARGET}/neighbours?limit=3`,
      params: { id: TARGET },
    });
    expect(status).toBe(200);
    expect(json.unavailable).toBeNull();
    const rows = await (await getPrisma()).memory.findMany({ select: { id: true, embedding: true } });
    const vectors = new Map(rows.map((r) => [r.id, decodeVector(r.embedding!)]));
    const own = vectors.get(TARGET)!;
    const cosine = (v: Float32Array) => v.reduce((sum, x, i) => sum + x * own[i]!, 0);
    const expected = [...vectors.entries()]
      .filter(([id]) => id !== TARGET)
      .map(([id, v]) => ({ id, cosine: cosine(v) }))
      .sort((a, b) => b.cosine - a.cosine)
      .slice(0, 3);
    expect(json.items.map((n: { id: string }) => n.id)).toEqual(expected.map((e) => e.id));
    json.items.forEach((n: { cosine: number }, i: number) => expect(n.cosine).toBeCloseTo(expected[i]!.cosine, 5));
    expect(json.items[0].summary).toBe(SEED.find((m) => m.id === expected[0]!.id)!.summary);
  });

  it("answers 404 for an unknown memory", async () => {
    const { status, json } = await callRoute(neighboursRoute.GET, {
      url: "/api/memories/nope/neighbours",
      params: { id: "nope" },
    });
    expect(status).toBe(404);
    expect(json.error).toBe("not_found");
  });
});

describe("GET /api/memories/lookup", () => {
  it("says which ids of an old recall were deleted since; their recalls stay in the log", async () => {
    const removed = await callRoute(memoryRoute.DELETE, { method: "DELETE", params: { id: "db.pgbouncer" } });
    expect(removed.status).toBe(200);
    const { status, json } = await callRoute(lookupRoute.GET, {
      url: "/api/memories/lookup?ids=ops.oncall,db.pgbouncer,never-here,ops.oncall",
    });
    expect(status).toBe(200);
    expect(json).toEqual({ found: ["ops.oncall"], missing: ["db.pgbouncer", "never-here"] });
    const stillLogged = await recallsOf("db.pgbouncer");
    expect(stillLogged.json.counts.appeared).toBe(FIXTURES.filter((f) => f.candidates.includes("db.pgbouncer")).length);
  });

  it("refuses too many ids and a missing list with 422", async () => {
    const many = Array.from({ length: 501 }, (_, i) => `m${i}`).join(",");
    expect((await callRoute(lookupRoute.GET, { url: `/api/memories/lookup?ids=${many}` })).status).toBe(422);
    expect((await callRoute(lookupRoute.GET, { url: "/api/memories/lookup" })).status).toBe(422);
  });
});
