/**
 * `npm run bench -- insights [--recalls 1000000] [--days 90] [--runs 30] [--only pglite|postgresql] [--explain]`
 *
 * Fills a throw-away log with synthetic recalls (for the benchmark only: spread over `--days`
 * days up to now; three stores, two selector models, the selector off or not applying for a
 * share of recalls, 1 % failed, a few pages of 30 with more than 20 dropped, memories drawn from
 * a Zipf distribution over 5,000 per store), through the real insert path so the rollup triggers
 * run as they would in production, then prints p50/p95 of `getInsights` — the 30-day view the
 * page opens with first, and other ranges — and of the History pages its rows drill down to, on
 * PGlite and on PostgreSQL. `--explain` prints the 30-day view's query plans.
 */
import { PrismaClient } from "@prisma/client";
import { randomUUID } from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { fmtMs, option, percentile, prng } from "./stats";
import type { DatabaseConfig } from "../../lib/db/server/config";
import { openDatabase, type OpenDatabase } from "../../lib/db/server/connection";
import { migrate } from "../../lib/db/server/migrator";
import type { InsightsQuery } from "../../lib/insights/schema";
import { getInsights, insightsStatements } from "../../lib/insights/server/sql";
import type { IngestedSelectorBlock } from "../../lib/recall/selector-block";
import { DEFAULT_THRESHOLDS } from "../../lib/recall/thresholds";
import { HistoryQuerySchema } from "../../lib/recall-log/history";
import { listRecalls } from "../../lib/recall-log/server/history-list";
import { insertRecalls, recallRow } from "../../lib/recall-log/server/repository";
import { startTestPostgres } from "../../tests/support/postgres-server";

const DAY = 86_400_000;
const STORES = ["embedded", "prod", "staging"];
const MODELS = ["gpt-small", "score-gap"];
const LEVELS = ["high", "moderate", "moderate", "low", "low", "none"] as const;
const REASONS = ["disabled", "no_clear_gap", "too_few_results"];
const MEMORIES_PER_STORE = 5_000;
const BATCH = 2_000;

export async function run(args: string[]): Promise<void> {
  const total = Number(option(args, "recalls", "1000000"));
  const days = Number(option(args, "days", "90"));
  const runs = Number(option(args, "runs", "30"));
  const only = option(args, "only", "");
  const explain = args.includes("--explain");
  const scratch = fs.mkdtempSync(path.join(os.tmpdir(), "recall-bench-insights-"));
  const postgres = only === "pglite" ? null : await startTestPostgres();
  try {
    const targets: [string, DatabaseConfig][] = [];
    if (only !== "postgresql") targets.push(["pglite", { kind: "pglite", dataDir: path.join(scratch, "pglite") }]);
    if (postgres) targets.push(["postgresql", { kind: "postgresql", url: postgres.adminUrl, display: "test server" }]);
    console.log(`insights benchmark — ${total.toLocaleString("en")} synthetic recalls over ${days} days, ${runs} runs per query`);
    for (const [name, config] of targets) await benchOne(name, config, total, days, runs, explain);
  } finally {
    await postgres?.stop();
    fs.rmSync(scratch, { recursive: true, force: true });
  }
}

/** Ranks 0…n−1 drawn with P(rank) ∝ 1 / (rank + 1)^s. */
function zipf(n: number, s: number, random: () => number): () => number {
  const cdf = new Float64Array(n);
  let sum = 0;
  for (let i = 0; i < n; i++) cdf[i] = sum += 1 / Math.pow(i + 1, s);
  return () => {
    const u = random() * sum;
    let lo = 0;
    let hi = n - 1;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (cdf[mid]! < u) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  };
}

