import { LangChainInstrumentation } from "@arizeai/openinference-instrumentation-langchain";
import { MemoryVectorStore } from "@langchain/classic/vectorstores/memory";
import * as CallbackManagerModule from "@langchain/core/callbacks/manager";
import { Document } from "@langchain/core/documents";
import { Embeddings } from "@langchain/core/embeddings";
import { RunnableLambda } from "@langchain/core/runnables";
import { OTLPTraceExporter as JsonExporter } from "@opentelemetry/exporter-trace-otlp-http";
import { OTLPTraceExporter as ProtobufExporter } from "@opentelemetry/exporter-trace-otlp-proto";
import { resourceFromAttributes } from "@opentelemetry/resources";
import {
  BatchSpanProcessor,
  SimpleSpanProcessor,
  TracerProvider,
  type ReadableSpan,
  type SpanExporter,
  type SpanProcessor,
} from "@opentelemetry/sdk-trace";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { appUnderTest, callRoute } from "@/tests/support/app-under-test";
import { serveLikeNext, type NextRouteServer } from "@/tests/support/next-route-server";

/**
 * The real clients end to end: a LangChain JS MemoryVectorStore retriever, instrumented
 * by @arizeai/openinference-instrumentation-langchain, exported by OpenTelemetry's own OTLP
 * exporters (protobuf and JSON, gzip and not) over loopback HTTP to the app's /v1/traces handler,
 * served the way `next start` sends its answers. Nothing in the span is written by this test:
 * what arrives is what a user's LangChain app sends. Each retriever call must become exactly one
 * logged recall with the retriever's documents in its order, and the capture-status counters move.
 */
const app = appUnderTest("otlp-langchain");
delete process.env.AUTH_PASSWORD;

const tracesRoute = await import("@/app/v1/traces/route");
const statusRoute = await import("@/app/api/capture/status/route");
const { getDatabase, getPrisma } = await import("@/lib/db/server");
const { findRecall } = await import("@/lib/recall-log/server/repository");
const { contentHashId } = await import("@/lib/capture/server/otlp/documents");

/** A deterministic bag-of-words embedder: no network, and the ranking follows shared words. */
class WordEmbeddings extends Embeddings {
  constructor() {
    super({});
  }
  private vector(text: string): number[] {
    const v = new Array<number>(64).fill(0);
    for (const word of text.toLowerCase().match(/[a-z0-9]+/g) ?? []) {
      let h = 0;
      for (const c of word) h = (h * 31 + c.charCodeAt(0)) >>> 0;
      v[h % 64]! += 1;
    }
    const norm = Math.hypot(...v) || 1;
    return v.map((x) => x / norm);
  }
  async embedDocuments(texts: string[]): Promise<number[][]> {
    return texts.map((t) => this.vector(t));
  }
  async embedQuery(text: string): Promise<number[]> {
    return this.vector(text);
  }
}

// The ids as a LangChain app holds them: Document.id, a metadata key, or none at all.
const DOCUMENTS = [
  new Document({
    pageContent: "JWT expiry caused 401 errors after the Friday deploy",
    metadata: { source: "incident" },
    id: "mem-jwt",
  }),
  new Document({ pageContent: "Refresh access tokens 60 seconds before they expire", metadata: { memory_id: "mem-refresh" } }),
  new Document({ pageContent: "Auth service runbook: rotating the JWT signing keys", metadata: { doc_id: "mem-runbook" } }),
  new Document({ pageContent: "Daily standup is at 09:30 in the small room", metadata: {} }),
  new Document({ pageContent: "The deploy pipeline runs on Fridays after the tests", metadata: { id: "mem-pipeline" } }),
];
/** What each document is logged as: its id wherever LangChain keeps it, else the content's hash id. */
const expectedId = (d: Document) =>
  d.id ?? ((d.metadata.memory_id ?? d.metadata.doc_id ?? d.metadata.id) as string | undefined) ?? contentHashId(d.pageContent);

let server: NextRouteServer;
const instrumentation = new LangChainInstrumentation();
instrumentation.manuallyInstrument(CallbackManagerModule);
let store: MemoryVectorStore;

beforeAll(async () => {
  await getDatabase();
  server = await serveLikeNext((request) => tracesRoute.POST(request));
  store = await MemoryVectorStore.fromDocuments(DOCUMENTS, new WordEmbeddings());
});
afterAll(async () => {
  await server?.close();
  await app.close();
});

/** An exporter that counts the spans it is handed and remembers each export's outcome. */
function counted(exporter: SpanExporter) {
  const seen = { spans: 0, results: [] as { code: number; error?: Error }[] };
  const wrapped: SpanExporter = {
    export(spans: ReadableSpan[], done) {
      seen.spans += spans.length;
      exporter.export(spans, (result) => {
        seen.results.push(result);
        done(result);
      });
    },
    shutdown: () => exporter.shutdown(),
    forceFlush: () => exporter.forceFlush?.() ?? Promise.resolve(),
  };
  return { exporter: wrapped, seen };
}

interface Variant {
  name: string;
  exporter: (url: string) => SpanExporter;
  batch: boolean;
}

