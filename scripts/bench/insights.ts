// PROTOTYPE (will be replaced)
import { randomUUID } from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { PrismaClient } from "@prisma/client";
import type { DatabaseConfig } from "../../lib/db/config";
import { openDatabase } from "../../lib/db/connection";
import { migrate } from "../../lib/db/migrator";
import { DEFAULT_THRESHOLDS } from "../../lib/recall/thresholds";
import { insertRecalls, recallRow } from "../../lib/recalls/repository";
import { startTestPostgres } from "../../tests/support/postgres-server";
import { fmtMs, percentile, prng } from "./stats";

const LEVELS = ["high", "moderate", "moderate", "low", "low", "none"] as const;
const STORES = ["embedded", "prod", "staging"];

export async function run(args: string[]): Promise<void> {
  const total = Number(args[0] ?? 300000);
  const days = Number(args[1] ?? 30);
  const only = args[2] ?? "";
  const scratch = fs.mkdtempSync(path.join(os.tmpdir(), "recall-bench-ins-"));
  const postgres = only === "pglite" ? null : await startTestPostgres();
  try {
    const targets: [string, DatabaseConfig][] = [];
    if (only !== "postgresql") targets.push(["pglite", { kind: "pglite", dataDir: process.env.PGLITE_DIR ?? path.join(scratch, "pglite") }]);
    if (postgres) targets.push(["postgresql", { kind: "postgresql", url: postgres.adminUrl, display: "test server" }]);
    for (const [name, config] of targets) await benchOne(name, config, total, days);
  } finally {
    await postgres?.stop();
    fs.rmSync(scratch, { recursive: true, force: true });
  }
}

async function benchOne(name: string, config: DatabaseConfig, total: number, days: number) {
  const db = await openDatabase(config);
  const prisma = new PrismaClient({ adapter: db.adapter });
  try {
    await migrate(db);
    const random = prng(7);
    const now = Date.now();
    const t0 = performance.now();
    for (let start = 0; start < total; start += 2000) {
      const rows = Array.from({ length: Math.min(2000, total - start) }, (_, i) => {
        const n = start + i;
        const applied = n % 3 !== 0;
        const dropped = applied ? n % 4 : 0;
        const top = 0.3 + random() * 0.6;
        const mem = () => `m-${Math.floor(Math.pow(random(), 2) * 3000)}`;
        const page = Array.from(new Set(Array.from({ length: 8 }, mem))).slice(0, 5);
        return recallRow({
          id: randomUUID(),
          createdAt: new Date(now - Math.floor(random() * days * 86_400_000)),
          request: { store: STORES[n % 3]!, query: `q ${n}`, k: 5, search_mode: "hybrid", use_rerank: false, selector: applied ? "llm" : "off" },
          latencyMs: 10,
          outcome: {
            results: page.map((id, r) => ({ memory_id: id, summary: "synthetic memory summary text", score: 1 - r * 0.1 })),
            confidence: { level: LEVELS[n % 6]!, top_score: top, prominence: 0.3, relative_margin: 2, result_count: 5, rationale: "s", background_mean: top / 1.3, background_std: 0.05, basis: "semantic", thresholds: "default", threshold_values: { ...DEFAULT_THRESHOLDS }, trace: [] },
            selector: applied ? { applied: true, model: n % 2 ? "gpt-small" : "score-gap", kept: page.length - Math.min(dropped, page.length - 1), dropped: Math.min(dropped, page.length - 1), dropped_memory_ids: page.slice(page.length - Math.min(dropped, page.length - 1)) } : { applied: false, reason: "disabled" },
            candidates: null,
            timings: {},
          },
        });
      });
      await insertRecalls(prisma, rows);
    }
    console.log(`${name}: filled ${total} in ${((performance.now() - t0) / 1000).toFixed(0)} s`);
    await db.withSession((s) => s.query("ANALYZE"));
    if (process.env.FILL_ONLY) return;
    const from = new Date(now - 30 * 86_400_000);
    const to = new Date(now);
    const qs: [string, string][] = [
      ["series raw", `SELECT date_trunc('day', created_at AT TIME ZONE 'Europe/Berlin') b, count(*), count(*) FILTER (WHERE status='error'), count(*) FILTER (WHERE selector_applied), sum(selector_kept), sum(selector_dropped), count(*) FILTER (WHERE level='high'), count(*) FILTER (WHERE level='low'), count(*) FILTER (WHERE level='none'), count(*) FILTER (WHERE level='moderate') FROM recalls WHERE created_at >= $1 AND created_at < $2 GROUP BY 1`],
      ["dropped unnest", `SELECT store, id, count(*) FROM recalls, unnest(dropped_memory_ids) id WHERE created_at >= $1 AND created_at < $2 AND cardinality(dropped_memory_ids) > 0 GROUP BY 1,2 ORDER BY 3 DESC LIMIT 20`],
      ["count", `SELECT count(*) FROM recalls WHERE created_at >= $1 AND created_at < $2`],
    ];
    for (const [label, sql] of qs) {
      const samples: number[] = [];
      for (let i = 0; i < 5; i++) {
        const t = performance.now();
        await db.withSession((s) => s.query(sql, [from, to]));
        samples.push(performance.now() - t);
      }
      console.log(`  ${label}: p50 ${fmtMs(percentile(samples, 50))} ms`);
    }
    const plan = await db.withSession((s) => s.query(`EXPLAIN ANALYZE ${qs[1]![1]}`, [from, to]));
    console.log(plan.map((r: any) => r["QUERY PLAN"]).join("\n"));
  } finally {
    await prisma.$disconnect();
    await db.close();
  }
}
