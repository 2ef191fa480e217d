import { JsonTraceSerializer, ProtobufTraceSerializer } from "@opentelemetry/otlp-transformer";
import { resourceFromAttributes } from "@opentelemetry/resources";
import { NextRequest } from "next/server";
import { gzipSync } from "node:zlib";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { S1_PRESENT_BLOCK } from "@/lib/recall/confidence.golden-cases";
import { appUnderTest } from "../support/app-under-test";

/**
 * POST /v1/traces in-process on a throw-away PGlite database. The exports are made by
 * OpenTelemetry's own OTLP serializers (@opentelemetry/otlp-transformer), not by this
 * endpoint's decoder, so both encodings are held to the real wire format.
 */
const app = appUnderTest("otlp");
delete process.env.AUTH_PASSWORD;

const route = await import("@/app/v1/traces/route");
const { getDatabase, getPrisma } = await import("@/lib/db/server");
const { createApiKey } = await import("@/lib/auth/server/keys");
const { HistoryQuerySchema } = await import("@/lib/recall-log/history");
const { listRecalls } = await import("@/lib/recall-log/server/history-list");
const { findRecall } = await import("@/lib/recall-log/server/repository");
const { RpcStatus, ExportTraceServiceResponse } = await import("@/lib/capture/otlp/proto");

beforeAll(async () => {
  await getDatabase();
});
afterEach(() => {
  delete process.env.AUTH_PASSWORD;
});
afterAll(async () => {
  await app.close();
});

/** What the SDK hands an exporter (the serializer's own parameter type). */
type ReadableSpan = Parameters<typeof ProtobufTraceSerializer.serializeRequest>[0][number];

const resource = resourceFromAttributes({ "service.name": "support-agent" });
let counter = 0;
const hex = (n: number, width: number) => n.toString(16).padStart(width, "0");

/** A finished span as the SDK hands it to an exporter. */
function span(
  attributes: Record<string, string | number | boolean>,
  name = "retrieve",
): ReadableSpan & { ids: { traceId: string; spanId: string } } {
  counter += 1;
  const ids = { traceId: `4bf92f3577b34da6a3ce929d${hex(counter, 8)}`, spanId: `00f067aa${hex(counter, 8)}` };
  const start: [number, number] = [1_780_000_000 + counter, 0];
  return {
    ids,
    name,
    kind: 0,
    spanContext: () => ({ ...ids, traceFlags: 1 }),
    parentSpanContext: undefined,
    startTime: start,
    endTime: [start[0], 12_500_000],
    status: { code: 0 },
    attributes,
    links: [],
    events: [],
    duration: [0, 12_500_000],
    ended: true,
    resource,
    instrumentationScope: { name: "openinference.instrumentation.llama_index", version: "1.0.0" },
    droppedAttributesCount: 0,
    droppedEventsCount: 0,
    droppedLinksCount: 0,
  } as unknown as ReadableSpan & { ids: { traceId: string; spanId: string } };
}

function retriever(query: string, docs: { id: string; content: string; score?: number }[], extra: Record<string, string> = {}) {
  const attributes: Record<string, string | number> = { "openinference.span.kind": "RETRIEVER", "input.value": query, ...extra };
  docs.forEach((d, i) => {
    attributes[`retrieval.documents.${i}.document.id`] = d.id;
    attributes[`retrieval.documents.${i}.document.content`] = d.content;
    if (d.score !== undefined) attributes[`retrieval.documents.${i}.document.score`] = d.score;
  });
  return span(attributes);
}

const DOCS = [
  { id: "mem-jwt", content: "JWT expiry caused 401 errors after the Friday deploy", score: 0.91 },
  { id: "mem-refresh", content: "Refresh access tokens 60 seconds before they expire", score: 0.62 },
  { id: "mem-runbook", content: "Auth service runbook: rotating signing keys", score: 0.41 },
  { id: "mem-standup", content: "Daily standup is at 09:30", score: 0.22 },
];

