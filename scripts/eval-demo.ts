/**
 * `npm run eval [-- --k 10]`: loads the demo corpus into a throw-away embedded store and runs every
 * labeled query (data/demo/queries.json) in each search mode, printing hit@1, hit@5, MRR and the
 * confidence level mix for on-topic vs off-topic queries under the default thresholds.
 */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { PrismaClient } from "@prisma/client";
import { openDatabase } from "../lib/db/connection";
import { migrate } from "../lib/db/migrator";
import { UseLiteEmbedder } from "../lib/embeddings/use-lite";
import { retrievalReport, type LabeledQuery, type QueryOutcome } from "../lib/eval/retrieval-metrics";
import type { SearchMode } from "../lib/recall/merge";
import { readDemoCorpus } from "../lib/stores/demo-corpus";
import { EmbeddedStore } from "../lib/stores/embedded-store";
import { runScript } from "./run-script";

runScript(async () => {
  const kIndex = process.argv.indexOf("--k");
  const k = kIndex > 0 ? Number(process.argv[kIndex + 1]) : 10;
  const queries = JSON.parse(fs.readFileSync(path.join(__dirname, "..", "data", "demo", "queries.json"), "utf8")) as LabeledQuery[];
  const scratch = fs.mkdtempSync(path.join(os.tmpdir(), "recall-eval-"));
  const db = await openDatabase({ kind: "pglite", dataDir: path.join(scratch, "data") });
  const embedder = new UseLiteEmbedder();
  try {
    await migrate(db);
    const prisma = new PrismaClient({ adapter: db.adapter });
    const store = new EmbeddedStore(prisma, embedder);
    const { created } = await store.add(readDemoCorpus());
    console.log(`demo set: ${created} memories, ${queries.length} queries; k=${k}; default thresholds\n`);
    console.log("mode      hit@1  hit@5  MRR    | on-topic levels high/mod/low/none | off-topic levels high/mod/low/none");
    for (const mode of ["hybrid", "semantic", "keyword"] as SearchMode[]) {
      const outcomes: QueryOutcome[] = [];
      for (const query of queries) {
        const outcome = await store.recall({ query: query.query, k, searchMode: mode });
        outcomes.push({ query, ranked: outcome.results.map((r) => r.memory_id), level: outcome.confidence.level });
      }
      const r = retrievalReport(outcomes);
      const mix = (l: Record<string, number>) => `${l.high}/${l.moderate}/${l.low}/${l.none}`.padEnd(10);
      console.log(
        `${mode.padEnd(9)} ${r.hitAt1.toFixed(3)}  ${r.hitAt5.toFixed(3)}  ${r.mrr.toFixed(3)}  | ${mix(r.levels.on_topic).padStart(33)} | ${mix(r.levels.off_topic).padStart(34)}`,
      );
    }
    await prisma.$disconnect();
  } finally {
    await embedder.close();
    await db.close();
    fs.rmSync(scratch, { recursive: true, force: true });
  }
});
