import { PrismaClient } from "@prisma/client";
import { parse } from "csv-parse/sync";
import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { HistoryFiltersSchema } from "@/lib/recall-log/history";
import { CANDIDATE_COLUMNS, exportStream } from "@/lib/recall-log/server/export";
import { saveRecallLabels } from "@/lib/recall-log/server/labels-store";
import { findRecall, insertRecalls, recallRow } from "@/lib/recall-log/server/repository";
import type { LoggedConfidence, LoggedRecall } from "@/lib/recall-log/types";
import { DATABASE_KINDS, migratedDatabase, type MigratedDatabase } from "../support/databases";

/**
 * The full-fidelity exports on both databases: a JSON Line is the recall's own view (what
 * GET /api/recalls/{id} answers, candidates, trace, selector and labels included), and the
 * per-candidate CSV has one row per candidate (per page row for a recall without a pool), each
 * with its scores and its label. Expected values come from the fixture below.
 */

const T0 = Date.UTC(2026, 10, 1);
const POOL = 8;

function fixture() {
  return Array.from({ length: 13 }, (_, i) => {
    const id = randomUUID();
    const withPool = i % 4 !== 3;
    const page = Array.from({ length: 5 }, (_, r) => ({
      memory_id: `m-${i}-${r}`,
      summary: `memory ${r} of ${i}`,
      score: 0.9 - r / 10,
      ...(r === 4 && i % 2 === 0 ? { dropped: true } : {}),
    }));
    const candidates = withPool
      ? Array.from({ length: POOL }, (_, r) => ({
          memory_id: `m-${i}-${r}`,
          summary: `memory ${r} of ${i}`,
          rank: r + 1,
          raw_cosine: 0.8 - r / 20,
          keyword_score: r % 3 === 0 ? null : 7.5 - r,
          hybrid_score: 0.9 - r / 10,
          in_pool: r < 5,
          returned: r < 5,
          dropped: r === 4 && i % 2 === 0,
        }))
      : null;
    const confidence = {
      level: "moderate",
      top_score: 0.8,
      prominence: 0.3,
      relative_margin: 1.5,
      result_count: 5,
      rationale: "test",
      background_mean: 0.6,
      background_std: 0.05,
      basis: "semantic",
      thresholds: "default",
      trace: [{ rule: "basis", basis: "semantic", candidate_count: 5, semantic_count: 5 }],
    } as unknown as LoggedConfidence;
    const selector =
      i % 2 === 0
        ? { applied: true as const, model: "sel-model", kept: 4, dropped: 1, dropped_memory_ids: [`m-${i}-4`] }
        : { applied: false as const, reason: "disabled" };
    return {
      id,
      withPool,
      row: recallRow({
        id,
        createdAt: new Date(T0 + i * 1000),
        source: withPool ? "console" : "ingest",
        request: {
          store: withPool ? "embedded" : "prod",
          query: i === 5 ? "=cmd|' /C calc'!A0" : `query ${i}, "quoted"`,
          k: 5,
          search_mode: "hybrid",
          use_rerank: false,
          selector: i % 2 === 0 ? "llm" : "off",
        },
        latencyMs: 10 + i,
        outcome: { results: page, confidence, selector, candidates, timings: { total: 10 + i } },
      }),
    };
  });
}

async function collect(stream: ReadableStream<Uint8Array>): Promise<string> {
  return new Response(stream).text();
}

