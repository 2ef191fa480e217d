/**
 * `npm run bench -- what-if [--recalls 1000000] [--only pglite|postgresql]`
 *
 * Fills a throw-away log with synthetic recalls in one SQL statement (generate_series: seconds
 * instead of the history bench's minutes; 1 in 100 with a 20-candidate pool), then times a
 * what-if under the shipped USE-lite profile over all of them and over one store, on PGlite and
 * PostgreSQL: total time, recalls/s, and the time to the first progress event.
 */
import { PrismaClient } from "@prisma/client";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { option } from "./stats";
import type { DatabaseConfig } from "../../lib/db/server/config";
import { openDatabase } from "../../lib/db/server/connection";
import { migrate } from "../../lib/db/server/migrator";
import { SHIPPED_PROFILE } from "../../lib/profiles/builtin";
import { whatIf } from "../../lib/profiles/server/what-if";
import { HistoryFiltersSchema } from "../../lib/recall-log/history";
import { startTestPostgres } from "../../tests/support/postgres-server";

export async function run(args: string[]): Promise<void> {
  const total = Number(option(args, "recalls", "1000000"));
  const only = option(args, "only", "");
  const scratch = fs.mkdtempSync(path.join(os.tmpdir(), "recall-bench-whatif-"));
  const postgres = only === "pglite" ? null : await startTestPostgres();
  try {
    const targets: [string, DatabaseConfig][] = [];
    if (only !== "postgresql") targets.push(["pglite", { kind: "pglite", dataDir: path.join(scratch, "pglite") }]);
    if (postgres) targets.push(["postgresql", { kind: "postgresql", url: postgres.adminUrl, display: "test server" }]);
    console.log(
      `what-if benchmark — ${total.toLocaleString("en")} synthetic recalls (1 in 100 with a stored pool), profile ${SHIPPED_PROFILE.name}`,
    );
    for (const [name, config] of targets) await benchOne(name, config, total);
  } finally {
    await postgres?.stop();
    fs.rmSync(scratch, { recursive: true, force: true });
  }
}

async function benchOne(name: string, config: DatabaseConfig, total: number): Promise<void> {
  const db = await openDatabase(config);
  const prisma = new PrismaClient({ adapter: db.adapter });
  try {
    await migrate(db);
    const fillStart = performance.now();
    await prisma.$executeRawUnsafe(`
      INSERT INTO "recalls" ("id", "created_at", "store", "query", "k", "search_mode", "request", "level", "top_score",
        "prominence", "relative_margin", "basis", "has_candidates", "thresholds_profile")
      SELECT gen_random_uuid(), now() - (random() * 90) * interval '1 day', (ARRAY['embedded','prod','staging'])[1 + n % 3],
        'question ' || n, 5, 'hybrid', '{}'::jsonb, (ARRAY['high','moderate','moderate','low','low','none'])[1 + n % 6],
        round((0.2 + random() * 0.6)::numeric, 3)::float8, round((random() * 0.6)::numeric, 3)::float8, 2.0, 'semantic', n % 100 = 0, 'default'
      FROM generate_series(0, ${total - 1}) AS n`);
    await prisma.$executeRawUnsafe(`
      INSERT INTO "recall_candidates" ("recall_id", "rank", "memory_id", "raw_cosine", "hybrid_score", "in_pool", "returned")
      SELECT r."id", g, 'm-' || g, r."top_score" - g * 0.01, 1 - g * 0.04, g <= 5, g <= 5
      FROM "recalls" r CROSS JOIN generate_series(1, 20) AS g WHERE r."has_candidates"`);
    await db.withSession((s) => s.query("ANALYZE"));
    console.log(
      `  ${name}: filled ${total.toLocaleString("en")} recalls in ${((performance.now() - fillStart) / 1000).toFixed(1)} s`,
    );
    for (const [label, filters] of [
      ["all recalls", {}],
      ["one store (store=prod)", { store: "prod" }],
    ] as const) {
      const started = performance.now();
      let firstProgress: number | null = null;
      let result: { total: number; flip_count: number; from_pool: number } | null = null;
      for await (const event of whatIf(prisma, SHIPPED_PROFILE, HistoryFiltersSchema.parse(filters))) {
        if (event.type === "progress" && firstProgress === null) firstProgress = performance.now() - started;
        if (event.type === "result") result = event;
      }
      const s = (performance.now() - started) / 1000;
      console.log(
        `  ${name}: what-if over ${label}: ${result!.total.toLocaleString("en")} recalls (${result!.from_pool.toLocaleString("en")} from pools) in ${s.toFixed(1)} s — ` +
          `${Math.round(result!.total / s).toLocaleString("en")} recalls/s, first progress after ${(firstProgress ?? 0).toFixed(0)} ms, ${result!.flip_count.toLocaleString("en")} flips`,
      );
    }
  } finally {
    await prisma.$disconnect();
    await db.close();
  }
}
