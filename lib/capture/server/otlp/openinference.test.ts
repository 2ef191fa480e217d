import { describe, expect, it } from "vitest";
import { computeConfidence } from "@/lib/recall/confidence";
import { confidenceFromScores } from "@/lib/recall/wire";
import { contentHashId, ID_KEYS } from "./documents";
import { spanToRecall } from "./openinference";
import { decodeJsonExport, idOf, MalformedExport, type DecodedSpan } from "../../otlp/decode";

const TRACE = "5b8efff798038103d269b633813fc60c";
const SPAN = "eee19b7ec3c1b174";

function span(attributes: DecodedSpan["attributes"], over: Partial<DecodedSpan> = {}): DecodedSpan {
  return {
    traceId: TRACE,
    spanId: SPAN,
    name: "retrieve",
    startTimeUnixNano: "1780000000000000000",
    endTimeUnixNano: "1780000000012500000",
    attributes,
    resource: { "service.name": "agent" },
    ...over,
  };
}

const retriever = (extra: DecodedSpan["attributes"] = {}) =>
  span({
    "openinference.span.kind": "RETRIEVER",
    "input.value": "who is on call",
    "retrieval.documents.1.document.id": "b",
    "retrieval.documents.1.document.score": 0.4,
    "retrieval.documents.0.document.id": "a",
    "retrieval.documents.0.document.content": "Alice is on call",
    "retrieval.documents.0.document.score": 0.8,
    ...extra,
  });

describe("spanToRecall", () => {
  it("reads a retriever span: the query, the documents in index order, timings, the store", () => {
    const outcome = spanToRecall(retriever());
    expect(outcome.kind).toBe("recall");
    if (outcome.kind !== "recall") return;
    const { recall } = outcome;
    expect(recall.request).toEqual({ query: "who is on call", k: 2 });
    expect(recall.response.results).toEqual([
      { memory_id: "a", summary: "Alice is on call", score: 0.8 },
      { memory_id: "b", summary: "", score: 0.4 },
    ]);
    expect(recall.latency_ms).toBe(12.5);
    expect(recall.created_at?.toISOString()).toBe("2026-05-28T20:26:40.000Z");
    expect(recall.store).toBe("agent");
    expect(recall.trace).toEqual({ traceId: TRACE, spanId: SPAN });
  });

  it("computes the block from the scores by the fallback rules when none is stated, and says so", () => {
    const outcome = spanToRecall(retriever());
    if (outcome.kind !== "recall") throw new Error("not a recall");
    const expected = computeConfidence({ hybridScores: [0.8, 0.4] });
    expect(outcome.recall.computedConfidence).toMatchObject({
      level: expected.level,
      basis: expected.basis,
      top_score: 0.8,
      computed_from: "scores",
    });
    expect(confidenceFromScores([]).level).toBe("none");
  });

  it("keeps a stated block: recall.confidence, or the service's answer in output.value", () => {
    const block = { level: "low", top_score: 0.3, result_count: 9, rationale: "stated" };
    const a = spanToRecall(retriever({ "recall.confidence": JSON.stringify(block) }));
    const b = spanToRecall(
      retriever({
        "output.value": JSON.stringify({ results: [], confidence: block, selector: { applied: false, reason: "disabled" } }),
      }),
    );
    for (const outcome of [a, b]) {
      if (outcome.kind !== "recall") throw new Error("not a recall");
      expect(outcome.recall.response.confidence).toEqual(block);
      expect(outcome.recall.computedConfidence).toBeUndefined();
    }
    if (b.kind === "recall") expect(b.recall.response.selector).toEqual({ applied: false, reason: "disabled" });
  });

  it("reads a JSON input's query, names the store from recall.store", () => {
    const outcome = spanToRecall(
      retriever({ "input.value": '{"query": "json query"}', "input.mime_type": "application/json", "recall.store": "prod" }),
    );
    if (outcome.kind !== "recall") throw new Error("not a recall");
    expect(outcome.recall.request.query).toBe("json query");
    expect(outcome.recall.store).toBe("prod");
  });

  it("drops other spans; rejects a retriever span only when it cannot be a recall (no ids, no query)", () => {
    expect(spanToRecall(span({ "openinference.span.kind": "LLM" })).kind).toBe("other");
    expect(spanToRecall(span({})).kind).toBe("other");
    const outcomes = [
      retriever({ "input.value": "  " }),
      { ...retriever(), traceId: null },
      { ...retriever(), spanId: null },
    ].map((s) => spanToRecall(s));
    expect(outcomes.map((o) => (o.kind === "rejected" ? o.code : o.kind))).toEqual(["no_query", "no_trace_id", "no_span_id"]);
    expect(outcomes.map((o) => (o.kind === "rejected" ? o.reason : ""))).toEqual([
      expect.stringContaining("input.value"),
      expect.stringContaining("traceId"),
      expect.stringContaining("spanId"),
    ]);
  });

  it("logs what it cannot read as notices instead of rejecting: a score that is not a number, a block that is not JSON", () => {
    const badScore = recallOf(retriever({ "retrieval.documents.0.document.score": "high" }));
    expect(badScore.response.results).toEqual([
      { memory_id: "a", summary: "Alice is on call" },
      { memory_id: "b", summary: "", score: 0.4 },
    ]);
    expect(kinds(badScore)).toEqual(["span_scores_missing", "span_unread"]);
    expect(notice(badScore, "span_unread")).toContain("retrieval.documents.0.document.score is not a finite number");
    expect(badScore.computedConfidence).toBeUndefined();

    const badBlock = recallOf(retriever({ "recall.confidence": "{oops", "recall.selector": "[" }));
    expect(badBlock.response.confidence).toBeUndefined();
    expect(badBlock.computedConfidence?.computed_from).toBe("scores");
    expect(notice(badBlock, "span_unread")).toMatch(/recall\.confidence is not JSON.*recall\.selector is not JSON/);

    const notABlock = recallOf(retriever({ "recall.confidence": JSON.stringify({ level: 7 }) }));
    expect(notABlock.response.confidence).toBeUndefined();
    expect(notice(notABlock, "span_unread")).toContain("not a RecallConfidence");
  });
});

