import { PrismaClient } from "@prisma/client";
import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openDatabase, type OpenDatabase } from "@/lib/db/server/connection";
import { migrate, readMigrations } from "@/lib/db/server/migrator";
import { getInsights } from "@/lib/insights/server/sql";
import { SELECTOR_REASONS, selectorReasonKind } from "@/lib/recall/selector-reasons";
import { findRecall } from "@/lib/recall-log/server/repository";
import { DATABASE_KINDS, scratchDatabase, type ScratchDatabase } from "../support/databases";

/**
 * Recalls logged under the old rule (before *_selector_truth) read back under the one meaning of
 * "applied" (lib/selectors/README.md "Selector truth"), and Insights counts them exactly: the
 * migration rewrites the rows and rebuilds the rollups.
 */
describe.each(DATABASE_KINDS)("the selector-truth migration on %s", (kind) => {
  let scratch: ScratchDatabase;
  let db: OpenDatabase;
  let prisma: PrismaClient;
  const ids = { gapKeptAll: randomUUID(), http: randomUUID(), llmDroppedTop: randomUUID(), gapTooFew: randomUUID() };
  const at = "2025-03-01T10:00:00Z";

  beforeAll(async () => {
    scratch = await scratchDatabase(kind);
    db = await openDatabase(scratch.config);
    const all = readMigrations();
    const cut = all.findIndex((m) => m.name.endsWith("_selector_truth"));
    expect(cut).toBeGreaterThan(0);
    await migrate(db, all.slice(0, cut));
    prisma = new PrismaClient({ adapter: db.adapter });

    // Four console recalls as the old code logged them (the whole page, dropped rows marked).
    const page = (n: number, dropped: number[] = []) =>
      JSON.stringify(
        Array.from({ length: n }, (_, i) => ({
          memory_id: `m${i + 1}`,
          summary: `Memory ${i + 1}`,
          score: 0.9 - i / 10,
          ...(dropped.includes(i + 1) ? { dropped: true } : {}),
        })),
      );
    const insert = (
      id: string,
      selector: string,
      request: string,
      cols: { applied: boolean; model?: string; reason?: string; kept?: number; dropped?: number; ids?: string[] },
      results: string,
      level: string,
      usage: string | null,
    ) =>
      prisma.$executeRawUnsafe(
        `INSERT INTO recalls (id, created_at, source, store, query, k, search_mode, request, status, level, top_score, selector_applied, selector_model,
           selector_reason, selector_kept, selector_dropped, dropped_memory_ids, selector, selector_usage, results, returned_count, has_candidates)
         VALUES ($1::uuid, $2::timestamptz, 'console', 'embedded', 'q', 5, 'hybrid', $3::jsonb, 'ok', $4, 0.7, $5, $6, $7, $8, $9, $10::text[], $11::jsonb, $12::jsonb, $13::jsonb, $14, $15)`,
        id,
        at,
        request,
        level,
        cols.applied,
        cols.model ?? null,
        cols.reason ?? null,
        cols.kept ?? null,
        cols.dropped ?? null,
        cols.ids ?? [],
        selector,
        usage,
        results,
        JSON.parse(results).filter((r: { dropped?: boolean }) => !r.dropped).length,
        id === ids.llmDroppedTop,
      );
    const req = (selector: string) =>
      JSON.stringify({ store: "embedded", query: "q", k: 5, search_mode: "hybrid", use_rerank: false, selector });
    await insert(
      ids.gapKeptAll,
      '{"applied":false,"reason":"no_clear_gap"}',
      req("gap"),
      { applied: false, reason: "no_clear_gap" },
      page(4),
      "low",
      '{"latency_ms":0.1,"detail":"The largest relative drop is 0.05"}',
    );
    await insert(
      ids.http,
      '{"applied":false,"reason":"http_500"}',
      req("llm"),
      { applied: false, reason: "http_500" },
      page(3),
      "high",
      '{"latency_ms":12}',
    );
    await insert(
      ids.llmDroppedTop,
      '{"applied":true,"model":"gpt-x","kept":2,"dropped":1,"dropped_memory_ids":["m3"]}',
      req("llm"),
      { applied: true, model: "gpt-x", kept: 2, dropped: 1, ids: ["m3"] },
      page(3, [3]),
      "moderate",
      '{"latency_ms":40}',
    );
    await insert(
      ids.gapTooFew,
      '{"applied":false,"reason":"too_few_results"}',
      req("gap"),
      { applied: false, reason: "too_few_results" },
      page(2),
      "none",
      '{"latency_ms":0.1}',
    );
    // The LLM recall's pool: m3 (dropped) has the highest raw cosine, so the level rests on it.
    await prisma.$executeRawUnsafe(
      `INSERT INTO recall_candidates (recall_id, rank, memory_id, summary, raw_cosine, in_pool, returned, dropped) VALUES
       ($1::uuid, 1, 'm1', 'Memory 1', 0.55, true, true, false), ($1::uuid, 2, 'm2', 'Memory 2', 0.5, true, true, false),
       ($1::uuid, 3, 'm3', 'Memory 3', 0.7, true, true, true)`,
      ids.llmDroppedTop,
    );
    await migrate(db);
  }, 240_000); // two migration passes on a busy machine

  afterAll(async () => {
    await prisma?.$disconnect();
    await db?.close();
    await scratch?.drop();
  });

  it("reads the score gap's kept-whole page as applied with 0 dropped, and one reason for HTTP errors", async () => {
    const gap = (await findRecall(prisma, ids.gapKeptAll))!;
    expect(gap.selector).toEqual({ applied: true, model: "score-gap", kept: 4, dropped: 0, dropped_memory_ids: [] });
    expect(gap.results).toHaveLength(4);
    expect(gap.dropped_results).toEqual([]);

    const http = (await findRecall(prisma, ids.http))!;
    expect(http.selector).toEqual({ applied: false, reason: "http_error" });
    expect(http.selector_trace).toMatchObject({ http_status: 500, latency_ms: 12 });

    const tooFew = (await findRecall(prisma, ids.gapTooFew))!;
    expect(tooFew.selector).toEqual({ applied: false, reason: "too_few_results" });
    expect(tooFew.selector_trace?.model).toBe("score-gap");
  });

  it("splits the old whole page into results and dropped_results, and finds the dropped memory the level rests on", async () => {
    const llm = (await findRecall(prisma, ids.llmDroppedTop))!;
    expect(llm.results.map((r) => r.memory_id)).toEqual(["m1", "m2"]);
    expect(llm.dropped_results).toEqual([{ memory_id: "m3", summary: "Memory 3", score: expect.closeTo(0.7, 9), rank: 3 }]);
    expect(llm.selector_trace).toMatchObject({ model: "gpt-x", prompt_version: "1" });
    expect(llm.top_memory).toEqual({ memory_id: "m3", dropped: true });
    expect((await findRecall(prisma, ids.gapKeptAll))!.top_memory).toEqual({ memory_id: "m1", dropped: false });
  });

  it("rebuilds the rollups: Insights counts the old recalls under the new rule, the same from rollups as from recalls", async () => {
    const q = { from: new Date("2025-03-01T00:00:00Z"), to: new Date("2025-03-02T00:00:00Z"), bucket: "day" as const, tz: "UTC" };
    const answer = await getInsights(prisma, q);
    expect(answer).toEqual(await getInsights(prisma, q, { rollups: false }));
    // Hand counts: applied = the kept-whole gap page + the LLM recall; the HTTP error is the one failure
    // of the three recalls a selector ran or tried on; too_few_results is skipped (neither).
    expect(answer.totals).toMatchObject({
      recalls: 4,
      applied: 2,
      counted: 2,
      kept: 6,
      dropped: 1,
      lost_any: 1,
      selector_failed: 1,
      tried: 3,
      top_dropped: 1,
      moderate_top_dropped: 1,
      weak_kept_all: 1,
    });
    expect(answer.totals.drop_rate).toBeCloseTo(1 / 7, 12);
    expect(answer.totals.lost_any_rate).toBeCloseTo(1 / 2, 12);
    expect(answer.totals.failure_rate).toBeCloseTo(1 / 3, 12);
  });

  it("classifies reasons in SQL exactly as lib/recall/selector-reasons.ts does", async () => {
    for (const reason of [...SELECTOR_REASONS, "http_503", "no_clear_gap", "quota_exceeded", ""]) {
      const [row] = await prisma.$queryRawUnsafe<{ kind: string }[]>("SELECT selector_reason_kind($1) AS kind", reason);
      expect(row!.kind, reason).toBe(selectorReasonKind(reason));
    }
  });
});
