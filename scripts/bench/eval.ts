/**
 * `npm run bench -- eval [--memories 10000] [--queries 1000] [--k 10] [--page]`
 *
 * A labeled run at size: the demo corpus (345 real memories, embedded with USE-lite) plus
 * synthetic filler up to --memories (random unit vectors, so scanning costs what it costs at that
 * size), and a set of --queries queries (the demo's 106 labeled queries, cycled and numbered so
 * each is embedded afresh). The run goes through the app's run code (lib/eval/runs.ts →
 * runRecall, every query logged), so queries/s includes embedding, retrieval, confidence and the
 * log write. Then the report: `evalRunReport` (what GET /api/eval-runs/{id} does on the server),
 * its JSON size, and the report page's client-side preparation (distributions, ROC, sorting).
 * With --page (needs `npx next build` first) it then serves the production build on the bench's
 * database and times the report page in Chromium: from navigation to the first query row, and to
 * every row rendered, in a fresh browser page each time.
 */
import { PrismaClient } from "@prisma/client";
import { spawn } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { fmtMs, option, percentile, prng } from "./stats";
import { prepareRocChart, prepareSignalDistribution } from "../../lib/charts/eval-report";
import { openDatabase } from "../../lib/db/server/connection";
import { migrate } from "../../lib/db/server/migrator";
import { UseLiteEmbedder } from "../../lib/embeddings/server/use-lite";
import { normalize } from "../../lib/embeddings/types";
import { parseItems } from "../../lib/eval/dataset-schemas";
import { sortItems } from "../../lib/eval/report-table";
import { EvalRunBodySchema } from "../../lib/eval/run-schemas";
import { createDataset } from "../../lib/eval/server/datasets";
import { evalQueueIdle, evalRunReport, startEvalRun } from "../../lib/eval/server/runs";
import { readDemoCorpus } from "../../lib/stores/server/embedded/demo-corpus";
import { EmbeddedStore } from "../../lib/stores/server/embedded/embedded-store";
import { encodeVector } from "../../lib/stores/server/search-index/vector-codec";

export async function run(args: string[]): Promise<void> {
  const memories = Number(option(args, "memories", "10000"));
  const queryCount = Number(option(args, "queries", "1000"));
  const k = Number(option(args, "k", "10"));
  const scratch = fs.mkdtempSync(path.join(os.tmpdir(), "recall-bench-eval-"));
  const db = await openDatabase({ kind: "pglite", dataDir: path.join(scratch, "data") });
  const embedder = new UseLiteEmbedder();
  const random = prng(7);
  try {
    await migrate(db);
    const prisma = new PrismaClient({ adapter: db.adapter });
    const demo = readDemoCorpus();
    const filler = Math.max(0, memories - demo.length);
    await prisma.embeddedStoreRecord.create({ data: { name: "embedded" } });
    for (let start = 0; start < filler; start += 1000) {
      await prisma.memory.createMany({
        data: Array.from({ length: Math.min(1000, filler - start) }, (_, i) => ({
          store: "embedded",
          id: `filler-${start + i}`,
          summary: `Filler memory ${start + i} about nothing in particular`,
          embedding: encodeVector(normalize(Float32Array.from({ length: 512 }, () => random() * 2 - 1))),
          embeddingModel: embedder.id,
        })),
      });
    }
    const store = new EmbeddedStore(prisma, embedder);
    await store.load();
    await store.add(demo);
    const demoQueries = JSON.parse(fs.readFileSync(path.join(__dirname, "..", "..", "data", "demo", "queries.json"), "utf8")) as {
      query: string;
      kind: string;
      relevant: string[];
    }[];
    const parsed = parseItems(
      Array.from({ length: queryCount }, (_, i) => {
        const q = demoQueries[i % demoQueries.length]!;
        return {
          query: i < demoQueries.length ? q.query : `${q.query} (${Math.floor(i / demoQueries.length)})`,
          kind: q.kind,
          relevant: q.relevant,
        };
      }),
    );
    if (!parsed.ok) throw new Error("bench set invalid");
    const set = await createDataset(prisma, { store: store.name, name: "bench", items: parsed.items });
    console.log(
      `eval benchmark — node ${process.version}, ${os.cpus().length} cores; ${store.size.toLocaleString("en")} memories, ${queryCount} queries, k=${k}, hybrid, PGlite`,
    );

    await embedder.embed(["warm up the workers"]);
    const started = performance.now();
    const runStart = await startEvalRun(
      { prisma, resolveStore: async () => store, defaultStore: async () => store.name },
      EvalRunBodySchema.parse({ dataset_id: set.id, k }),
    );
    await evalQueueIdle();
    const runMs = performance.now() - started;
    const status = (await prisma.evalRun.findUnique({ where: { id: runStart!.id } }))!;
    console.log(
      `  run: ${status.status}, ${status.done} queries in ${(runMs / 1000).toFixed(1)} s = ${((status.done / runMs) * 1000).toFixed(1)} queries/s (${fmtMs(runMs / status.done)} ms per query, logging included)`,
    );

    const apiMs: number[] = [];
    const prepareMs: number[] = [];
    let bytes = 0;
    let report = null;
    for (let n = 0; n < 7; n++) {
      const t0 = performance.now();
      report = (await evalRunReport(prisma, runStart!.id))!;
      const body = JSON.stringify(report);
      apiMs.push(performance.now() - t0);
      bytes = Buffer.byteLength(body);
      const t1 = performance.now();
      const items = (JSON.parse(body) as typeof report).items;
      prepareSignalDistribution(items, "top_score", report.thresholds);
      prepareSignalDistribution(items, "prominence", report.thresholds);
      prepareRocChart(items);
      sortItems(items, "top_score", "desc");
      prepareMs.push(performance.now() - t1);
    }
    console.log(
      `  report (GET /api/eval-runs/{id} server work, read + metrics + JSON): p50 ${fmtMs(percentile(apiMs, 50))} ms, max ${fmtMs(Math.max(...apiMs))} ms; ${(bytes / 1024).toFixed(0)} KiB`,
    );
    console.log(`  report page preparation (parse, two distributions, ROC, sort): p50 ${fmtMs(percentile(prepareMs, 50))} ms`);
    const m = report!.metrics;
    // null when a class is empty (e.g. a short run of present queries only).
    const f = (x: number | null) => (x === null ? "n/a" : x.toFixed(3));
    console.log(
      `  metrics: hit@1 ${f(m.hit_at_1)}, MRR ${f(m.mrr)}, balanced accuracy ${f(m.balanced_accuracy)}, AUC top ${f(m.auc.top_score)} (filler memories are random vectors)`,
    );
    await prisma.$disconnect();
    if (args.includes("--page")) {
      // The app takes the PGlite directory over, so the bench lets go of it first.
      await db.close();
      await timeReportPage(path.join(scratch, "data"), runStart!.id, status.done);
    }
  } finally {
    await embedder.close();
    await db.close().catch(() => undefined);
    fs.rmSync(scratch, { recursive: true, force: true });
  }
}