/** A LangChain `Document` as `@arizeai/openinference-instrumentation-langchain` 4.1.1 writes a retriever run. */
function langchainSpan(documents: { pageContent: string; metadata: Record<string, unknown>; id?: string }[], extra = {}) {
  const attributes: DecodedSpan["attributes"] = {
    "openinference.span.kind": "RETRIEVER",
    "input.value": "why 401 after deploy",
    "input.mime_type": "text/plain",
    "output.value": JSON.stringify({ documents }),
    "output.mime_type": "application/json",
    metadata: "{}",
    ...extra,
  };
  documents.forEach((d, i) => {
    attributes[`retrieval.documents.${i}.document.content`] = d.pageContent;
    attributes[`retrieval.documents.${i}.document.metadata`] = JSON.stringify(d.metadata);
  });
  return span(attributes);
}

function recallOf(s: DecodedSpan) {
  const outcome = spanToRecall(s);
  if (outcome.kind !== "recall") throw new Error(`not a recall: ${outcome.kind === "rejected" ? outcome.reason : outcome.kind}`);
  return outcome.recall;
}
const ids = (recall: ReturnType<typeof recallOf>) => (recall.response.results as { memory_id: string }[]).map((r) => r.memory_id);
const kinds = (recall: ReturnType<typeof recallOf>) => recall.notices.map((n) => n.kind);
const notice = (recall: ReturnType<typeof recallOf>, kind: string) => recall.notices.find((n) => n.kind === kind)?.message ?? "";

