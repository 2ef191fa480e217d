/**
 * `npm run bench -- logging [--recalls 300]`: what logging a recall costs. Runs one real recall
 * on the demo corpus for a realistic row (k=5 and k=20 with their whole candidate lists), then
 * times writing it (`insertRecall`, one statement with its candidates: what a recall pays) and
 * reading it back (`findRecall`: what opening /recalls/{id} pays) on PGlite and on PostgreSQL.
 */
import { PrismaClient } from "@prisma/client";
import { randomUUID } from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { fmtMs, percentile } from "./stats";
import type { DatabaseConfig } from "../../lib/db/server/config";
import { openDatabase } from "../../lib/db/server/connection";
import { migrate } from "../../lib/db/server/migrator";
import { UseLiteEmbedder } from "../../lib/embeddings/server/use-lite";
import { selectorNotApplied } from "../../lib/recall/selector-block";
import { DEFAULT_THRESHOLDS } from "../../lib/recall/thresholds";
import { findRecall, insertRecall, recallRow } from "../../lib/recall-log/server/repository";
import { readDemoCorpus } from "../../lib/stores/server/embedded/demo-corpus";
import { EmbeddedStore } from "../../lib/stores/server/embedded/embedded-store";
import type { StoreRecallOutcome } from "../../lib/stores/types";
import { startTestPostgres } from "../../tests/support/postgres-server";

export async function run(args: string[]): Promise<void> {
  const i = args.indexOf("--recalls");
  const count = i >= 0 ? Number(args[i + 1]) : 300;
  const scratch = fs.mkdtempSync(path.join(os.tmpdir(), "recall-bench-log-"));
  const embedder = new UseLiteEmbedder();
  const postgres = await startTestPostgres();
  try {
    // One real outcome per k, from the demo corpus.
    const source = await openDatabase({ kind: "pglite", dataDir: path.join(scratch, "source") });
    await migrate(source);
    const sourcePrisma = new PrismaClient({ adapter: source.adapter });
    const store = new EmbeddedStore(sourcePrisma, embedder);
    await store.add(readDemoCorpus());
    const outcomes: [number, StoreRecallOutcome][] = [];
    for (const k of [5, 20]) {
      outcomes.push([
        k,
        await store.recall({ query: "why did we put a connection pooler in front of postgres", k, searchMode: "hybrid" }),
      ]);
    }
    await sourcePrisma.$disconnect();
    await source.close();

    const targets: [string, DatabaseConfig][] = [
      ["pglite", { kind: "pglite", dataDir: path.join(scratch, "target") }],
      ["postgresql", { kind: "postgresql", url: postgres.adminUrl, display: "test server" }],
    ];
    console.log(`logging benchmark — ${count} recalls per case; ms per recall`);
    for (const [name, config] of targets) {
      const db = await openDatabase(config);
      await migrate(db);
      const prisma = new PrismaClient({ adapter: db.adapter });
      for (const [k, outcome] of outcomes) {
        const write: number[] = [];
        const read: number[] = [];
        for (let n = 0; n < count; n++) {
          const row = recallRow({
            id: randomUUID(),
            createdAt: new Date(),
            request: { store: "embedded", query: "bench", k, search_mode: "hybrid", use_rerank: false, selector: "off" },
            latencyMs: 12.5,
            outcome: {
              results: outcome.results,
              confidence: { ...outcome.confidence, threshold_values: { ...DEFAULT_THRESHOLDS } },
              selector: selectorNotApplied("disabled"),
              candidates: outcome.candidates,
              timings: outcome.timings,
            },
          });
          let t = performance.now();
          await insertRecall(prisma, row);
          write.push(performance.now() - t);
          t = performance.now();
          await findRecall(prisma, row.id);
          read.push(performance.now() - t);
        }
        console.log(
          `  ${name.padEnd(10)} k=${String(k).padEnd(3)} (${outcome.candidates!.length} candidates)  log (added to the recall) p50 ${fmtMs(percentile(write, 50))} p95 ${fmtMs(percentile(write, 95))}  | read one back p50 ${fmtMs(percentile(read, 50))} p95 ${fmtMs(percentile(read, 95))}`,
        );
      }
      await prisma.$disconnect();
      await db.close();
    }
  } finally {
    await embedder.close();
    await postgres.stop();
    fs.rmSync(scratch, { recursive: true, force: true });
  }
}
