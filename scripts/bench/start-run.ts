/** The body of `npm run bench -- start` (see start.ts): one phase per process. */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { VOCABULARY, zipfWord } from "./recall";
import { fmtMs, mib, option, percentile, prng } from "./stats";

function cpuMs(since: NodeJS.CpuUsage): number {
  const used = process.cpuUsage(since);
  return (used.user + used.system) / 1000;
}

async function main(args: string[]): Promise<void> {
  const size = Number(option(args, "size", "100000"));
  const queries = Number(option(args, "queries", "200"));
  const phase = option(args, "phase", "snapshot");
  const dir = path.resolve(option(args, "data", path.join(os.tmpdir(), `recall-bench-start-${size}`)));
  const snapshotFile = path.join(dir, "index.snapshot");
  process.env.PGLITE_DATA_DIR = path.join(dir, "data");
  process.env.INDEX_SNAPSHOT = snapshotFile;
  process.env.DEMO_CORPUS = "off";
  delete process.env.DATABASE_URL;
  delete process.env.AUTH_PASSWORD;
  const random = prng(42);
  const sentence = (n: number) => Array.from({ length: n }, () => zipfWord(random)).join(" ");
  const load = () => `load ${os.loadavg()[0]!.toFixed(1)}`;

  if (phase === "fill") {
    const marker = path.join(dir, "filled");
    console.log(
      `start benchmark — node ${process.version}, ${os.cpus().length} cores, ${size.toLocaleString("en")} memories in ${dir}`,
    );
    if (fs.existsSync(marker)) return console.log("  (database already filled)");
    fs.rmSync(dir, { recursive: true, force: true });
    const { getPrisma } = await import("../../lib/db/server");
    const { normalize } = await import("../../lib/embeddings/types");
    const { USE_LITE_ID } = await import("../../lib/embeddings/server/config");
    const { encodeVector } = await import("../../lib/stores/server/search-index/vector-codec");
    const prisma = await getPrisma();
    const started = performance.now();
    for (let start = 0; start < size; start += 1000) {
      const rows = Array.from({ length: Math.min(1000, size - start) }, (_, i) => ({
        id: `bench-${start + i}`,
        summary: sentence(12 + Math.floor(random() * 20)),
        type: ["fact", "decision", "incident", "preference"][(start + i) % 4]!,
        tags: [VOCABULARY[(start + i) % 50]!],
        embedding: encodeVector(normalize(Float32Array.from({ length: 512 }, () => random() * 2 - 1))),
        embeddingModel: USE_LITE_ID,
      }));
      await prisma.embeddedStoreRecord.createMany({ data: [{ name: "embedded" }], skipDuplicates: true });
      await prisma.memory.createMany({ data: rows.map((row) => ({ store: "embedded", ...row })) });
    }
    console.log(`  filled in ${((performance.now() - started) / 1000).toFixed(1)} s (${load()})`);
    await closeDatabase();
    fs.writeFileSync(marker, String(size));
    return;
  }

  const { getEmbeddedStore } = await import("../../lib/stores/server/embedded");
  if (phase === "rebuild") fs.rmSync(snapshotFile, { force: true });
  const cpu = process.cpuUsage();
  const started = performance.now();
  const store = await getEmbeddedStore();
  const readyMs = performance.now() - started;
  const readyCpu = cpuMs(cpu);
  if (phase === "rebuild") {
    const writeStart = performance.now();
    await store.snapshotsWritten();
    const bytes = fs.existsSync(snapshotFile) ? fs.statSync(snapshotFile).size : 0;
    console.log(
      `\nstart without a snapshot: ready in ${fmtMs(readyMs)} ms (CPU ${fmtMs(readyCpu)} ms; ${load()}); snapshot written ${fmtMs(performance.now() - writeStart)} ms later, ${mib(bytes)}`,
    );
    return;
  }
  console.log(
    `\nstart from the snapshot: ready in ${fmtMs(readyMs)} ms (CPU ${fmtMs(readyCpu)} ms; ${load()}), ${store.size.toLocaleString("en")} memories`,
  );

  const { NextRequest } = await import("next/server");
  const { POST } = await import("../../app/api/recall/route");
  const pacedCount = Math.ceil(queries / 2);
  const queryTexts = Array.from({ length: 5 + queries + pacedCount }, () => sentence(4 + Math.floor(random() * 6)));
  const call = async (query: string) => {
    const request = new NextRequest(new URL("/api/recall", "http://localhost"), {
      method: "POST",
      body: JSON.stringify({ query, k: 10, search_mode: "hybrid" }),
      headers: { "content-type": "application/json" },
    });
    const t0 = performance.now();
    const response = await POST(request, { params: Promise.resolve({}) });
    const json = (await response.json()) as { timings?: Record<string, number>; message?: string };
    const wall = performance.now() - t0;
    if (response.status !== 200) throw new Error(`POST /api/recall answered ${response.status}: ${json.message}`);
    return { wall, timings: json.timings ?? {} };
  };
  // The first recalls start the query worker and warm the JIT.
  for (const q of queryTexts.slice(0, 5)) await call(q);
  const rest: number[] = [];
  const stages = new Map<string, number[]>();
  for (const q of queryTexts.slice(5, 5 + queries)) {
    const { wall, timings } = await call(q);
    const stageSum = Object.values(timings).reduce((a, b) => a + b, 0);
    rest.push(wall - (timings.embed_ms ?? 0));
    for (const [stage, ms] of [
      ...Object.entries(timings),
      ["outside the store (route, selector, log write)", wall - stageSum] as const,
    ]) {
      stages.set(stage, [...(stages.get(stage) ?? []), ms]);
    }
  }
  // Paced: a pause before each request, as between one person's queries, so a request does not
  // share the thread with the last one's background log write (lib/recall-log/README.md "The recall log").
  const paced: number[] = [];
  for (const q of queryTexts.slice(5 + queries)) {
    await new Promise((resolve) => setTimeout(resolve, 50));
    const { wall, timings } = await call(q);
    paced.push(wall - (timings.embed_ms ?? 0));
  }
  const line = (label: string, s: number[]) =>
    console.log(`  ${label.padEnd(40)} ${fmtMs(percentile(s, 50)).padStart(7)}  ${fmtMs(percentile(s, 95)).padStart(7)}`);
  console.log(`${queries} hybrid recalls, k=10, through POST /api/recall:     p50      p95  (ms; ${load()})`);
  line("request excluding the query embedding", rest);
  line(`the same, paced 50 ms apart (${paced.length})`, paced);
  for (const [stage, samples] of stages) line(`  ${stage}`, samples);
  global.gc?.();
  console.log(`  rss ${mib(process.memoryUsage().rss)}`);
}

/**
 * Closed before exit, as the server closes it at shutdown (lib/db/shutdown.ts): the next phase's
 * start, and the next run's, opens a cleanly shut down database instead of replaying its WAL.
 */
async function closeDatabase(): Promise<void> {
  await (
    await import("../../lib/db/server")
  )
    .closeDatabase()
    .catch((error: unknown) => console.error("closing the database:", error));
}

main(process.argv.slice(2))
  .finally(closeDatabase)
  .then(
    () => process.exit(0),
    (error: unknown) => {
      console.error(error);
      process.exit(1);
    },
  );