describe.each(DATABASE_KINDS)("full exports on %s", (kind) => {
  let database: MigratedDatabase | undefined;
  let prisma: PrismaClient;
  const specs = fixture();

  beforeAll(async () => {
    database = await migratedDatabase(kind);
    prisma = database.prisma;
    await insertRecalls(
      prisma,
      specs.map((s) => s.row),
    );
    // Labels on two recalls: one with a pool, one without.
    await saveRecallLabels(prisma, specs[0]!.id, { present: "yes", results: { "m-0-1": true, "m-0-6": false }, labeler: "ana" });
    await saveRecallLabels(prisma, specs[3]!.id, { present: "no", results: { "m-3-0": false } });
  });

  afterAll(async () => {
    await database?.close();
  });

  it("a JSON Line is the recall's own view, candidates, trace, selector and labels included, across pages", async () => {
    const text = await collect(await exportStream(prisma, HistoryFiltersSchema.parse({}), "jsonl", 4));
    const lines = text
      .trimEnd()
      .split("\n")
      .map((line) => JSON.parse(line) as LoggedRecall);
    expect(lines.map((l) => l.id)).toEqual([...specs].reverse().map((s) => s.id));
    for (const line of lines) {
      const view = await findRecall(prisma, line.id);
      // Read back through JSON, exactly as GET /api/recalls/{id} answers it.
      expect(line).toEqual(JSON.parse(JSON.stringify(view)));
    }
    const first = lines.find((l) => l.id === specs[0]!.id)!;
    expect(first.candidates).toHaveLength(POOL);
    expect(first.candidates![1]).toMatchObject({ raw_cosine: 0.75, keyword_score: 6.5, hybrid_score: 0.8, in_pool: true });
    expect(first.dropped_results.map((r) => r.memory_id)).toEqual(["m-0-4"]);
    expect(first.results).toHaveLength(4);
    expect(first.confidence?.trace).toHaveLength(1);
    expect(first.selector).toMatchObject({ applied: true, model: "sel-model", dropped: 1 });
    expect(first.labels).toMatchObject({ present: "yes", results: { "m-0-1": true, "m-0-6": false }, labeler: "ana" });
    const ingested = lines.find((l) => l.id === specs[3]!.id)!;
    expect(ingested.candidates).toBeNull();
    expect(ingested.labels.present).toBe("no");
  });

  it("the per-candidate CSV has one row per candidate (per page row without a pool), with scores and labels", async () => {
    const text = await collect(await exportStream(prisma, HistoryFiltersSchema.parse({}), "candidates", 3));
    const rows = parse(text, { columns: true }) as Record<(typeof CANDIDATE_COLUMNS)[number], string>[];
    expect(Object.keys(rows[0]!)).toEqual([...CANDIDATE_COLUMNS]);
    const expectedRows = specs.reduce((n, s) => n + (s.withPool ? POOL : 5), 0);
    expect(rows).toHaveLength(expectedRows);
    for (const spec of specs) {
      const mine = rows.filter((r) => r.recall_id === spec.id);
      expect(mine).toHaveLength(spec.withPool ? POOL : 5);
      expect(mine.every((r) => r.from_pool === String(spec.withPool))).toBe(true);
    }
    const r01 = rows.find((r) => r.recall_id === specs[0]!.id && r.memory_id === "m-0-1")!;
    expect(r01).toMatchObject({ rank: "2", raw_cosine: "0.75", bm25: "6.5", hybrid: "0.8", score: "0.8" });
    expect(r01).toMatchObject({ in_pool: "true", returned: "true", dropped: "false", relevant: "true" });
    const r06 = rows.find((r) => r.recall_id === specs[0]!.id && r.memory_id === "m-0-6")!;
    expect(r06).toMatchObject({ in_pool: "false", returned: "false", score: "", relevant: "false" });
    const r04 = rows.find((r) => r.recall_id === specs[0]!.id && r.memory_id === "m-0-4")!;
    // On the store's page (returned), removed by the selector (dropped).
    expect(r04).toMatchObject({ dropped: "true", returned: "true" });
    const r00 = rows.find((r) => r.recall_id === specs[0]!.id && r.memory_id === "m-0-0")!;
    expect(r00.bm25).toBe(""); // no keyword score for this candidate
    const noPool = rows.filter((r) => r.recall_id === specs[3]!.id);
    expect(noPool.map((r) => r.rank)).toEqual(["1", "2", "3", "4", "5"]);
    expect(noPool[0]).toMatchObject({ raw_cosine: "", in_pool: "", returned: "true", relevant: "false", score: "0.9" });
    // A formula in a query is neutralized.
    expect(rows.filter((r) => r.recall_id === specs[5]!.id).every((r) => r.query.startsWith("'="))).toBe(true);
  });

  it("applies the History filters and writes only the header when nothing matches", async () => {
    const prod = await collect(await exportStream(prisma, HistoryFiltersSchema.parse({ store: "prod" }), "jsonl"));
    expect(prod.trimEnd().split("\n")).toHaveLength(specs.filter((s) => !s.withPool).length);
    const none = await collect(await exportStream(prisma, HistoryFiltersSchema.parse({ store: "nowhere" }), "candidates"));
    expect(none).toBe(`${CANDIDATE_COLUMNS.join(",")}\n`);
    expect(await collect(await exportStream(prisma, HistoryFiltersSchema.parse({ store: "nowhere" }), "jsonl"))).toBe("");
  });
});
