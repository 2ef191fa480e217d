/**
 * `npm run bench -- history [--recalls 1000000] [--runs 50] [--only pglite|postgresql]`
 *
 * Fills a throw-away log with synthetic recalls (for the benchmark only: spread over 90 days, a
 * realistic mix of stores, levels and selector outcomes, 1 in 100 with a 20-candidate pool),
 * then prints p50/p95 for the first history page, filtered pages, a deep cursor page, a text
 * search, one detail, and ingest throughput — on PGlite and on PostgreSQL.
 */
import { PrismaClient } from "@prisma/client";
import { randomUUID } from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { fmtMs, option, percentile, prng } from "./stats";
import type { DatabaseConfig } from "../../lib/db/server/config";
import { openDatabase } from "../../lib/db/server/connection";
import { migrate } from "../../lib/db/server/migrator";
import { DEFAULT_THRESHOLDS } from "../../lib/recall/thresholds";
import { encodeHistoryCursor, HistoryQuerySchema } from "../../lib/recall-log/history";
import { listRecalls } from "../../lib/recall-log/server/history-list";
import { ingestRecalls } from "../../lib/recall-log/server/ingest";
import { findRecall, insertRecalls, recallRow } from "../../lib/recall-log/server/repository";
import { startTestPostgres } from "../../tests/support/postgres-server";

const LEVELS = ["high", "moderate", "moderate", "low", "low", "none"] as const;
const STORES = ["embedded", "prod", "staging"];
const WORDS =
  "deploy invoice postgres kafka standup budget hiring outage rollback cache latency vendor travel review roadmap".split(" ");

export async function run(args: string[]): Promise<void> {
  const total = Number(option(args, "recalls", "1000000"));
  const runs = Number(option(args, "runs", "50"));
  const only = option(args, "only", "");
  const scratch = fs.mkdtempSync(path.join(os.tmpdir(), "recall-bench-history-"));
  const postgres = only === "pglite" ? null : await startTestPostgres();
  try {
    const targets: [string, DatabaseConfig][] = [];
    if (only !== "postgresql") targets.push(["pglite", { kind: "pglite", dataDir: path.join(scratch, "pglite") }]);
    if (postgres) targets.push(["postgresql", { kind: "postgresql", url: postgres.adminUrl, display: "test server" }]);
    console.log(`history benchmark — ${total.toLocaleString("en")} synthetic recalls, ${runs} runs per query`);
    for (const [name, config] of targets) await benchOne(name, config, total, runs);
  } finally {
    await postgres?.stop();
    fs.rmSync(scratch, { recursive: true, force: true });
  }
}