describe("spanToRecall: documents as real instrumentations write them", () => {
  it.each(ID_KEYS)("reads the id from the document metadata's %s when document.id is absent", (key) => {
    const recall = recallOf(
      langchainSpan([
        { pageContent: "first", metadata: { [key]: "m-1", source: "wiki" } },
        { pageContent: "second", metadata: { [key]: 42 } },
      ]),
    );
    expect(ids(recall)).toEqual(["m-1", "42"]);
    expect(kinds(recall)).toEqual(["span_ids_derived", "span_scores_missing"]);
    expect(notice(recall, "span_ids_derived")).toContain(`2 from the metadata's "${key}"`);
  });

  it("takes the metadata's keys in order (id before memory_id …), document.id before any", () => {
    const both = { id: "by-id", memory_id: "by-memory-id", _id: "by-underscore" };
    expect(ids(recallOf(langchainSpan([{ pageContent: "x", metadata: both }])))).toEqual(["by-id"]);
    expect(ids(recallOf(langchainSpan([{ pageContent: "x", metadata: { _id: "u", doc_id: "d" } }])))).toEqual(["d"]);
    const stated = recallOf(
      langchainSpan([{ pageContent: "x", metadata: both }], { "retrieval.documents.0.document.id": "stated" }),
    );
    expect(ids(stated)).toEqual(["stated"]);
    expect(kinds(stated)).not.toContain("span_ids_derived");
  });

  it("reads LangChain's Document.id from output.value when the attributes lack it", () => {
    const recall = recallOf(
      langchainSpan([
        { pageContent: "JWT expiry caused 401s", metadata: { source: "a" }, id: "mem-1" },
        { pageContent: "Refresh tokens early", metadata: { memory_id: "mem-2" } },
      ]),
    );
    expect(ids(recall)).toEqual(["mem-1", "mem-2"]);
    expect(notice(recall, "span_ids_derived")).toMatch(/1 from output\.value, 1 from the metadata's "memory_id"/);
  });

  it("reads output.value alone when there are no document attributes (documents, results or a bare list; LangChain's serialized form)", () => {
    const only = (value: unknown) =>
      recallOf(span({ "openinference.span.kind": "RETRIEVER", "input.value": "q", "output.value": JSON.stringify(value) }));
    const fromDocuments = only({
      documents: [
        { pageContent: "a", metadata: {}, id: "d1" },
        { page_content: "b", metadata: { doc_id: "d2" } },
      ],
    });
    expect(fromDocuments.response.results).toEqual([
      { memory_id: "d1", summary: "a" },
      { memory_id: "d2", summary: "b" },
    ]);
    const fromResults = only({ results: [{ memory_id: "r1", summary: "s", score: 0.7 }], confidence: null });
    expect(fromResults.response.results).toEqual([{ memory_id: "r1", summary: "s", score: 0.7 }]);
    expect(fromResults.computedConfidence?.top_score).toBe(0.7);
    const serialized = only([
      { lc: 1, type: "constructor", id: ["langchain", "schema", "Document"], kwargs: { page_content: "c", id: "k1" } },
    ]);
    expect(ids(serialized)).toEqual(["k1"]);
  });

  it("does not take ids from an output.value whose documents do not line up with the attributes", () => {
    const s = langchainSpan([{ pageContent: "alpha", metadata: {} }]);
    s.attributes["output.value"] = JSON.stringify({ documents: [{ pageContent: "beta", metadata: {}, id: "wrong" }] });
    const recall = recallOf(s);
    expect(ids(recall)).toEqual([contentHashId("alpha")]);
    expect(notice(recall, "span_unread")).toContain("do not line up");
  });

  it("a document with no id anywhere gets a stable id made from its content, and says so", () => {
    const recall = recallOf(
      langchainSpan([
        { pageContent: "Standup at 9:30", metadata: {} },
        { pageContent: "Standup at 9:30", metadata: { note: "same text" } },
        { pageContent: "Lunch at noon", metadata: { id: "" } },
      ]),
    );
    const hash = contentHashId("Standup at 9:30");
    expect(hash).toMatch(/^content:[0-9a-f]{16}$/);
    expect(ids(recall)).toEqual([hash, hash, contentHashId("Lunch at noon")]);
    expect(contentHashId("Standup at 9:30")).toBe(hash);
    expect(notice(recall, "span_ids_generated")).toMatch(/^3 documents carried no id/);
  });

  it("no score: logged without scores and without a level (not enough signal), or with the level the span stated", () => {
    const unscored = recallOf(langchainSpan([{ pageContent: "x", metadata: { id: "a" } }]));
    expect(unscored.response.results).toEqual([{ memory_id: "a", summary: "x" }]);
    expect(unscored.computedConfidence).toBeUndefined();
    expect(unscored.response.confidence).toBeUndefined();
    expect(notice(unscored, "span_scores_missing")).toContain("not enough signal");

    const block = { level: "low", top_score: 0.3, result_count: 1, rationale: "stated" };
    const stated = recallOf(
      langchainSpan([{ pageContent: "x", metadata: { id: "a" } }], { "recall.confidence": JSON.stringify(block) }),
    );
    expect(stated.response.confidence).toEqual(block);
    expect(notice(stated, "span_scores_missing")).toContain("the level is the one the span stated");
  });

  it("a score present: in document.score, or the metadata's score / relevance_score; the block computed from them", () => {
    const recall = recallOf(
      langchainSpan(
        [
          { pageContent: "x", metadata: { id: "a" } },
          { pageContent: "y", metadata: { id: "b", relevance_score: 0.5 } },
          { pageContent: "z", metadata: { id: "c", score: 0.25 } },
        ],
        { "retrieval.documents.0.document.score": 0.9 },
      ),
    );
    expect((recall.response.results as { score?: number }[]).map((r) => r.score)).toEqual([0.9, 0.5, 0.25]);
    expect(recall.computedConfidence).toMatchObject({ computed_from: "scores", top_score: 0.9, result_count: 3 });
    expect(kinds(recall)).toEqual(["span_ids_derived"]);
  });

  it("metadata that is not JSON is said, and the rest still read", () => {
    const s = langchainSpan([{ pageContent: "x", metadata: {} }]);
    s.attributes["retrieval.documents.0.document.metadata"] = "{not json";
    s.attributes["output.value"] = "plain text answer";
    const recall = recallOf(s);
    expect(ids(recall)).toEqual([contentHashId("x")]);
    expect(notice(recall, "span_unread")).toContain("retrieval.documents.0.document.metadata is not a JSON object");
  });

  it("text the database cannot store (NUL, a lone surrogate) is replaced and said; never a rejection", () => {
    const recall = recallOf(
      langchainSpan([{ pageContent: "cut in half \uD83D", metadata: { id: "a\u0000b" } }], { "input.value": "q\u0000" }),
    );
    expect(recall.request.query).toBe("q\uFFFD");
    expect(recall.response.results).toEqual([{ memory_id: "a\uFFFDb", summary: "cut in half \uFFFD" }]);
    expect(notice(recall, "span_unread")).toMatch(/a document id held a NUL.*the query held a NUL/);
  });
});

describe("decodeJsonExport", () => {
  it("reads OTLP/JSON: hex ids, attribute values of every kind, snake_case names too", () => {
    const [decoded] = decodeJsonExport(
      JSON.stringify({
        resource_spans: [
          {
            resource: { attributes: [{ key: "service.name", value: { stringValue: "svc" } }] },
            scopeSpans: [
              {
                spans: [
                  {
                    traceId: TRACE.toUpperCase(),
                    spanId: SPAN,
                    name: "r",
                    startTimeUnixNano: "1780000000000000000",
                    attributes: [
                      { key: "s", value: { stringValue: "x" } },
                      { key: "i", value: { intValue: "42" } },
                      { key: "d", value: { doubleValue: 0.5 } },
                      { key: "b", value: { boolValue: true } },
                      { key: "a", value: { arrayValue: { values: [{ intValue: 1 }, { stringValue: "y" }] } } },
                      { key: "k", value: { kvlistValue: { values: [{ key: "z", value: { boolValue: false } }] } } },
                    ],
                  },
                ],
              },
            ],
          },
        ],
      }),
    );
    expect(decoded).toMatchObject({
      traceId: TRACE,
      spanId: SPAN,
      resource: { "service.name": "svc" },
      attributes: { s: "x", i: 42, d: 0.5, b: true, a: [1, "y"], k: { z: false } },
      endTimeUnixNano: "0",
    });
  });

  it("refuses what is not an export", () => {
    for (const body of ["nope", "[]", '{"resourceSpans": {}}', '{"resourceSpans": [3]}']) {
      expect(() => decodeJsonExport(body), body).toThrow(MalformedExport);
    }
    expect(decodeJsonExport("{}")).toEqual([]);
  });

  it("ids: hex of the right size, base64 from JSON, never all zeros", () => {
    expect(idOf(SPAN, 8, "json")).toBe(SPAN);
    expect(idOf(Buffer.from(SPAN, "hex").toString("base64"), 8, "json")).toBe(SPAN);
    expect(idOf("0000000000000000", 8, "json")).toBeNull();
    expect(idOf("abc", 8, "json")).toBeNull();
    expect(idOf([...Buffer.from(TRACE, "hex")], 16, "protobuf")).toBe(TRACE);
  });
});
