/**
 * `npm run bench -- export [--recalls 1000000] [--pool-every 10] [--only pglite|postgresql] [--formats csv,jsonl,candidates]`
 *
 * Fills a throw-away log with synthetic recalls in SQL (generate_series, as the what-if bench:
 * a 5-row page, a confidence block with its trace, a selector block; one in `--pool-every` with a
 * stored 10-candidate pool), then streams the whole history through each export format
 * (`lib/recall-log/export.ts`, the code behind GET /api/recalls/export) into a sink that only
 * counts, printing recalls/s, output rows/s, MiB written, and the process's resident memory before
 * and at its peak (sampled every 50 ms) — the export must stay flat however many recalls there are.
 */
import { PrismaClient } from "@prisma/client";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { option } from "./stats";
import type { DatabaseConfig } from "../../lib/db/server/config";
import { openDatabase } from "../../lib/db/server/connection";
import { migrate } from "../../lib/db/server/migrator";
import { HistoryFiltersSchema } from "../../lib/recall-log/history";
import { EXPORT_FORMATS, exportStream, type ExportFormat } from "../../lib/recall-log/server/export";
import { startTestPostgres } from "../../tests/support/postgres-server";

const MiB = 1024 * 1024;

export async function run(args: string[]): Promise<void> {
  const total = Number(option(args, "recalls", "1000000"));
  const poolEvery = Number(option(args, "pool-every", "10"));
  const only = option(args, "only", "");
  const formats = option(args, "formats", EXPORT_FORMATS.join(","))
    .split(",")
    .filter((f): f is ExportFormat => (EXPORT_FORMATS as readonly string[]).includes(f));
  const scratch = fs.mkdtempSync(path.join(os.tmpdir(), "recall-bench-export-"));
  const postgres = only === "pglite" ? null : await startTestPostgres();
  try {
    const targets: [string, DatabaseConfig][] = [];
    if (only !== "postgresql") targets.push(["pglite", { kind: "pglite", dataDir: path.join(scratch, "pglite") }]);
    if (postgres) targets.push(["postgresql", { kind: "postgresql", url: postgres.adminUrl, display: "test server" }]);
    console.log(
      `export benchmark — ${total.toLocaleString("en")} synthetic recalls (1 in ${poolEvery} with a 10-candidate pool); load average ${os
        .loadavg()
        .map((l) => l.toFixed(1))
        .join(" / ")}`,
    );
    for (const [name, config] of targets) await benchOne(name, config, total, poolEvery, formats);
  } finally {
    await postgres?.stop();
    fs.rmSync(scratch, { recursive: true, force: true });
  }
}

async function benchOne(name: string, config: DatabaseConfig, total: number, poolEvery: number, formats: ExportFormat[]) {
  const db = await openDatabase(config);
  const prisma = new PrismaClient({ adapter: db.adapter });
  try {
    await migrate(db);
    const fillStart = performance.now();
    await prisma.$executeRawUnsafe(`
      INSERT INTO "recalls" ("id", "created_at", "store", "query", "k", "search_mode", "request", "level", "top_score",
        "prominence", "relative_margin", "basis", "has_candidates", "thresholds_profile", "confidence", "results",
        "returned_count", "selector_applied", "selector_model", "selector_kept", "selector_dropped", "selector")
      SELECT gen_random_uuid(), now() - n * interval '1 second', (ARRAY['embedded','prod','staging'])[1 + n % 3],
        'question ' || n, 5, 'hybrid',
        jsonb_build_object('store', 'embedded', 'query', 'question ' || n, 'k', 5, 'search_mode', 'hybrid', 'use_rerank', false, 'selector', 'off'),
        (ARRAY['high','moderate','moderate','low','low','none'])[1 + n % 6],
        0.61, 0.32, 2.0, 'semantic', n % ${poolEvery} = 0, 'default',
        jsonb_build_object('level', 'moderate', 'top_score', 0.61, 'prominence', 0.32, 'relative_margin', 2.0, 'result_count', 5,
          'rationale', 'synthetic', 'basis', 'semantic', 'thresholds', 'default',
          'trace', jsonb_build_array(jsonb_build_object('rule', 'basis', 'basis', 'semantic', 'candidate_count', 5, 'semantic_count', 5))),
        (SELECT jsonb_agg(jsonb_build_object('memory_id', 'm-' || g, 'summary', 'synthetic memory number ' || g, 'score', 0.9 - g * 0.05))
           FROM generate_series(1, 5) AS g),
        5, true, 'score-gap', 5, 0, jsonb_build_object('applied', true, 'model', 'score-gap', 'kept', 5, 'dropped', 0)
      FROM generate_series(0, ${total - 1}) AS n`);
    await prisma.$executeRawUnsafe(`
      INSERT INTO "recall_candidates" ("recall_id", "rank", "memory_id", "summary", "raw_cosine", "keyword_score", "hybrid_score", "in_pool", "returned")
      SELECT r."id", g, 'm-' || g, 'synthetic memory number ' || g, 0.6 - g * 0.01, 8.0 - g * 0.5, 1 - g * 0.04, g <= 5, g <= 5
      FROM "recalls" r CROSS JOIN generate_series(1, 10) AS g WHERE r."has_candidates"`);
    await db.withSession((s) => s.query("ANALYZE"));
    console.log(
      `  ${name}: filled ${total.toLocaleString("en")} recalls in ${((performance.now() - fillStart) / 1000).toFixed(1)} s`,
    );

    for (const format of formats) {
      global.gc?.();
      const before = process.memoryUsage().rss;
      let peak = before;
      const sampler = setInterval(() => {
        peak = Math.max(peak, process.memoryUsage().rss);
      }, 50);
      const started = performance.now();
      let bytes = 0;
      let lines = 0;
      const reader = (await exportStream(prisma, HistoryFiltersSchema.parse({}), format)).getReader();
      for (;;) {
        const { done, value } = await reader.read();
        if (done) break;
        bytes += value.byteLength;
        for (let i = 0; i < value.length; i++) if (value[i] === 10) lines++;
      }
      clearInterval(sampler);
      peak = Math.max(peak, process.memoryUsage().rss);
      const s = (performance.now() - started) / 1000;
      // CSV rows can span lines only when a cell holds a newline; the synthetic data has none.
      const rows = format === "jsonl" ? lines : lines - 1;
      console.log(
        `  ${name}: ${format.padEnd(10)} ${rows.toLocaleString("en")} rows (${(bytes / MiB).toFixed(0)} MiB) in ${s.toFixed(1)} s — ` +
          `${Math.round(total / s).toLocaleString("en")} recalls/s, ${Math.round(rows / s).toLocaleString("en")} rows/s; ` +
          `RSS ${(before / MiB).toFixed(0)} MiB before, peak ${(peak / MiB).toFixed(0)} MiB (+${((peak - before) / MiB).toFixed(0)} MiB)`,
      );
    }
  } finally {
    await prisma.$disconnect();
    await db.close();
  }
}
