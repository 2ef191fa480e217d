import { describe, expect, it } from "vitest";
import {
  confidenceFromScores,
  confidenceOfAnswer,
  decodeRecallResponse,
  decodeSelectorBlock,
  degradedFromWire,
  newerAnswerShape,
  UNSPECIFIED_DEGRADED_REASON,
} from "./wire";

describe("the one wire rule for a selector block", () => {
  it("keeps a valid block as sent and a missing one as null", () => {
    expect(decodeSelectorBlock({ applied: true, dropped: 2 })).toEqual({ selector: { applied: true, dropped: 2 }, warnings: [] });
    expect(decodeSelectorBlock(undefined)).toEqual({ selector: null, warnings: [] });
    expect(decodeSelectorBlock(null)).toEqual({ selector: null, warnings: [] });
  });

  it("drops a malformed block with a warning naming the field", () => {
    const { selector, warnings } = decodeSelectorBlock({ applied: "yes" });
    expect(selector).toBeNull();
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toMatch(/selector block was malformed and is ignored \(selector\.applied: /);
  });

  it("a response with a malformed selector still decodes; other problems do not", () => {
    const ok = decodeRecallResponse({ results: [], selector: { applied: 3 } });
    expect(ok.success).toBe(true);
    if (ok.success) {
      expect(ok.response.selector).toBeUndefined();
      expect(ok.warnings).toHaveLength(1);
    }
    const bad = decodeRecallResponse({ results: "none", selector: { applied: 3 } });
    expect(bad.success).toBe(false);
    if (!bad.success) expect(bad.issues.map((i) => i.path[0])).toEqual(["results"]);
  });
});

describe("degradedFromWire", () => {
  it("one default when the service gives no reason", () => {
    expect(degradedFromWire({ degraded: true })).toEqual({ reason: UNSPECIFIED_DEGRADED_REASON });
    expect(degradedFromWire({ degraded: true, degraded_reason: "embedding_unavailable" })).toEqual({
      reason: "embedding_unavailable",
    });
    expect(degradedFromWire({ degraded: false })).toBeUndefined();
    expect(degradedFromWire({})).toBeUndefined();
  });
});

describe("the service's older answer (results by id, a total, no confidence block)", () => {
  const older = {
    results: [
      { id: "m-1", summary: "first", score: 0.95 },
      { id: "m-2", summary: "second", score: 0.41 },
      { id: "m-3", summary: "third", score: 0.38 },
    ],
    total: 3,
  };

  it("is read as the newer shape: id becomes memory_id, the rest is kept", () => {
    const decoded = decodeRecallResponse(older);
    expect(decoded.success).toBe(true);
    if (!decoded.success) return;
    expect(decoded.response.results.map((r) => r.memory_id)).toEqual(["m-1", "m-2", "m-3"]);
    expect(decoded.response.results[0]).not.toHaveProperty("id");
    expect(decoded.response).toMatchObject({ total: 3 });
    // A newer answer, or one that names both, is left as it is.
    const both = { results: [{ memory_id: "a", id: "b", score: 1 }] };
    expect(newerAnswerShape(both)).toBe(both);
  });

  it("is judged by the fallback rules over its scores, marked computed_from, as a span without a block is", () => {
    const decoded = decodeRecallResponse(older);
    if (!decoded.success) throw new Error("not decoded");
    const block = confidenceOfAnswer(decoded.response);
    expect(block).toEqual(confidenceFromScores([0.95, 0.41, 0.38]));
    expect(block).toMatchObject({ computed_from: "scores", result_count: 3, basis: "zscore" });
    expect(["high", "moderate", "low", "none"]).toContain(block.level);
    // A stated block is never recomputed.
    const stated = confidenceOfAnswer({ ...decoded.response, confidence: { level: "low", result_count: 8 } });
    expect(stated).toMatchObject({ level: "low", result_count: 8 });
    expect(stated.computed_from).toBeUndefined();
  });
});