function syntheticRow(n: number, now: number, days: number, random: () => number, memory: () => number) {
  const store = STORES[n % STORES.length]!;
  const createdAt = new Date(now - Math.floor(random() * days * DAY));
  const failed = random() < 0.01;
  const request = {
    store,
    query: `synthetic question ${n}`,
    k: 5,
    search_mode: "hybrid" as const,
    use_rerank: false,
    selector: "llm" as const,
  };
  if (failed)
    return recallRow({
      id: randomUUID(),
      createdAt,
      request,
      latencyMs: 30,
      error: { code: "store_unavailable", message: "down", status: 502 },
    });

  const big = random() < 0.005; // a page of 30, most of it dropped: the id list stops at 20
  const size = big ? 30 : 5;
  const page: string[] = [];
  while (page.length < size) {
    const id = `${store}-m${memory()}`;
    if (!page.includes(id)) page.push(id);
  }
  const level = LEVELS[Math.floor(random() * LEVELS.length)]!;
  const top = 0.3 + random() * 0.6;
  const roll = random();
  let selector: IngestedSelectorBlock;
  let droppedIds: string[] = [];
  if (roll < 0.6) {
    let dropped: string[];
    if (big) dropped = page.slice(4);
    else if (level === "high" && random() < 0.03)
      dropped = [page[0]!]; // the top hit: a disagreement
    else dropped = page.slice(size - Math.floor(random() * 4));
    droppedIds = dropped;
    selector = {
      applied: true,
      model: MODELS[n % 2]!,
      kept: size - dropped.length,
      dropped: dropped.length,
      dropped_memory_ids: dropped.slice(0, 20),
    };
  } else {
    selector = { applied: false, reason: REASONS[Math.floor(random() * REASONS.length)]! };
  }
  return recallRow({
    id: randomUUID(),
    createdAt,
    request: { ...request, k: size },
    latencyMs: 5 + random() * 50,
    outcome: {
      results: page.map((id, r) => ({ memory_id: id, summary: `synthetic summary of ${id}`, score: 1 - r * 0.02 })),
      confidence: {
        level,
        top_score: Math.round(top * 1000) / 1000,
        prominence: 0.3,
        relative_margin: 2,
        result_count: size,
        rationale: "synthetic",
        background_mean: top / 1.3,
        background_std: 0.05,
        basis: "semantic",
        thresholds: "default",
        threshold_values: { ...DEFAULT_THRESHOLDS },
        trace: [],
      },
      selector,
      droppedIds,
      candidates: null,
      timings: {},
    },
  });
}

