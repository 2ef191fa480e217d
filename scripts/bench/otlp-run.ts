/** The body of `npm run bench -- otlp` (see otlp.ts), run under the react-server condition. */
import { JsonTraceSerializer, ProtobufTraceSerializer } from "@opentelemetry/otlp-transformer";
import { resourceFromAttributes } from "@opentelemetry/resources";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { fmtMs } from "./stats";

type ReadableSpan = Parameters<typeof ProtobufTraceSerializer.serializeRequest>[0][number];

function arg(args: string[], name: string, fallback: number): number {
  const i = args.indexOf(name);
  return i >= 0 ? Number(args[i + 1]) : fallback;
}

async function main(args: string[]): Promise<void> {
  const batches = arg(args, "--batches", 10);
  const perBatch = arg(args, "--spans", 1000);
  const scratch = fs.mkdtempSync(path.join(os.tmpdir(), "recall-bench-otlp-"));
  process.env.PGLITE_DATA_DIR = path.join(scratch, "data");
  process.env.DEMO_CORPUS = "off";
  delete process.env.DATABASE_URL;
  delete process.env.AUTH_PASSWORD;
  const { NextRequest } = await import("next/server");
  const { receiveTraces } = await import("../../lib/capture/server/otlp/receive");
  const { decodeProtobufExport, decodeJsonExport } = await import("../../lib/capture/otlp/decode");
  const { getDatabase, getPrisma } = await import("../../lib/db/server");
  await getDatabase();

  const resource = resourceFromAttributes({ "service.name": "bench-agent" });
  let n = 0;
  const spanOf = (): ReadableSpan => {
    n += 1;
    const ids = { traceId: n.toString(16).padStart(32, "a"), spanId: n.toString(16).padStart(16, "b") };
    const attributes: Record<string, string | number> = {
      "openinference.span.kind": "RETRIEVER",
      "input.value": `benchmark query number ${n} about deploys and tokens`,
    };
    for (let d = 0; d < 5; d++) {
      attributes[`retrieval.documents.${d}.document.id`] = `mem-${(n * 7 + d) % 5000}`;
      attributes[`retrieval.documents.${d}.document.content`] =
        `A remembered fact ${d} that a retriever returned for query ${n}.`;
      attributes[`retrieval.documents.${d}.document.score`] = 0.9 - d * 0.12 + (n % 10) / 1000;
    }
    return {
      name: "retrieve",
      kind: 0,
      spanContext: () => ({ ...ids, traceFlags: 1 }),
      startTime: [1_780_000_000 + n, 0],
      endTime: [1_780_000_000 + n, 9_000_000],
      status: { code: 0 },
      attributes,
      links: [],
      events: [],
      duration: [0, 9_000_000],
      ended: true,
      resource,
      instrumentationScope: { name: "bench" },
      droppedAttributesCount: 0,
      droppedEventsCount: 0,
      droppedLinksCount: 0,
    } as unknown as ReadableSpan;
  };

  const post = async (bytes: Uint8Array, type: string) => {
    const response = await receiveTraces(
      new NextRequest("http://127.0.0.1:3000/v1/traces", {
        method: "POST",
        body: Buffer.from(bytes),
        headers: { host: "127.0.0.1:3000", "content-type": type },
      }),
      "ingest",
    );
    if (response.status !== 200) throw new Error(`HTTP ${response.status}: ${await response.text()}`);
    await response.arrayBuffer();
  };

  const load = os
    .loadavg()
    .map((l) => l.toFixed(2))
    .join(", ");
  console.log(
    `OTLP ingestion benchmark — ${batches} exports × ${perBatch} retriever spans (5 documents each) per encoding, PGlite`,
  );
  console.log(`load average at start: ${load} (${os.cpus().length} CPUs)`);
  // One warm-up export per encoding (JIT, the first statements).
  await post(ProtobufTraceSerializer.serializeRequest(Array.from({ length: 50 }, spanOf))!, "application/x-protobuf");
  await post(JsonTraceSerializer.serializeRequest(Array.from({ length: 50 }, spanOf))!, "application/json");

  for (const [name, serialize, type, decode] of [
    ["protobuf", ProtobufTraceSerializer.serializeRequest, "application/x-protobuf", (b: Uint8Array) => decodeProtobufExport(b)],
    [
      "json",
      JsonTraceSerializer.serializeRequest,
      "application/json",
      (b: Uint8Array) => decodeJsonExport(Buffer.from(b).toString("utf8")),
    ],
  ] as const) {
    const exports = Array.from({ length: batches }, () => serialize(Array.from({ length: perBatch }, spanOf))!);
    const bytes = exports.reduce((sum, e) => sum + e.byteLength, 0);
    const decodeStarted = performance.now();
    for (const e of exports) decode(e);
    const decodeMs = performance.now() - decodeStarted;
    const started = performance.now();
    for (const e of exports) await post(e, type);
    const ms = performance.now() - started;
    const spans = batches * perBatch;
    console.log(
      `${name.padEnd(8)} ${Math.round(spans / (ms / 1000))} spans/s end to end (${fmtMs(ms / batches)} ms per export of ${perBatch}, ${(bytes / batches / 1024).toFixed(0)} KiB); decoding alone ${Math.round(spans / (decodeMs / 1000))} spans/s`,
    );
  }
  const logged = await (await getPrisma()).recall.count({ where: { source: "otel" } });
  console.log(
    `logged ${logged} recalls (expected ${2 * batches * perBatch + 100}); load average at end: ${os
      .loadavg()
      .map((l) => l.toFixed(2))
      .join(", ")}`,
  );

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
