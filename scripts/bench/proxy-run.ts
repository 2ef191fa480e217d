/** The body of `npm run bench -- proxy` (see proxy.ts), run under the react-server condition. */
import fs from "node:fs";
import http from "node:http";
import os from "node:os";
import path from "node:path";
import { Readable } from "node:stream";
import { Worker } from "node:worker_threads";
import { fmtMs, percentile } from "./stats";
import { startFakeMemoryService } from "../../tests/support/fake-memory-service";
import { FAKE_CONTEXT_ID } from "../../tests/support/fake-memory-service-fixtures";
import { startTestPostgres } from "../../tests/support/postgres-server";

/** The agent's thread: times `count` calls to `base` and posts the milliseconds back. */
const AGENT_SOURCE = `
const { parentPort, workerData } = require("node:worker_threads");
const { agentKey, body, listPath } = workerData;
parentPort.on("message", async ({ base, kind, count }) => {
  try {
    const ms = [];
    for (let i = 0; i < count; i++) {
      const started = performance.now();
      const response = kind === "recall"
        ? await fetch(base + "/api/v1/memory/recall", { method: "POST", headers: { authorization: "Bearer " + agentKey, "content-type": "application/json" }, body })
        : await fetch(base + listPath, { headers: { authorization: "Bearer " + agentKey } });
      await response.arrayBuffer();
      if (response.status !== 200) throw new Error("HTTP " + response.status);
      ms.push(performance.now() - started);
    }
    parentPort.postMessage({ ms });
  } catch (error) {
    parentPort.postMessage({ error: String(error) });
  }
});
`;