async function benchOne(
  name: string,
  config: DatabaseConfig,
  total: number,
  days: number,
  runs: number,
  explain: boolean,
): Promise<void> {
  const db = await openDatabase(config);
  const prisma = new PrismaClient({ adapter: db.adapter });
  try {
    await migrate(db);
    const random = prng(11);
    const memory = zipf(MEMORIES_PER_STORE, 1.1, random);
    const now = Date.now();
    const fillStart = performance.now();
    for (let start = 0; start < total; start += BATCH) {
      const rows = Array.from({ length: Math.min(BATCH, total - start) }, (_, i) =>
        syntheticRow(start + i, now, days, random, memory),
      );
      await insertRecalls(prisma, rows);
      if ((start / BATCH) % 25 === 0) process.stdout.write(`\r  ${name}: filled ${start.toLocaleString("en")}…`);
    }
    const fillS = (performance.now() - fillStart) / 1000;
    await db.withSession((s) => s.query("ANALYZE"));
    console.log(
      `\r  ${name}: filled ${total.toLocaleString("en")} recalls in ${fillS.toFixed(0)} s (${Math.round(total / fillS).toLocaleString("en")}/s, rollup triggers included)`,
    );
    await printSizes(db, now);

    const to = new Date(now);
    const q = (days: number, extra: Partial<InsightsQuery> = {}): InsightsQuery => ({
      from: new Date(now - days * DAY),
      to,
      bucket: "day",
      tz: "Europe/Berlin",
      ...extra,
    });
    const cases: [string, InsightsQuery][] = [
      ["30 days, by day (the page's default)", q(30)],
      ["30 days, by day, one store", q(30, { store: "prod" })],
      ["30 days, by day, one selector model", q(30, { selector_model: "score-gap" })],
      ["30 days, by hour, Asia/Kolkata", q(30, { bucket: "hour", tz: "Asia/Kolkata" })],
      ["7 days, by hour", q(7, { bucket: "hour" })],
      ["24 hours, by hour", q(1, { bucket: "hour" })],
      [`${days} days, by week`, q(days, { bucket: "week" })],
    ];
    if (explain) await printPlans(db, cases[0]![1]);
    const first = await getInsights(prisma, cases[0]![1]);
    console.log(
      `  30-day view: ${first.totals.recalls.toLocaleString("en")} recalls, drop rate ${((first.totals.drop_rate ?? 0) * 100).toFixed(1)} %, ` +
        `${first.series.length} buckets, ${first.most_dropped.items.length} most-dropped rows, ` +
        `${first.disagreements.top_dropped.total.toLocaleString("en")} + ${first.disagreements.weak_kept_all.total.toLocaleString("en")} disagreements`,
    );
    console.log(`  ${"insights query".padEnd(40)} p50 ms   p95 ms`);
    for (const [label, query] of cases) {
      await getInsights(prisma, query); // warm
      const samples: number[] = [];
      for (let i = 0; i < runs; i++) {
        const t = performance.now();
        await getInsights(prisma, query);
        samples.push(performance.now() - t);
      }
      console.log(
        `  ${label.padEnd(40)} ${fmtMs(percentile(samples, 50)).padStart(6)}   ${fmtMs(percentile(samples, 95)).padStart(6)}`,
      );
    }

    // What the page's rows open: the History filtered to the recalls behind them.
    const range = { from: new Date(now - 30 * DAY).toISOString(), to: to.toISOString() };
    const top = first.most_dropped.items[0];
    const drills: [string, Record<string, string>][] = [
      ["History: selector_model (a model row)", { ...range, selector_model: "score-gap" }],
      ...(top
        ? ([["History: dropped_memory (the top row)", { ...range, store: top.store, dropped_memory: top.memory_id }]] as [
            string,
            Record<string, string>,
          ][])
        : []),
      ["History: dropped_memory (a rare one)", { ...range, store: "prod", dropped_memory: `prod-m${MEMORIES_PER_STORE - 1}` }],
      ["History: weak hits kept whole", { ...range, level: "low,none", selector_applied: "true", has_dropped: "false" }],
    ];
    for (const [label, params] of drills) {
      const run = () => listRecalls(prisma, HistoryQuerySchema.parse(params));
      await run();
      const samples: number[] = [];
      for (let i = 0; i < runs; i++) {
        const t = performance.now();
        await run();
        samples.push(performance.now() - t);
      }
      console.log(
        `  ${label.padEnd(40)} ${fmtMs(percentile(samples, 50)).padStart(6)}   ${fmtMs(percentile(samples, 95)).padStart(6)}`,
      );
    }
  } finally {
    await prisma.$disconnect();
    await db.close();
  }
}

/** `--explain`: the plans of the four statements of the 30-day view. */
async function printPlans(db: OpenDatabase, query: InsightsQuery): Promise<void> {
  for (const [label, sql] of Object.entries(insightsStatements(query))) {
    const rows = await db.withSession((s) =>
      s.query<Record<string, string>>(`EXPLAIN (ANALYZE, BUFFERS) ${sql.text}`, sql.values as unknown[]),
    );
    console.log(`  --- ${label}\n${rows.map((r) => `  ${r["QUERY PLAN"]}`).join("\n")}`);
  }
}

async function printSizes(db: OpenDatabase, now: number): Promise<void> {
  const [row] = await db.withSession((s) =>
    s.query<Record<string, string | number>>(
      `SELECT (SELECT count(*) FROM recall_rollup) AS rollup_rows,
              (SELECT count(*) FROM recall_memory_rollup) AS memory_rows,
              (SELECT count(*) FROM recall_memory_rollup WHERE bucket >= $1::timestamptz AND dropped > 0) AS memory_rows_30d_dropped,
              (SELECT count(*) FROM recall_memory_summaries) AS summaries,
              pg_size_pretty(pg_total_relation_size('recall_rollup') + pg_total_relation_size('recall_memory_rollup') + pg_total_relation_size('recall_memory_summaries')) AS rollup_size,
              pg_size_pretty(pg_total_relation_size('recalls')) AS recalls_size`,
      [new Date(now - 30 * DAY)],
    ),
  );
  const n = (v: string | number | undefined) => Number(v ?? 0).toLocaleString("en");
  console.log(
    `  rollups: ${n(row?.rollup_rows)} rows (15 min), ${n(row?.memory_rows)} memory rows (hourly; ${n(row?.memory_rows_30d_dropped)} with drops in 30 days), ` +
      `${n(row?.summaries)} summaries — ${row?.rollup_size} (recalls: ${row?.recalls_size})`,
  );
}
