/** The body of `npm run bench -- proxy-bomb` (see proxy-bomb.ts), run under the react-server condition. */
import fs from "node:fs";
import http from "node:http";
import os from "node:os";
import path from "node:path";
import zlib from "node:zlib";
import { startFakeMemoryService } from "../../tests/support/fake-memory-service";
import { FAKE_CONTEXT_ID } from "../../tests/support/fake-memory-service-fixtures";
import { serveLikeNext } from "../../tests/support/next-route-server";

const MB = 1024 * 1024;

/** `{"results":[],"pad":"000…"}` of `bytes` bytes, gzip-compressed a megabyte at a time. */
async function gzipBomb(bytes: number): Promise<Buffer> {
  const gzip = zlib.createGzip({ level: 9 });
  const out: Buffer[] = [];
  gzip.on("data", (c: Buffer) => out.push(c));
  const done = new Promise((resolve) => gzip.on("end", resolve));
  const head = '{"results":[],"pad":"';
  const tail = '"}';
  gzip.write(head);
  const piece = Buffer.alloc(MB, "0");
  for (let left = bytes - head.length - tail.length; left > 0; left -= piece.length) {
    gzip.write(left >= piece.length ? piece : piece.subarray(0, left));
    if (gzip.writableLength > 16 * MB) await new Promise((resolve) => gzip.once("drain", resolve));
  }
  gzip.end(tail);
  await done;
  return Buffer.concat(out);
}

async function main(args: string[]): Promise<void> {
  const i = args.indexOf("--mb");
  const inflatedMb = i >= 0 ? Number(args[i + 1]) : 1024;
  const agentKey = "kagura_bench-agent-key-0123456789abcdefghijklmnop";
  const fake = await startFakeMemoryService({ apiKey: agentKey });
  const scratch = fs.mkdtempSync(path.join(os.tmpdir(), "recall-bench-proxy-bomb-"));
  process.env.PGLITE_DATA_DIR = path.join(scratch, "data");
  process.env.DEMO_CORPUS = "off";
  delete process.env.DATABASE_URL;
  delete process.env.AUTH_PASSWORD;
  process.env.REMOTE_STORES = JSON.stringify([
    { name: "bench", base_url: fake.url, api_key: "kagura_store-key", context_id: FAKE_CONTEXT_ID, timeout_ms: 60_000 },
  ]);
  const { proxyRequest, settleCaptures } = await import("../../lib/capture/server/proxy");
  const { getDatabase, getPrisma } = await import("../../lib/db/server");
  await getDatabase();
  const server = await serveLikeNext((request) => proxyRequest(request, "bench", "ingest"));

  const bomb = await gzipBomb(inflatedMb * MB);
  fake.setNext({ path: "/api/v1/memory/recall", bytes: bomb, headers: { "content-encoding": "gzip" } });
  global.gc?.();
  const before = process.memoryUsage().rss;
  let peak = before;
  const sampler = setInterval(() => {
    peak = Math.max(peak, process.memoryUsage().rss);
  }, 10);

  const started = performance.now();
  const body = JSON.stringify({ query: "the bomb", k: 3, filters: { context_id: FAKE_CONTEXT_ID } });
  // The agent: asks for gzip, as httpx does, and counts what it gets without keeping it.
  const got = await new Promise<{ status: number; bytes: number }>((resolve, reject) => {
    const req = http.request(
      `${server.url}/proxy/bench/api/v1/memory/recall`,
      {
        method: "POST",
        headers: { authorization: `Bearer ${agentKey}`, "content-type": "application/json", "accept-encoding": "gzip" },
      },
      (res) => {
        let bytes = 0;
        res.on("data", (c: Buffer) => (bytes += c.length));
        res.on("end", () => resolve({ status: res.statusCode ?? 0, bytes }));
        res.on("error", reject);
      },
    );
    req.on("error", reject);
    req.end(body);
  });
  await settleCaptures();
  const ms = performance.now() - started;
  clearInterval(sampler);
  peak = Math.max(peak, process.memoryUsage().rss);
  const row = await (await getPrisma()).recall.findFirst({ where: { source: "proxy" }, orderBy: { createdAt: "desc" } });

  console.log(`recall proxy gzip bomb — ${inflatedMb} MB of JSON inflated, ${(bomb.length / MB).toFixed(2)} MB gzip on the wire`);
  console.log(
    `load average: ${os
      .loadavg()
      .map((l) => l.toFixed(2))
      .join(", ")} (${os.cpus().length} CPUs)`,
  );
  console.log(`agent got    HTTP ${got.status}, ${(got.bytes / MB).toFixed(1)} MB (decoded), in ${(ms / 1000).toFixed(2)} s`);
  console.log(
    `server RSS   before ${(before / MB).toFixed(0)} MB, peak ${(peak / MB).toFixed(0)} MB, growth ${((peak - before) / MB).toFixed(0)} MB`,
  );
  console.log(`logged as    ${row ? `${row.status} ${(row.error as { code?: string } | null)?.code ?? ""}`.trim() : "nothing"}`);

  await server.close();
  await fake.close();
  const db = await getDatabase();
  await db.prisma.$disconnect();
  await db.raw.close();
  fs.rmSync(scratch, { recursive: true, force: true });
}

main(process.argv.slice(2)).then(
  () => process.exit(0),
  (error: unknown) => {
    console.error(error instanceof Error ? error.message : String(error));
    process.exit(1);
  },
);