const VARIANTS: Variant[] = [
  { name: "protobuf", exporter: (url) => new ProtobufExporter({ url }), batch: false },
  { name: "protobuf-gzip", exporter: (url) => new ProtobufExporter({ url, compression: "gzip" as never }), batch: true },
  { name: "json", exporter: (url) => new JsonExporter({ url }), batch: false },
  { name: "json-gzip", exporter: (url) => new JsonExporter({ url, compression: "gzip" as never }), batch: true },
];

const QUERIES = ["why 401 errors after the deploy", "when is the daily standup", "rotating JWT signing keys runbook"];

async function statusOf(service: string) {
  const answer = await callRoute(statusRoute.GET, { url: "/api/capture/status" });
  expect(answer.status).toBe(200);
  return (answer.json.services as { service: string }[]).find((s) => s.service === service) as
    | { received: number; retrievers: number; logged: number; duplicates: number; rejected: number; rejections: unknown[] }
    | undefined;
}

describe("a real LangChain retriever, instrumented by OpenInference, exported by the real OTLP exporters", () => {
  it.each(VARIANTS)("$name: each retriever call is exactly one recall, ids in the retriever's order", async (variant) => {
    const service = `langchain-${variant.name}-${Date.now().toString(36)}`;
    const { exporter, seen } = counted(variant.exporter(`${server.url}/v1/traces`));
    const processor: SpanProcessor = variant.batch
      ? new BatchSpanProcessor({ exporter, scheduledDelayMillis: 60_000 })
      : new SimpleSpanProcessor({ exporter });
    const provider = new TracerProvider({
      resource: resourceFromAttributes({ "service.name": service }),
      spanProcessors: [processor],
    });
    instrumentation.setTracerProvider(provider);
    expect(await statusOf(service)).toBeUndefined();

    const retriever = store.asRetriever({ k: 4 });
    const returned: Document[][] = [];
    for (const query of QUERIES) returned.push(await retriever.invoke(query));
    // A chain around the retriever: its CHAIN spans are counted and dropped, its retriever logged.
    const chain = retriever.pipe(RunnableLambda.from((docs: Document[]) => docs.map((d) => d.pageContent).join("\n")));
    await chain.invoke("token refresh before expiry");
    returned.push(await retriever.invoke("token refresh before expiry"));
    await provider.forceFlush();
    await provider.shutdown();

    expect(seen.results.length).toBeGreaterThan(0);
    expect(seen.results.every((r) => r.code === 0)).toBe(true);

    const prisma = await getPrisma();
    const rows = await prisma.recall.findMany({ where: { source: "otel", store: service }, orderBy: { createdAt: "asc" } });
    // 3 retriever calls, the chain's retriever and one more retriever call.
    expect(rows).toHaveLength(QUERIES.length + 2);
    const byQuery = new Map<string, string[][]>();
    for (const row of rows) {
      const logged = (await findRecall(prisma, row.id))!;
      expect(logged.trace?.span_id).toMatch(/^[0-9a-f]{16}$/);
      byQuery.set(logged.request.query, [...(byQuery.get(logged.request.query) ?? []), logged.results.map((r) => r.memory_id)]);
      // MemoryVectorStore's retriever returns no scores: no level is made up, and the recall says why.
      expect(logged.confidence).toBeNull();
      expect(logged.results.every((r) => r.score === null)).toBe(true);
      expect(logged.notices.map((n) => n.kind)).toEqual(expect.arrayContaining(["span_ids_derived", "span_scores_missing"]));
    }
    QUERIES.forEach((query, i) => expect(byQuery.get(query)).toEqual([returned[i]!.map(expectedId)]));
    expect(byQuery.get("token refresh before expiry")).toEqual([returned[3]!.map(expectedId), returned[3]!.map(expectedId)]);
    // The ranking is the retriever's own and holds every kind of id.
    expect(new Set(returned.flat().map(expectedId))).toEqual(new Set(DOCUMENTS.map(expectedId)));

    const status = (await statusOf(service))!;
    expect(status).toMatchObject({
      received: seen.spans,
      retrievers: QUERIES.length + 2,
      logged: QUERIES.length + 2,
      rejected: 0,
    });
    expect(status.received).toBeGreaterThan(status.retrievers);
    expect(status.rejections).toEqual([]);
  });

  it("an export sent again is not logged twice and is counted as already logged", async () => {
    const service = `langchain-retry-${Date.now().toString(36)}`;
    const spans: ReadableSpan[] = [];
    const keep: SpanExporter = {
      export: (batch, done) => {
        spans.push(...batch);
        done({ code: 0 });
      },
      shutdown: async () => {},
    };
    const provider = new TracerProvider({
      resource: resourceFromAttributes({ "service.name": service }),
      spanProcessors: [new SimpleSpanProcessor({ exporter: keep })],
    });
    instrumentation.setTracerProvider(provider);
    await store.asRetriever({ k: 2 }).invoke("deploy pipeline on Fridays");
    await provider.forceFlush();

    const exporter = new ProtobufExporter({ url: `${server.url}/v1/traces`, compression: "gzip" as never });
    for (let i = 0; i < 2; i++) {
      const result = await new Promise<{ code: number }>((resolve) => exporter.export(spans, resolve));
      expect(result.code).toBe(0);
    }
    await exporter.shutdown();
    const prisma = await getPrisma();
    expect(await prisma.recall.count({ where: { source: "otel", store: service } })).toBe(1);
    expect(await statusOf(service)).toMatchObject({ received: 2, retrievers: 2, logged: 1, duplicates: 1, rejected: 0 });
  });
});
