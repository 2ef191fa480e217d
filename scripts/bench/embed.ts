/**
 * `npm run bench -- embed [--import 10000] [--every 200]`
 *
 * The embedding queue under an import, in one run with the real USE-lite workers:
 * 1. the embedders' own rate: the import's texts embedded as one bulk job, nothing else running,
 *    before and again after (2), whose rate is compared with the two's mean (the rate drifts);
 * 2. the import through the store (what POST /api/memories runs: validation, embedding, the
 *    database write, indexing) into a throw-away PGlite database, nothing else running, and its
 *    rate against (1);
 * 3. the same import again with query embeddings fired every `--every` ms while it runs, and the
 *    same queries idle: p50/p95 of each. (Its rate is lower than (2)'s by the queries' own share
 *    of the two cores, so (2) is the one compared with (1).)
 */
import { PrismaClient } from "@prisma/client";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { fmtMs, option, percentile } from "./stats";
import { openDatabase } from "../../lib/db/server/connection";
import { migrate } from "../../lib/db/server/migrator";
import { UseLiteEmbedder } from "../../lib/embeddings/server/use-lite";
import { readDemoCorpus } from "../../lib/stores/server/embedded/demo-corpus";
import { EmbeddedStore } from "../../lib/stores/server/embedded/embedded-store";

export async function run(args: string[]): Promise<void> {
  const count = Number(option(args, "import", "10000"));
  const every = Number(option(args, "every", "200"));
  const embedder = new UseLiteEmbedder();
  const corpus = readDemoCorpus().map((m) => (m as { summary: string }).summary);
  const questions = (
    JSON.parse(fs.readFileSync(path.join(process.cwd(), "data", "demo", "queries.json"), "utf8")) as { query: string }[]
  ).map((q) => q.query);
  console.log(
    `embedding benchmark — node ${process.version}, ${os.cpus().length} cores, load ${os.loadavg()[0]!.toFixed(1)}, ${count.toLocaleString("en")} memories`,
  );
  await embedder.embed(["warm up"]);
  await Promise.all([0, 1, 2, 3].map(() => embedder.embed(["warm up every worker"], { priority: "bulk" })));

  const idle: number[] = [];
  for (const q of questions.slice(0, 40)) {
    const start = performance.now();
    await embedder.embed([q], { priority: "query" });
    idle.push(performance.now() - start);
  }

  const rawLeg = async (leg: string) => {
    const rawTexts = Array.from({ length: count }, (_, i) => `${corpus[i % corpus.length]} (${leg} ${i})`);
    const rawStart = performance.now();
    await embedder.embed(rawTexts, { priority: "bulk" });
    return count / ((performance.now() - rawStart) / 1000);
  };
  const rawBefore = await rawLeg("raw");

  const scratch = fs.mkdtempSync(path.join(os.tmpdir(), "embed-bench-"));
  const db = await openDatabase({ kind: "pglite", dataDir: path.join(scratch, "data") });
  try {
    await migrate(db);
    const prisma = new PrismaClient({ adapter: db.adapter });
    const store = new EmbeddedStore(prisma, embedder);
    const items = (leg: string) =>
      Array.from({ length: count }, (_, i) => ({ summary: `${corpus[i % corpus.length]} (${leg} ${i})`, tags: ["bench"] }));
    const aloneStart = performance.now();
    const alone = (await store.add(items("alone"))).created / ((performance.now() - aloneStart) / 1000);
    // The embedders' rate drifts over minutes on a shared machine: measured on both sides of the
    // import, and the import compared with their mean.
    const rawAfter = await rawLeg("raw again");
    const rawRate = (rawBefore + rawAfter) / 2;

    const during: number[] = [];
    let importing = true;
    const importStart = performance.now();
    const imported = store.add(items("queried")).finally(() => (importing = false));
    let q = 0;
    while (importing) {
      await new Promise((r) => setTimeout(r, every));
      if (!importing) break;
      const start = performance.now();
      await embedder.embed([questions[q++ % questions.length]!], { priority: "query" });
      during.push(performance.now() - start);
    }
    const { created } = await imported;
    const importRate = created / ((performance.now() - importStart) / 1000);
    await prisma.$disconnect();

    const line = (label: string, s: number[]) =>
      console.log(
        `  ${label.padEnd(46)} ${fmtMs(percentile(s, 50)).padStart(7)}  ${fmtMs(percentile(s, 95)).padStart(7)}  ${fmtMs(Math.max(...s)).padStart(7)}   (${s.length})`,
      );
    console.log(`\nquery embedding:                                   p50      p95      max   (ms, samples)`);
    line("idle", idle);
    line(`while the ${count.toLocaleString("en")}-memory import runs`, during);
    console.log(
      `\nembedders' own rate (one bulk job):  ${rawRate.toFixed(1)} texts/s (${rawBefore.toFixed(1)} before the import, ${rawAfter.toFixed(1)} after)`,
    );
    console.log(
      `import through the store:            ${alone.toFixed(1)} memories/s = ${(alone / rawRate).toFixed(3)} of the embedders' rate`,
    );
    console.log(
      `  the same while queries are embedded: ${importRate.toFixed(1)} memories/s = ${(importRate / rawRate).toFixed(3)}`,
    );
  } finally {
    await db.close();
    fs.rmSync(scratch, { recursive: true, force: true });
    await embedder.close();
  }
}