/** `next start` on the bench's database, then the report page in Chromium, five times. */
async function timeReportPage(dataDir: string, runId: string, rows: number): Promise<void> {
  if (!fs.existsSync(path.join(process.cwd(), ".next", "BUILD_ID"))) {
    console.log("  report page: skipped (no production build; run `npx next build` first)");
    return;
  }
  const port = Number(option(process.argv, "port", "3390"));
  const origin = `http://127.0.0.1:${port}`;
  const server = spawn(path.join("node_modules", ".bin", "next"), ["start", "-H", "127.0.0.1", "-p", String(port)], {
    env: { ...process.env, PGLITE_DATA_DIR: dataDir, DEMO_CORPUS: "off", DATABASE_URL: "" },
    stdio: ["ignore", "ignore", "inherit"],
  });
  const { chromium } = await import("@playwright/test");
  const browser = await chromium.launch({ executablePath: process.env.CHROMIUM_PATH || "/usr/bin/chromium" });
  try {
    for (let tries = 0; ; tries++) {
      const ok = await fetch(`${origin}/api/eval-runs/${runId}`)
        .then((r) => r.ok)
        .catch(() => false);
      if (ok) break;
      if (tries > 240) throw new Error("the app did not start within 2 minutes");
      await new Promise((r) => setTimeout(r, 500));
    }
    const firstRow: number[] = [];
    const allRows: number[] = [];
    for (let n = 0; n < 5; n++) {
      const page = await browser.newPage({ viewport: { width: 1366, height: 900 } });
      const t0 = performance.now();
      await page.goto(`${origin}/evaluate/runs/${runId}`, { waitUntil: "commit" });
      await page.getByTestId("query-row").first().waitFor({ timeout: 120_000 });
      firstRow.push(performance.now() - t0);
      await page.waitForFunction((n) => document.querySelectorAll('[data-testid="query-row"]').length >= n, rows, {
        timeout: 120_000,
      });
      allRows.push(performance.now() - t0);
      await page.close();
    }
    console.log(
      `  report page in Chromium (production build, ${rows} queries): first query row p50 ${fmtMs(percentile(firstRow, 50))} ms (max ${fmtMs(Math.max(...firstRow))}), table filled p50 ${fmtMs(percentile(allRows, 50))} ms; load ${os.loadavg()[0]!.toFixed(1)}`,
    );
  } finally {
    await browser.close();
    server.kill("SIGTERM");
    await new Promise((r) => server.once("exit", r));
  }
}