async function main(args: string[]): Promise<void> {
  const i = args.indexOf("--calls");
  const calls = i >= 0 ? Number(args[i + 1]) : 400;
  const warmup = 50;
  const agentKey = "kagura_bench-agent-key-0123456789abcdefghijklmnop";
  const fake = await startFakeMemoryService({ apiKey: agentKey });
  const scratch = fs.mkdtempSync(path.join(os.tmpdir(), "recall-bench-proxy-"));
  process.env.PGLITE_DATA_DIR = path.join(scratch, "data");
  process.env.DEMO_CORPUS = "off";
  delete process.env.DATABASE_URL;
  // --postgres: log to a throw-away PostgreSQL (network I/O) instead of the embedded PGlite
  // (a WebAssembly database on the server's own thread).
  const postgres = args.includes("--postgres") ? await startTestPostgres() : null;
  if (postgres) process.env.DATABASE_URL = postgres.adminUrl;
  delete process.env.AUTH_PASSWORD;
  process.env.REMOTE_STORES = JSON.stringify([
    { name: "bench", base_url: fake.url, api_key: "kagura_store-key", context_id: FAKE_CONTEXT_ID, timeout_ms: 5000 },
  ]);
  const { NextRequest } = await import("next/server");
  const { proxyRequest, settleCaptures } = await import("../../lib/capture/server/proxy");
  const { getDatabase, getPrisma } = await import("../../lib/db/server");
  await getDatabase();

  // The route handler behind a plain HTTP server: request in, Response streamed out.
  const server = http.createServer((req, res) => {
    void (async () => {
      const url = `http://${req.headers.host}${req.url}`;
      const headers = new Headers();
      for (let h = 0; h + 1 < req.rawHeaders.length; h += 2) headers.append(req.rawHeaders[h]!, req.rawHeaders[h + 1]!);
      const hasBody = req.method !== "GET" && req.method !== "HEAD";
      const init: Record<string, unknown> = { method: req.method, headers };
      if (hasBody) Object.assign(init, { body: Readable.toWeb(req), duplex: "half" });
      const request = new NextRequest(url, init as ConstructorParameters<typeof NextRequest>[1]);
      const store = /^\/proxy\/([^/]+)/.exec(req.url ?? "")?.[1] ?? "";
      const response = await proxyRequest(request, store, "ingest");
      const out: Record<string, string | string[]> = {};
      response.headers.forEach((value, name) => {
        out[name] = value;
      });
      res.writeHead(response.status, out);
      if (response.body) Readable.fromWeb(response.body as never).pipe(res);
      else res.end();
    })();
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const proxyUrl = `http://127.0.0.1:${(server.address() as { port: number }).port}/proxy/bench`;

  const body = JSON.stringify({ query: "why do we get 401s after deploys", k: 3, filters: { context_id: FAKE_CONTEXT_ID } });
  const listPath = `/api/v1/memory/list?context_id=${FAKE_CONTEXT_ID}&limit=3`;
  // The agent is another program: its calls run on a thread of their own, so time spent on this
  // one (the proxy, the log) counts only where it delays the answer.
  const agent = new Worker(AGENT_SOURCE, { eval: true, workerData: { agentKey, body, listPath } });
  const ask = (base: string, kind: "recall" | "list", count: number) =>
    new Promise<number[]>((resolve, reject) => {
      agent.once("message", (message: { ms?: number[]; error?: string }) =>
        message.error ? reject(new Error(message.error)) : resolve(message.ms!),
      );
      agent.postMessage({ base, kind, count });
    });

  await ask(fake.url, "recall", warmup);
  await ask(proxyUrl, "recall", warmup);
  const direct: number[] = [];
  const proxied: number[] = [];
  const paired: number[] = [];
  for (let n = 0; n < calls; n++) {
    // Alternate which goes first, so neither always meets a warmer connection.
    let d: number;
    let p: number;
    if (n % 2 === 0) {
      [d] = (await ask(fake.url, "recall", 1)) as [number];
      [p] = (await ask(proxyUrl, "recall", 1)) as [number];
    } else {
      [p] = (await ask(proxyUrl, "recall", 1)) as [number];
      [d] = (await ask(fake.url, "recall", 1)) as [number];
    }
    direct.push(d);
    proxied.push(p);
    paired.push(p - d);
  }
  const settleStarted = performance.now();
  await settleCaptures();
  const settleMs = performance.now() - settleStarted;
  // An unlogged call (the memory list): the forwarding alone.
  const listPaired: number[] = [];
  for (let n = 0; n < calls; n++) {
    const [d] = (await ask(fake.url, "list", 1)) as [number];
    const [p] = (await ask(proxyUrl, "list", 1)) as [number];
    listPaired.push(p - d);
  }
  const logged = await (await getPrisma()).recall.count({ where: { source: "proxy" } });

  const load = os
    .loadavg()
    .map((l) => l.toFixed(2))
    .join(", ");
  console.log(
    `recall proxy benchmark — ${calls} recalls each way (after ${warmup} warm-up), loopback double, ${postgres ? "PostgreSQL" : "PGlite"} log`,
  );
  console.log(`load average: ${load} (${os.cpus().length} CPUs)`);
  console.log(`direct   p50 ${fmtMs(percentile(direct, 50))} ms   p95 ${fmtMs(percentile(direct, 95))} ms`);
  console.log(`proxied  p50 ${fmtMs(percentile(proxied, 50))} ms   p95 ${fmtMs(percentile(proxied, 95))} ms`);
  console.log(
    `overhead (proxied − direct, paired) p50 ${fmtMs(percentile(paired, 50))} ms   p95 ${fmtMs(percentile(paired, 95))} ms`,
  );
  console.log(
    `unlogged list call, overhead (paired) p50 ${fmtMs(percentile(listPaired, 50))} ms   p95 ${fmtMs(percentile(listPaired, 95))} ms`,
  );
  console.log(
    `logged ${logged} of ${calls + warmup} proxied recalls; ${fmtMs(settleMs)} ms of logging still pending after the last answer`,
  );

  await agent.terminate();
  server.close();
  await fake.close();
  const db = await getDatabase();
  await db.prisma.$disconnect();
  await db.raw.close();
  await postgres?.stop();
  fs.rmSync(scratch, { recursive: true, force: true });
}

main(process.argv.slice(2)).then(
  () => process.exit(0),
  (error: unknown) => {
    console.error(error instanceof Error ? error.message : String(error));
    process.exit(1);
  },
);
