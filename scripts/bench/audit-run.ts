/**
 * The body of `npm run bench -- audit` (see audit.ts; `--demo` audits the demo store instead). For each size: a throw-away PGlite store of
 * synthetic memories (Zipf text as the recall benchmark's, random unit vectors: scans cost the
 * same whatever the vectors mean, while the probe queries are embedded for real, in bulk), then
 *  1. console recalls (a real query embedded at query priority, then the store's recall) every
 *     `--every` ms with nothing else running: p50/p95;
 *  2. the audit, with the same console recalls running beside it: its time, probe recalls per
 *     second, peak RSS, and the console's p50/p95 meanwhile. An audit longer than `--time-box`
 *     seconds is cancelled there and its rate extrapolated to the whole store (said so).
 *     `--sample N` probes N memories spread over the store (their recalls search all of it) and
 *     extrapolates the whole store's time from their rate (said so);
 *  3. the console recalls with nothing else running again, so a change in the machine's load
 *     during the run shows.
 * The audit paces itself (lib/audit/server/pacing.ts); the console's p95 with the audit minus
 * idle is the figure the issue bounds by the query-embedding wait behind an import.
 */
import { PrismaClient } from "@prisma/client";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { VOCABULARY, zipfWord } from "./recall";
import { fmtMs, mib, option, percentile, prng } from "./stats";
import { auditEmbeddedStore } from "../../lib/audit/server/assemble";
import { DEFAULT_LOG_DAYS, DEFAULT_MIN_APPEARANCES, DEFAULT_SHADOW_THRESHOLD } from "../../lib/audit/types";
import { openDatabase } from "../../lib/db/server/connection";
import { migrate } from "../../lib/db/server/migrator";
import { UseLiteEmbedder } from "../../lib/embeddings/server/use-lite";
import { normalize } from "../../lib/embeddings/types";
import { RecallBodySchema } from "../../lib/recall-log/schemas";
import { runRecall } from "../../lib/recall-log/server/run-recall";
import { readDemoCorpus } from "../../lib/stores/server/embedded/demo-corpus";
import { EmbeddedStore } from "../../lib/stores/server/embedded/embedded-store";
import { encodeVector } from "../../lib/stores/server/search-index/vector-codec";

/**
 * `--demo`: the demo corpus in a throw-away store `demo`, its labeled queries logged at k = 5 and
 * 10 with the score-gap selector (as the console logs them), then the audit: counts per class and
 * a few examples of each.
 */
async function auditDemo(): Promise<void> {
  const embedder = new UseLiteEmbedder();
  const scratch = fs.mkdtempSync(path.join(os.tmpdir(), "audit-demo-"));
  const db = await openDatabase({ kind: "pglite", dataDir: path.join(scratch, "data") });
  try {
    await migrate(db);
    const prisma = new PrismaClient({ adapter: db.adapter });
    const store = new EmbeddedStore(prisma, embedder, { name: "demo" });
    await store.open();
    await store.add(readDemoCorpus());
    const queries = (
      JSON.parse(fs.readFileSync(path.join(process.cwd(), "data", "demo", "queries.json"), "utf8")) as { query: string }[]
    ).map((q) => q.query);
    for (const query of queries) {
      for (const k of [5, 10]) await runRecall(RecallBodySchema.parse({ query, k, selector: "gap" }), store, prisma);
    }
    const started = performance.now();
    const result = await auditEmbeddedStore(prisma, store, {
      shadow_threshold: DEFAULT_SHADOW_THRESHOLD,
      log_days: DEFAULT_LOG_DAYS,
      min_appearances: DEFAULT_MIN_APPEARANCES,
    });
    console.log(
      `demo store: ${result.memories} memories, ${queries.length * 2} logged recalls, audited in ${((performance.now() - started) / 1000).toFixed(1)} s (${result.probe_recalls.toLocaleString("en")} probe recalls)`,
    );
    console.log(`  counts: ${JSON.stringify(result.counts)}; ${result.clusters.length} near-duplicate clusters`);
    for (const note of result.notes) console.log(`  note: ${note}`);
    for (const c of Object.keys(result.counts)) {
      for (const f of result.findings.filter((x) => x.classes.includes(c as never)).slice(0, 3)) {
        const why = f.unreachable?.reasons.map((r) => `${r.mode}: ${r.reason}`).join("; ") ?? "";
        const by = f.shadowed?.by.map((n) => `${n.memory_id} ${n.cosine.toFixed(3)}`).join(", ") ?? "";
        console.log(`  ${c.padEnd(15)} ${f.memory_id} ${why}${by} — ${f.summary.slice(0, 70)}`);
      }
    }
    await prisma.$disconnect();
  } finally {
    await db.close();
    fs.rmSync(scratch, { recursive: true, force: true });
  }
}