async function benchOne(name: string, config: DatabaseConfig, total: number, runs: number): Promise<void> {
  const db = await openDatabase(config);
  const prisma = new PrismaClient({ adapter: db.adapter });
  try {
    await migrate(db);
    const random = prng(7);
    const now = Date.now();
    const fillStart = performance.now();
    let withPool: string | null = null;
    for (let start = 0; start < total; start += 2_000) {
      const rows = Array.from({ length: Math.min(2_000, total - start) }, (_, i) => {
        const n = start + i;
        const level = LEVELS[n % LEVELS.length]!;
        const applied = n % 3 !== 0;
        const dropped = applied ? n % 4 : 0;
        const top = 0.3 + random() * 0.6;
        const hasPool = n % 100 === 0;
        const row = recallRow({
          id: randomUUID(),
          createdAt: new Date(now - Math.floor(random() * 90 * 86_400_000)),
          request: {
            store: STORES[n % STORES.length]!,
            query: `${WORDS[n % WORDS.length]} question ${n}`,
            k: 5,
            search_mode: "hybrid",
            use_rerank: false,
            selector: applied ? "llm" : "off",
          },
          latencyMs: 5 + random() * 50,
          outcome: {
            results: Array.from({ length: 5 }, (_, r) => ({
              memory_id: `m-${(n + r) % 5000}`,
              summary: "synthetic memory summary",
              score: 1 - r * 0.1,
            })),
            confidence: {
              level,
              top_score: Math.round(top * 1000) / 1000,
              prominence: 0.3,
              relative_margin: 2,
              result_count: 5,
              rationale: "synthetic",
              background_mean: top / 1.3,
              background_std: 0.05,
              basis: "semantic",
              thresholds: "default",
              threshold_values: { ...DEFAULT_THRESHOLDS },
              trace: [],
            },
            selector: applied
              ? {
                  applied: true,
                  model: n % 2 ? "gpt-small" : "score-gap",
                  kept: 5 - dropped,
                  dropped,
                  dropped_memory_ids: Array.from({ length: dropped }, (_, d) => `m-${(n + 4 - d) % 5000}`),
                }
              : { applied: false, reason: "disabled" },
            candidates: hasPool
              ? Array.from({ length: 20 }, (_, r) => ({
                  memory_id: `m-${(n + r) % 5000}`,
                  summary: "synthetic",
                  rank: r + 1,
                  raw_cosine: top - r * 0.02,
                  keyword_score: null,
                  hybrid_score: 1 - r * 0.04,
                  in_pool: r < 5,
                  returned: r < 5,
                }))
              : null,
            timings: { embed_ms: 10 },
          },
        });
        if (hasPool) withPool = row.id;
        return row;
      });
      await insertRecalls(prisma, rows);
      if ((start / 2_000) % 50 === 0) process.stdout.write(`\r  ${name}: filled ${start.toLocaleString("en")}…`);
    }
    const fillS = (performance.now() - fillStart) / 1000;
    await db.withSession((s) => s.query("ANALYZE"));
    console.log(
      `\r  ${name}: filled ${total.toLocaleString("en")} recalls in ${fillS.toFixed(0)} s (${Math.round(total / fillS).toLocaleString("en")}/s)`,
    );

    const middle = await prisma.recall.findFirst({
      orderBy: [{ createdAt: "desc" }, { id: "desc" }],
      skip: Math.floor(total / 2),
      select: { createdAt: true, id: true },
    });
    const cases: [string, () => Promise<unknown>][] = [
      ["first history page", () => listRecalls(prisma, HistoryQuerySchema.parse({}))],
      ["filtered: level=none,low", () => listRecalls(prisma, HistoryQuerySchema.parse({ level: "none,low" }))],
      [
        "filtered: store+selector+dropped",
        () => listRecalls(prisma, HistoryQuerySchema.parse({ store: "prod", selector_applied: "true", has_dropped: "true" })),
      ],
      [
        "filtered: last 24 h",
        () => listRecalls(prisma, HistoryQuerySchema.parse({ from: new Date(now - 86_400_000).toISOString() })),
      ],
      [
        "deep cursor page (middle)",
        () => listRecalls(prisma, HistoryQuerySchema.parse({ cursor: encodeHistoryCursor(middle!) })),
      ],
      ["text search (rare term)", () => listRecalls(prisma, HistoryQuerySchema.parse({ q: "question 777777" }))],
      ["one detail (20-candidate pool)", () => findRecall(prisma, withPool!)],
    ];
    console.log(`  ${"query".padEnd(34)} p50 ms   p95 ms`);
    for (const [label, fn] of cases) {
      await fn(); // warm
      const samples: number[] = [];
      for (let i = 0; i < runs; i++) {
        const t = performance.now();
        await fn();
        samples.push(performance.now() - t);
      }
      console.log(
        `  ${label.padEnd(34)} ${fmtMs(percentile(samples, 50)).padStart(6)}   ${fmtMs(percentile(samples, 95)).padStart(6)}`,
      );
    }

    // Ingest: the reference service's full response, in batches of 500 through the real path.
    const response = {
      results: Array.from({ length: 5 }, (_, r) => ({ memory_id: `r-${r}`, summary: "from production", score: 0.9 - r * 0.1 })),
      related_tags: [],
      confidence: {
        level: "high",
        top_score: 0.919,
        prominence: 0.559,
        relative_margin: 4.989,
        result_count: 8,
        rationale:
          "Top semantic cosine 0.92, prominence 0.56 above the candidate-pool mean (0.59); top hit is a strong, clearly-separated match.",
      },
      selector: { applied: true, model: "prod", kept: 4, dropped: 1, dropped_memory_ids: ["r-4"] },
    };
    const batches = 10;
    const t = performance.now();
    for (let b = 0; b < batches; b++) {
      await ingestRecalls(
        prisma,
        Array.from({ length: 500 }, (_, i) => ({
          external_id: `bench-${b}-${i}`,
          store: "prod",
          request: { query: `ingested ${b} ${i}`, k: 5 },
          response,
          latency_ms: 40,
        })),
      );
    }
    const seconds = (performance.now() - t) / 1000;
    console.log(
      `  ingest: ${batches * 500} recalls in batches of 500: ${Math.round((batches * 500) / seconds).toLocaleString("en")} recalls/s`,
    );
  } finally {
    await prisma.$disconnect();
    await db.close();
  }
}