async function post(body: Uint8Array | string, headers: Record<string, string>) {
  const request = new NextRequest("http://127.0.0.1:3000/v1/traces", {
    method: "POST",
    body: typeof body === "string" ? body : Buffer.from(body),
    headers: { host: "127.0.0.1:3000", ...headers },
  });
  const response = await route.POST(request);
  return {
    status: response.status,
    type: response.headers.get("content-type"),
    bytes: new Uint8Array(await response.arrayBuffer()),
  };
}
const json = (spans: ReadableSpan[], headers: Record<string, string> = {}) =>
  post(JsonTraceSerializer.serializeRequest(spans)!, { "content-type": "application/json", ...headers });
const protobuf = (spans: ReadableSpan[], headers: Record<string, string> = {}) =>
  post(ProtobufTraceSerializer.serializeRequest(spans)!, { "content-type": "application/x-protobuf", ...headers });
const text = (bytes: Uint8Array) => Buffer.from(bytes).toString("utf8");

async function otelRows(traceId: string) {
  return (await getPrisma()).recall.findMany({ where: { source: "otel", traceId } });
}

describe("POST /v1/traces: OpenInference retriever spans become recalls", () => {
  it("JSON: one retriever span → one recall (trace and span kept, the block computed from the scores); the LLM span is dropped", async () => {
    const recall = retriever("why do we get 401s after deploys", DOCS);
    const llm = span({ "openinference.span.kind": "LLM", "input.value": "hi" }, "llm");
    const res = await json([recall, llm]);
    expect(res.status).toBe(200);
    expect(res.type).toBe("application/json");
    expect(JSON.parse(text(res.bytes))).toEqual({});

    const rows = await otelRows(recall.ids.traceId);
    expect(rows).toHaveLength(1);
    const row = rows[0]!;
    expect(row).toMatchObject({
      store: "support-agent",
      query: "why do we get 401s after deploys",
      spanId: recall.ids.spanId,
      k: 4,
    });
    expect(row.latencyMs).toBeCloseTo(12.5, 3);
    expect(row.createdAt.getTime()).toBe((1_780_000_000 + counter - 1) * 1000);
    expect(await otelRows(llm.ids.traceId)).toHaveLength(0);

    const logged = (await findRecall(await getPrisma(), row.id))!;
    expect(logged.source).toBe("otel");
    expect(logged.trace).toEqual({ trace_id: recall.ids.traceId, span_id: recall.ids.spanId });
    expect(logged.results.map((r) => [r.memory_id, r.score])).toEqual(DOCS.map((d) => [d.id, d.score]));
    // Fallback rules over the four scores: top 0.91 against the background of the other three.
    const background = [0.62, 0.41, 0.22];
    const mean = background.reduce((a, b) => a + b, 0) / 3;
    const std = Math.sqrt(background.reduce((a, b) => a + (b - mean) ** 2, 0) / 3);
    expect(logged.confidence).toMatchObject({
      computed_from: "scores",
      basis: "zscore",
      result_count: 4,
      top_score: 0.91,
      level: (0.91 - mean) / std >= 2 ? "high" : (0.91 - mean) / std >= 1 ? "moderate" : "low",
    });
    expect(logged.confidence!.background_mean).toBeCloseTo(mean, 9);

    // History shows it, and finds it by its trace.
    const page = await listRecalls(
      await getPrisma(),
      HistoryQuerySchema.parse({ source: "otel", trace_id: recall.ids.traceId.toUpperCase() }),
    );
    expect(page.items.map((i) => [i.id, i.source, i.trace_id])).toEqual([[row.id, "otel", recall.ids.traceId]]);
  });

  it("protobuf: one retriever span → one recall; the service's blocks it carries are kept as stated", async () => {
    const stated = S1_PRESENT_BLOCK;
    const selector = { applied: true, model: "claude-haiku-4-5", kept: 2, dropped: 1, dropped_memory_ids: ["mem-runbook"] };
    const recall = retriever("rotate keys", DOCS.slice(0, 3), {
      "recall.confidence": JSON.stringify(stated),
      "recall.selector": JSON.stringify(selector),
      "recall.store": "prod",
    });
    const res = await protobuf([recall]);
    expect(res.status).toBe(200);
    expect(res.type).toBe("application/x-protobuf");
    expect(ProtobufTraceSerializer.deserializeResponse(res.bytes)).toEqual({});

    const [row] = await otelRows(recall.ids.traceId);
    expect(row).toMatchObject({
      store: "prod",
      query: "rotate keys",
      spanId: recall.ids.spanId,
      level: "high",
      prominence: 0.559,
      resultCount: 8,
    });
    expect(row).toMatchObject({ selectorApplied: true, selectorModel: "claude-haiku-4-5", selectorDropped: 1 });
    const logged = (await findRecall(await getPrisma(), row!.id))!;
    expect(logged.confidence!.computed_from).toBeUndefined();
    expect(logged.confidence!.rationale).toBe(stated.rationale);
  });

  it("an export sent again (an exporter's retry) is logged once; gzip is read", async () => {
    const recall = retriever("retry me", DOCS.slice(0, 2));
    const body = JsonTraceSerializer.serializeRequest([recall])!;
    expect((await post(body, { "content-type": "application/json" })).status).toBe(200);
    const again = await post(gzipSync(body), { "content-type": "application/json", "content-encoding": "gzip" });
    expect(again.status).toBe(200);
    expect(JSON.parse(text(again.bytes))).toEqual({});
    expect(await otelRows(recall.ids.traceId)).toHaveLength(1);
  });

  it("partial success: the retriever spans that cannot be logged are counted and said, the rest logged", async () => {
    const good = retriever("good one", DOCS.slice(0, 2));
    const noQuery = span({ "openinference.span.kind": "RETRIEVER", "retrieval.documents.0.document.id": "x" });
    const nul = retriever("a NUL in a stated block", DOCS.slice(0, 1), {
      "recall.confidence": JSON.stringify({ ...S1_PRESENT_BLOCK, rationale: "bad \u0000 text" }),
    });
    // A document without an id is logged under an id made from its content, not refused.
    const noId = retriever("ids missing", [{ id: "", content: "anonymous" }]);
    const res = await json([good, noQuery, nul, noId]);
    expect(res.status).toBe(200);
    const body = JSON.parse(text(res.bytes));
    expect(body.partialSuccess.rejectedSpans).toBe(2);
    expect(body.partialSuccess.errorMessage).toContain("input.value");
    expect(body.partialSuccess.errorMessage).toContain("NUL");
    expect(await otelRows(good.ids.traceId)).toHaveLength(1);
    const [anonymous] = await otelRows(noId.ids.traceId);
    expect((anonymous!.results as { memory_id: string }[])[0]!.memory_id).toMatch(/^content:[0-9a-f]{16}$/);

    const proto = await protobuf([retriever("fine", DOCS.slice(0, 1)), span({ "openinference.span.kind": "RETRIEVER" })]);
    const decoded = ExportTraceServiceResponse.toObject(ExportTraceServiceResponse.decode(proto.bytes), { longs: Number });
    expect(decoded).toMatchObject({ partialSuccess: { rejectedSpans: 1, errorMessage: expect.stringContaining("input.value") } });
  });

  it("a batch of 1,000 spans ingests with exact counts", async () => {
    const prisma = await getPrisma();
    const before = await prisma.recall.count({ where: { source: "otel" } });
    const spans: ReadableSpan[] = [];
    for (let i = 0; i < 1000; i++) {
      if (i % 10 < 6) spans.push(retriever(`batch query ${i}`, DOCS.slice(0, 1 + (i % 4))));
      else if (i % 10 === 6)
        spans.push(span({ "openinference.span.kind": "RETRIEVER", "retrieval.documents.0.document.id": `no query ${i}` }));
      else spans.push(span({ "openinference.span.kind": i % 2 ? "LLM" : "CHAIN" }, "other"));
    }
    const res = await protobuf(spans);
    expect(res.status).toBe(200);
    const decoded = ExportTraceServiceResponse.toObject(ExportTraceServiceResponse.decode(res.bytes), { longs: Number });
    expect(decoded.partialSuccess.rejectedSpans).toBe(100);
    expect(await prisma.recall.count({ where: { source: "otel" } })).toBe(before + 600);
    expect(await prisma.recall.count({ where: { source: "otel", query: { startsWith: "batch query " } } })).toBe(600);
  });
});

