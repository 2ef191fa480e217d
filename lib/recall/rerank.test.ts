import { describe, expect, it } from "vitest";
import { buildCandidatePool, confidenceInputFromPool, type ArmHit } from "./merge";
import { applyRerank } from "./rerank";

const hits = (pairs: [string, number][]): ArmHit[] => pairs.map(([id, score]) => ({ id, score }));

const merged = buildCandidatePool("hybrid", {
  semantic: hits([
    ["a", 0.9],
    ["b", 0.8],
    ["c", 0.5],
  ]),
  keyword: hits([
    ["c", 3],
    ["d", 2],
  ]),
});

describe("applyRerank", () => {
  it("orders by relevance, overwrites hybrid_score and score (hybrid), keeps the raw cosines and BM25", () => {
    expect(merged.map((c) => c.id)).toEqual(["c", "a", "b", "d"]);
    const out = applyRerank("hybrid", merged, [
      { index: 3, score: 0.99 }, // d
      { index: 2, score: 0.5 }, // b
      { index: 0, score: 0.1 }, // c
      { index: 1, score: 0.7 }, // a
    ]);
    expect(out.map((c) => [c.id, c.hybrid_score, c.score])).toEqual([
      ["d", 0.99, 0.99],
      ["a", 0.7, 0.7],
      ["b", 0.5, 0.5],
      ["c", 0.1, 0.1],
    ]);
    expect(out.find((c) => c.id === "a")!.semantic_score_raw).toBe(0.9);
    expect(out.find((c) => c.id === "d")!.semantic_score_raw).toBeNull();
    expect(out.find((c) => c.id === "c")!.keyword_score_raw).toBe(3);
  });

  it("feeds confidence the relevance scores and the raw cosines of the reranked pool", () => {
    const out = applyRerank("hybrid", merged, [
      { index: 3, score: 0.99 },
      { index: 1, score: 0.7 },
    ]);
    expect(confidenceInputFromPool(out.slice(0, 2))).toEqual({ hybridScores: [0.99, 0.7], semanticRaw: [0.9] });
  });

  it("puts candidates the reranker did not score after the scored ones, in merged order, with no hybrid score", () => {
    const out = applyRerank("hybrid", merged, [{ index: 2, score: 0.3 }]);
    expect(out.map((c) => [c.id, c.hybrid_score])).toEqual([
      ["b", 0.3],
      ["c", null],
      ["a", null],
      ["d", null],
    ]);
  });

  it("breaks relevance ties by merged order, and ignores indexes out of range or repeated", () => {
    const out = applyRerank("hybrid", merged, [
      { index: 1, score: 0.5 },
      { index: 0, score: 0.5 },
      { index: 9, score: 1 },
      { index: 1, score: 0.99 },
    ]);
    expect(out.map((c) => [c.id, c.hybrid_score])).toEqual([
      ["c", 0.5],
      ["a", 0.5],
      ["b", null],
      ["d", null],
    ]);
  });

  it("keeps the raw cosine as the score in semantic mode (the reference's meaning of score there)", () => {
    const semantic = buildCandidatePool("semantic", {
      semantic: hits([
        ["a", 0.9],
        ["b", 0.8],
      ]),
    });
    const out = applyRerank("semantic", semantic, [
      { index: 1, score: 0.9 },
      { index: 0, score: 0.2 },
    ]);
    expect(out.map((c) => [c.id, c.score, c.hybrid_score, c.semantic_score_raw])).toEqual([
      ["b", 0.8, 0.9, 0.8],
      ["a", 0.9, 0.2, 0.9],
    ]);
  });

  it("does not change its input", () => {
    const before = JSON.stringify(merged);
    applyRerank("hybrid", merged, [{ index: 3, score: 1 }]);
    expect(JSON.stringify(merged)).toBe(before);
  });
});
