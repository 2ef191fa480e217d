import { describe, expect, it } from "vitest";
import { computeConfidence } from "@/lib/recall/confidence";
import { decodeJsonExport, idOf, MalformedExport, type DecodedSpan } from "./decode";
import { confidenceFromScores, spanToRecall } from "./openinference";

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

  it("drops other spans and rejects unreadable retriever spans with the reason", () => {
    expect(spanToRecall(span({ "openinference.span.kind": "LLM" })).kind).toBe("other");
    expect(spanToRecall(span({})).kind).toBe("other");
    const reasons = [
      retriever({ "input.value": "  " }),
      retriever({ "retrieval.documents.0.document.id": "" }),
      retriever({ "retrieval.documents.0.document.score": "high" }),
      retriever({ "recall.confidence": "{oops" }),
      { ...retriever(), traceId: null },
    ].map((s) => {
      const outcome = spanToRecall(s);
      return outcome.kind === "rejected" ? outcome.reason : outcome.kind;
    });
    expect(reasons[0]).toContain("input.value");
    expect(reasons[1]).toContain("retrieval.documents.0.document.id");
    expect(reasons[2]).toContain("score");
    expect(reasons[3]).toContain("recall.confidence");
    expect(reasons[4]).toContain("traceId");
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