/** Protobuf by hand: a field `number` holding `bytes` (length-delimited). */
function field(number: number, bytes: Uint8Array): Uint8Array {
  const header = [(number << 3) | 2];
  let n = bytes.length;
  const length: number[] = [];
  do {
    length.push((n & 0x7f) | (n >= 0x80 ? 0x80 : 0));
    n >>>= 7;
  } while (n > 0);
  return Buffer.concat([Buffer.from(header), Buffer.from(length), bytes]);
}

describe("POST /v1/traces: text the database cannot store and absurd nesting never make a 500", () => {
  it("a NUL or a lone surrogate in the query, a document or service.name is replaced and said; in a stated block the span is rejected with the reason", async () => {
    const sanitized = retriever("who\u0000 is on call \uD800", [{ id: "a\uDC00", content: "cut \uD83D", score: 0.5 }]);
    const stated = retriever("stated", DOCS.slice(0, 1), {
      "recall.selector": JSON.stringify({ applied: false, reason: "x\u0000" }),
    });
    const res = await json([sanitized, stated]);
    expect(res.status).toBe(200);
    const body = JSON.parse(text(res.bytes));
    expect(body.partialSuccess).toMatchObject({ rejectedSpans: 1, errorMessage: expect.stringContaining(stated.ids.spanId) });
    const [row] = await otelRows(sanitized.ids.traceId);
    const logged = (await findRecall(await getPrisma(), row!.id))!;
    expect(logged.request.query).toBe("who\uFFFD is on call \uFFFD");
    expect(logged.results.map((r) => [r.memory_id, r.summary])).toEqual([["a\uFFFD", "cut \uFFFD"]]);
    expect(logged.notices.find((n) => n.kind === "span_unread")?.message).toContain("replaced by U+FFFD");
  });

  it("AnyValues nested thousands deep: never a 500 (protobuf unreadable or read without them; JSON read without them)", async () => {
    // AnyValue{kvlist_value(6): KeyValueList{values(1): KeyValue{key(1), value(2): AnyValue…}}}, innermost first.
    let value: Uint8Array = field(1, Buffer.from("leaf"));
    for (let i = 0; i < 5_000; i++) value = field(6, field(1, Buffer.concat([field(1, Buffer.from("k")), field(2, value)])));
    const recall = retriever("deep protobuf attribute", DOCS.slice(0, 1));
    const exported = Buffer.from(ProtobufTraceSerializer.serializeRequest([recall])!);
    // A span's attributes are field 9; appending one more to the (only) span means rewriting its
    // enclosing lengths, so the deep attribute goes on a span of its own in the same export.
    const spanBytes = Buffer.concat([
      field(1, Buffer.from("4bf92f3577b34da6a3ce929d0e0e4736", "hex")),
      field(2, Buffer.from("00f067aa0ba902b7", "hex")),
      field(9, Buffer.concat([field(1, Buffer.from("deep")), field(2, value)])),
    ]);
    const body = Buffer.concat([exported, field(1, field(2, field(2, spanBytes)))]);
    const proto = await post(body, { "content-type": "application/x-protobuf" });
    expect([200, 400]).toContain(proto.status);
    if (proto.status === 400) expect(RpcStatus.toObject(RpcStatus.decode(proto.bytes))).toMatchObject({ code: 3 });
    else expect(await otelRows(recall.ids.traceId)).toHaveLength(1);

    const jsonRecall = retriever("deep JSON attribute", DOCS.slice(0, 1));
    const depth = 20_000;
    const deep = '{"kvlistValue":{"values":[{"key":"k","value":'.repeat(depth) + '{"stringValue":"leaf"}' + "}]}}".repeat(depth);
    const plain = text(JsonTraceSerializer.serializeRequest([jsonRecall])!);
    const withDeep = plain.replace('"attributes":[', `"attributes":[{"key":"deep","value":${deep}},`);
    expect(withDeep.length).toBeGreaterThan(plain.length);
    const res = await post(withDeep, { "content-type": "application/json" });
    expect([200, 400]).toContain(res.status);
    if (res.status === 200) expect(await otelRows(jsonRecall.ids.traceId)).toHaveLength(1);
  });
});

