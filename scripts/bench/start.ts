/**
 * `npm run bench -- start [--size 100000] [--queries 200] [--data DIR] [--phases fill,rebuild,snapshot,server]`
 *
 * How soon the app can answer at a size, and what a recall then costs in the server, in fresh
 * processes under the react-server condition (the route handlers' own modules):
 * 1. fill (once; kept in DIR, default the temp folder, for the next run): a PGlite database with
 *    `size` synthetic memories (random unit vectors, Zipf-distributed text: recall.ts's corpus);
 * 2. a start with no snapshot: `getEmbeddedStore()` (database open, migrations, index rebuild)
 *    timed, then the snapshot it writes;
 * 3. a start that reads the snapshot, timed the same way, then `queries` hybrid k=10 recalls
 *    through POST /api/recall's handler (validation, store, selector, logging, the answer):
 *    wall time per request minus the query's own embedding (embed_ms), p50/p95, and RSS — back
 *    to back, and paced 50 ms apart (half as many), where a request no longer shares the thread
 *    with the previous one's background log write;
 * 4. with a production build (`npx next build`), the real server: `next start` on the same
 *    database and snapshot, from spawn to listening, to the index's start-up line, and to the
 *    first recall answered.
 */
import { spawn } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { runWithServerConditions } from "./server-conditions";
import { fmtMs, option } from "./stats";

export async function run(args: string[]): Promise<void> {
  const entry = path.join(__dirname, "start-run.ts");
  const phases = option(args, "phases", "fill,rebuild,snapshot,server").split(",");
  for (const phase of ["fill", "rebuild", "snapshot"].filter((p) => phases.includes(p))) {
    await runWithServerConditions(entry, [...args, "--phase", phase]);
  }
  if (phases.includes("server")) await timeServerStart(args);
}

async function timeServerStart(args: string[]): Promise<void> {
  if (!fs.existsSync(path.join(process.cwd(), ".next", "BUILD_ID"))) {
    console.log("\nnext start: skipped (no production build; run `npx next build` first)");
    return;
  }
  const size = Number(option(args, "size", "100000"));
  const dir = path.resolve(option(args, "data", path.join(os.tmpdir(), `recall-bench-start-${size}`)));
  const port = Number(option(args, "port", "3391"));
  const started = performance.now();
  const marks: Record<string, number> = {};
  const server = spawn(path.join("node_modules", ".bin", "next"), ["start", "-H", "127.0.0.1", "-p", String(port)], {
    env: {
      ...process.env,
      PGLITE_DATA_DIR: path.join(dir, "data"),
      INDEX_SNAPSHOT: path.join(dir, "index.snapshot"),
      DEMO_CORPUS: "off",
      DATABASE_URL: "",
      AUTH_PASSWORD: "",
    },
    stdio: ["ignore", "pipe", "inherit"],
  });
  server.stdout.on("data", (chunk: Buffer) => {
    const text = chunk.toString();
    if (!marks.listening && /Ready in|started server|Local:/.test(text)) marks.listening = performance.now() - started;
    if (!marks.index && /embedded store index (read|rebuilt)/.test(text)) marks.index = performance.now() - started;
    if (/embedded store index/.test(text)) console.log(`  ${text.trim()}`);
  });
  try {
    for (let tries = 0; ; tries++) {
      const response = await fetch(`http://127.0.0.1:${port}/api/recall`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ query: "deploy token expired", k: 10, search_mode: "hybrid" }),
      }).catch(() => null);
      if (response?.ok) break;
      if (tries > 1200) throw new Error("the server did not answer a recall within 2 minutes");
      await new Promise((r) => setTimeout(r, 100));
    }
    marks.recall = performance.now() - started;
    console.log(
      `\nnext start (production build, from spawn): listening ${fmtMs(marks.listening ?? NaN)} ms, index ready ${fmtMs(marks.index ?? NaN)} ms, first recall answered ${fmtMs(marks.recall)} ms (load ${os.loadavg()[0]!.toFixed(1)})`,
    );
  } finally {
    server.kill("SIGTERM");
    await new Promise((r) => server.once("exit", r));
  }
}
