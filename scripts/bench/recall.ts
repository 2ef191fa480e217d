/**
 * `npm run bench -- recall [--sizes 1000,10000,100000] [--queries 200] [--import 1000]`
 *
 * For each size: fills a throw-away PGlite database with synthetic memories (random unit vectors
 * and text from a fixed vocabulary — scanning cost does not depend on what vectors mean), times
 * the startup index rebuild, then runs hybrid recalls and prints per-stage percentiles and memory
 * use. Then imports real-looking memories through the real embedder to measure bulk import.
 */
import { PrismaClient } from "@prisma/client";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { fmtMs, mib, option, percentile, prng } from "./stats";
import { openDatabase } from "../../lib/db/server/connection";
import { migrate } from "../../lib/db/server/migrator";
import { UseLiteEmbedder } from "../../lib/embeddings/server/use-lite";
import { normalize } from "../../lib/embeddings/types";
import { readDemoCorpus } from "../../lib/stores/server/embedded/demo-corpus";
import { EmbeddedStore } from "../../lib/stores/server/embedded/embedded-store";
import { encodeVector } from "../../lib/stores/server/search-index/vector-codec";

/**
 * Synthetic text with a realistic shape: words drawn with Zipf's law (s = 1.07) over a 20,000-word
 * vocabulary whose 100 most frequent ranks are function words ("the", "and", …), as in English,
 * so content words are mostly rare. A uniform toy vocabulary would make every query term match
 * most memories, which no real corpus does.
 */
const FUNCTION_WORDS = "the and of to a in is that for it on was with as be at by this are from".split(" ");
const SYLLABLES = "ka lo mi ne ru sa ti vo ze pa do fi gu ha je ku la mo nu po qi re su ta ul ve wa xi yo zu".split(" ");
export const VOCABULARY = Array.from({ length: 20_000 }, (_, i) => {
  let word = "";
  let n = i + 1;
  while (n > 0) {
    word += SYLLABLES[n % SYLLABLES.length];
    n = Math.floor(n / SYLLABLES.length);
  }
  return word;
});
const ZIPF_CUMULATIVE = (() => {
  const weights = VOCABULARY.map((_, rank) => 1 / Math.pow(rank + 1, 1.07));
  const total = weights.reduce((a, b) => a + b, 0);
  let sum = 0;
  return weights.map((w) => (sum += w / total));
})();

export function zipfWord(random: () => number): string {
  const u = random();
  let lo = 0;
  let hi = ZIPF_CUMULATIVE.length - 1;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (ZIPF_CUMULATIVE[mid]! < u) lo = mid + 1;
    else hi = mid;
  }
  return lo < 100 ? FUNCTION_WORDS[lo % FUNCTION_WORDS.length]! : VOCABULARY[lo]!;
}