async function main(args: string[]): Promise<void> {
  if (args.includes("--demo")) return auditDemo();
  const sizes = option(args, "sizes", "10000").split(",").map(Number);
  const timeBox = Number(option(args, "time-box", "900")) * 1000;
  const every = Number(option(args, "every", "250"));
  const idleMs = Number(option(args, "idle", "20")) * 1000;
  const sample = args.includes("--sample") ? Number(option(args, "sample", "")) : undefined;
  if (sample !== undefined && !(sample >= 1)) throw new Error("--sample needs a number of memories ≥ 1");
  const embedder = new UseLiteEmbedder();
  const random = prng(34);
  const sentence = (n: number) => Array.from({ length: n }, () => zipfWord(random)).join(" ");
  const questions = Array.from({ length: 200 }, () => sentence(5 + Math.floor(random() * 5)));
  console.log(
    `audit benchmark — node ${process.version}, ${os.cpus().length} cores, ${os.cpus()[0]?.model ?? "?"}, load ${os.loadavg()[0]!.toFixed(1)}`,
  );
  await embedder.embed(["warm up"]);
  await Promise.all([0, 1, 2, 3].map(() => embedder.embed(["warm up every worker"], { priority: "bulk" })));

  for (const size of sizes) {
    const scratch = fs.mkdtempSync(path.join(os.tmpdir(), "audit-bench-"));
    const db = await openDatabase({ kind: "pglite", dataDir: path.join(scratch, "data") });
    try {
      await migrate(db);
      const prisma = new PrismaClient({ adapter: db.adapter });
      await prisma.embeddedStoreRecord.createMany({ data: [{ name: "embedded" }], skipDuplicates: true });
      for (let start = 0; start < size; start += 1000) {
        const rows = Array.from({ length: Math.min(1000, size - start) }, (_, i) => ({
          store: "embedded",
          id: `bench-${String(start + i).padStart(7, "0")}`,
          summary: sentence(12 + Math.floor(random() * 20)),
          type: "fact",
          tags: [VOCABULARY[100 + ((start + i) % 400)]!],
          embedding: encodeVector(normalize(Float32Array.from({ length: embedder.dim }, () => random() * 2 - 1))),
          embeddingModel: embedder.id,
        }));
        await prisma.memory.createMany({ data: rows });
      }
      const store = new EmbeddedStore(prisma, embedder);
      await store.load();
      console.log(`\n${size.toLocaleString("en")} memories`);

      let asked = 0;
      const consoleRecalls = async (until: () => boolean): Promise<number[]> => {
        const samples: number[] = [];
        while (!until()) {
          const started = performance.now();
          await store.recall({ query: questions[asked++ % questions.length]!, k: 10, searchMode: "hybrid" });
          samples.push(performance.now() - started);
          await new Promise((resolve) => setTimeout(resolve, every));
        }
        return samples;
      };
      const idleEnd = performance.now() + idleMs;
      const idle = await consoleRecalls(() => performance.now() > idleEnd);

      const controller = new AbortController();
      const timer = setTimeout(() => controller.abort(), timeBox);
      let progress = { done: 0, total: size, recalls: 0 };
      let peakRss = process.memoryUsage().rss;
      const sampler = setInterval(() => (peakRss = Math.max(peakRss, process.memoryUsage().rss)), 500);
      const rssBefore = process.memoryUsage().rss;
      const started = performance.now();
      let finished = false;
      const settings = {
        shadow_threshold: DEFAULT_SHADOW_THRESHOLD,
        log_days: DEFAULT_LOG_DAYS,
        min_appearances: DEFAULT_MIN_APPEARANCES,
      };
      const audit = auditEmbeddedStore(prisma, store, settings, {
        sample,
        signal: controller.signal,
        onProgress: (done, total, recalls) => (progress = { done, total, recalls }),
      }).then(
        (result) => ({ result, cancelled: false }),
        (error: unknown) => {
          if (!controller.signal.aborted) throw error;
          return { result: null, cancelled: true };
        },
      );
      const during = consoleRecalls(() => finished);
      const outcome = await audit;
      finished = true;
      const ms = performance.now() - started;
      clearTimeout(timer);
      clearInterval(sampler);
      const busy = await during;
      const againEnd = performance.now() + idleMs;
      const again = await consoleRecalls(() => performance.now() > againEnd);

      const rate = progress.recalls / (ms / 1000);
      const memoriesPerS = progress.done / (ms / 1000);
      const whole = `the whole store at this rate: ~${(size / memoriesPerS / 60).toFixed(1)} min`;
      const probed = progress.total < size ? ` (a sample of ${progress.total.toLocaleString("en")} memories, --sample)` : "";
      console.log(
        outcome.cancelled
          ? `  audit: cancelled at the ${timeBox / 1000} s time box after ${progress.done.toLocaleString("en")} of ${progress.total.toLocaleString("en")} memories${probed}; ${whole}`
          : `  audit: ${(ms / 1000).toFixed(1)} s for ${progress.done.toLocaleString("en")} memories${probed}${probed ? `; ${whole}` : ""}`,
      );
      console.log(
        `  ${progress.recalls.toLocaleString("en")} probe recalls, ${rate.toFixed(0)} recalls/s, ${memoriesPerS.toFixed(1)} memories/s; rss ${mib(rssBefore)} before, peak ${mib(peakRss)}`,
      );
      if (outcome.result) console.log(`  counts: ${JSON.stringify(outcome.result.counts)}`);
      console.log(`  console recalls (embed + recall), every ${every} ms:   n     p50      p95   (ms)`);
      console.log(
        `    idle                                    ${String(idle.length).padStart(5)}  ${fmtMs(percentile(idle, 50)).padStart(6)}  ${fmtMs(percentile(idle, 95)).padStart(7)}`,
      );
      console.log(
        `    with the audit running                  ${String(busy.length).padStart(5)}  ${fmtMs(percentile(busy, 50)).padStart(6)}  ${fmtMs(percentile(busy, 95)).padStart(7)}`,
      );
      console.log(
        `    idle again after it                     ${String(again.length).padStart(5)}  ${fmtMs(percentile(again, 50)).padStart(6)}  ${fmtMs(percentile(again, 95)).padStart(7)}`,
      );
      const slower = percentile(busy, 95) - percentile([...idle, ...again], 95);
      console.log(`  p95 with the audit − idle (before and after): ${slower >= 0 ? "+" : ""}${fmtMs(slower)} ms`);
      await prisma.$disconnect();
    } finally {
      await db.close();
      fs.rmSync(scratch, { recursive: true, force: true });
    }
  }
}

main(process.argv.slice(2)).then(
  () => process.exit(0),
  (error: unknown) => {
    console.error(error);
    process.exit(1);
  },
);