describe("POST /v1/traces refuses what is not an export, per the OTLP specification", () => {
  it("400 with a Status in the request's encoding for a malformed body; 415 for another content type or coding", async () => {
    const garbage = await post(new Uint8Array([0x0a, 0xff, 0xff, 0xff, 0xff, 0x0f, 0x01]), {
      "content-type": "application/x-protobuf",
    });
    expect(garbage.status).toBe(400);
    expect(garbage.type).toBe("application/x-protobuf");
    expect(RpcStatus.toObject(RpcStatus.decode(garbage.bytes))).toMatchObject({
      code: 3,
      message: expect.stringContaining("protobuf"),
    });

    for (const body of ["{not json", "[1,2]", '{"resourceSpans": 5}', '{"resourceSpans": [{"scopeSpans": [{"spans": [7]}]}]}']) {
      const res = await post(body, { "content-type": "application/json" });
      expect(res.status, body).toBe(400);
      expect(res.type).toBe("application/json");
      expect(JSON.parse(text(res.bytes))).toMatchObject({ code: 3, message: expect.any(String), details: [] });
    }
    const badGzip = await post("not gzip", { "content-type": "application/json", "content-encoding": "gzip" });
    expect(badGzip.status).toBe(400);

    const plain = await post("{}", { "content-type": "text/plain" });
    expect(plain.status).toBe(415);
    const zstd = await post("{}", { "content-type": "application/json", "content-encoding": "zstd" });
    expect(zstd.status).toBe(415);
    const get = await route.GET(new NextRequest("http://127.0.0.1:3000/v1/traces"));
    expect(get.status).toBe(405);
  });

  it("the /api guard, and when exposed an ingest or full API key", async () => {
    const crossSite = await json([retriever("x", DOCS.slice(0, 1))], {
      origin: "https://evil.example",
      "sec-fetch-site": "cross-site",
    });
    expect(crossSite.status).toBe(403);

    process.env.AUTH_PASSWORD = "a long enough team password";
    const prisma = await getPrisma();
    const anonymous = await json([retriever("x", DOCS.slice(0, 1))]);
    expect(anonymous.status).toBe(401);
    expect(JSON.parse(text(anonymous.bytes))).toMatchObject({ code: 16 });
    const { key: readKey } = await createApiKey(prisma, { name: "reader", scope: "read" });
    expect((await json([retriever("x", DOCS.slice(0, 1))], { authorization: `Bearer ${readKey}` })).status).toBe(403);
    const { key } = await createApiKey(prisma, { name: "collector", scope: "ingest" });
    const recall = retriever("with a key", DOCS.slice(0, 1));
    const ok = await protobuf([recall], { authorization: `Bearer ${key}` });
    expect(ok.status).toBe(200);
    expect(await otelRows(recall.ids.traceId)).toHaveLength(1);
  });
});