export async function run(args: string[]): Promise<void> {
  const sizes = option(args, "sizes", "1000,10000,100000").split(",").map(Number);
  const queries = Number(option(args, "queries", "200"));
  const importCount = Number(option(args, "import", "1000"));
  const embedder = new UseLiteEmbedder();
  const random = prng(42);
  const sentence = (n: number) => Array.from({ length: n }, () => zipfWord(random)).join(" ");
  const queryTexts = Array.from({ length: queries }, () => sentence(4 + Math.floor(random() * 6)));

  console.log(`recall benchmark — node ${process.version}, ${os.cpus().length} cores, ${os.cpus()[0]?.model ?? "?"}`);
  for (const size of sizes) {
    const scratch = fs.mkdtempSync(path.join(os.tmpdir(), "recall-bench-"));
    const db = await openDatabase({ kind: "pglite", dataDir: path.join(scratch, "data") });
    try {
      await migrate(db);
      const prisma = new PrismaClient({ adapter: db.adapter });
      const fillStart = performance.now();
      for (let start = 0; start < size; start += 1000) {
        const rows = Array.from({ length: Math.min(1000, size - start) }, (_, i) => {
          const vector = normalize(Float32Array.from({ length: 512 }, () => random() * 2 - 1));
          return {
            id: `bench-${start + i}`,
            summary: sentence(12 + Math.floor(random() * 20)),
            type: ["fact", "decision", "incident", "preference"][(start + i) % 4]!,
            tags: [VOCABULARY[(start + i) % 50]!],
            embedding: encodeVector(vector),
            embeddingModel: embedder.id,
          };
        });
        await prisma.embeddedStoreRecord.createMany({ data: [{ name: "embedded" }], skipDuplicates: true });
        await prisma.memory.createMany({ data: rows.map((row) => ({ store: "embedded", ...row })) });
      }
      const fillMs = performance.now() - fillStart;

      const heapBefore = process.memoryUsage();
      const store = new EmbeddedStore(prisma, embedder);
      const { ms: rebuildMs, readMs } = await store.load();
      global.gc?.();
      const heapAfter = process.memoryUsage();

      await store.recall({ query: queryTexts[0]!, k: 10, searchMode: "hybrid" });
      const stages: Record<string, number[]> = {};
      const withoutEmbed: number[] = [];
      for (const query of queryTexts) {
        const outcome = await store.recall({ query, k: 10, searchMode: "hybrid" });
        for (const [stage, ms] of Object.entries(outcome.timings)) (stages[stage] ??= []).push(ms);
        withoutEmbed.push(
          Object.entries(outcome.timings)
            .filter(([s]) => s !== "embed_ms")
            .reduce((sum, [, ms]) => sum + ms, 0),
        );
      }

      console.log(`\n${size.toLocaleString("en")} memories (filled in ${(fillMs / 1000).toFixed(1)} s)`);
      console.log(
        `  index rebuild at startup: ${fmtMs(rebuildMs)} ms (reading rows ${fmtMs(readMs)} ms, indexing ${fmtMs(rebuildMs - readMs)} ms)`,
      );
      console.log(
        `  memory: rss ${mib(heapAfter.rss)} (+${mib(heapAfter.rss - heapBefore.rss)} for the index), heap used ${mib(heapAfter.heapUsed)}, array buffers ${mib(heapAfter.arrayBuffers)}`,
      );
      console.log(`  ${queries} hybrid recalls, k=10:      p50      p95      max   (ms)`);
      for (const [stage, samples] of [...Object.entries(stages), ["total excluding embed", withoutEmbed] as const]) {
        console.log(
          `    ${stage.padEnd(24)} ${fmtMs(percentile(samples, 50)).padStart(7)}  ${fmtMs(percentile(samples, 95)).padStart(7)}  ${fmtMs(Math.max(...samples)).padStart(7)}`,
        );
      }
      await prisma.$disconnect();
    } finally {
      await db.close();
      fs.rmSync(scratch, { recursive: true, force: true });
    }
  }

  if (importCount > 0) {
    const scratch = fs.mkdtempSync(path.join(os.tmpdir(), "recall-bench-"));
    const db = await openDatabase({ kind: "pglite", dataDir: path.join(scratch, "data") });
    try {
      await migrate(db);
      const prisma = new PrismaClient({ adapter: db.adapter });
      const store = new EmbeddedStore(prisma, embedder);
      // Real English (the demo corpus's summaries, numbered): the model's cost depends on the
      // tokens, and synthetic pseudo-words split into many more word pieces than real text.
      const corpus = readDemoCorpus().map((m) => (m as { summary: string }).summary);
      const items = Array.from({ length: importCount }, (_, i) => ({
        summary: `${corpus[i % corpus.length]} (${i})`,
        tags: ["bench"],
      }));
      await embedder.embed(["warm up the workers"]);
      const start = performance.now();
      const { created } = await store.add(items);
      const seconds = (performance.now() - start) / 1000;
      console.log(
        `\nbulk import: ${created} memories (demo-corpus summaries, 15–35 words) in ${seconds.toFixed(1)} s = ${(created / seconds).toFixed(0)} memories/s (embedding on ${os.availableParallelism() > 1 ? "2 worker threads" : "1 worker thread"})`,
      );
      await prisma.$disconnect();
    } finally {
      await db.close();
      fs.rmSync(scratch, { recursive: true, force: true });
    }
  }
  await embedder.close();
}
