import { describe, expect, it } from "vitest";
import { RecallInputError } from "./errors";
import {
  armsForMode,
  buildCandidatePool,
  candidatesK,
  confidenceInputFromPool,
  fetchSize,
  mergeHybrid,
  type ArmHit,
} from "./merge";
import { mulberry32 } from "./test-support/prng";

const hits = (pairs: [string, number][]): ArmHit[] => pairs.map(([id, score]) => ({ id, score }));

describe("mergeHybrid: the spec's merge tests (weights 0.6/0.4)", () => {
  it("both empty → []", () => {
    expect(mergeHybrid({ semantic: [], keyword: [] })).toEqual([]);
  });

  it("semantic only m1:0.9 → semantic_score 1.0, keyword_score 0.0, hybrid 0.6", () => {
    expect(mergeHybrid({ semantic: hits([["m1", 0.9]]), keyword: [] })).toEqual([
      { id: "m1", hybrid_score: 0.6, semantic_score: 1.0, keyword_score: 0, semantic_score_raw: 0.9, keyword_score_raw: null },
    ]);
  });

  it("keyword only m1:0.8 → semantic_score 0.0, keyword_score 1.0, hybrid 0.4", () => {
    expect(mergeHybrid({ semantic: [], keyword: hits([["m1", 0.8]]) })).toEqual([
      { id: "m1", hybrid_score: 0.4, semantic_score: 0, keyword_score: 1.0, semantic_score_raw: null, keyword_score_raw: 0.8 },
    ]);
  });

  it("overlap m1 sem 1.0 / kw 0.5 → one entry, hybrid ≈ 1.0", () => {
    const merged = mergeHybrid({ semantic: hits([["m1", 1.0]]), keyword: hits([["m1", 0.5]]) });
    expect(merged).toHaveLength(1);
    expect(merged[0]?.hybrid_score).toBeCloseTo(1.0, 12);
    expect(merged[0]).toMatchObject({ semantic_score: 1, keyword_score: 1, semantic_score_raw: 1.0, keyword_score_raw: 0.5 });
  });

  it("custom weights 0.8/0.2 → m1 0.8, m2 0.2", () => {
    const merged = mergeHybrid({ semantic: hits([["m1", 1.0]]), keyword: hits([["m2", 1.0]]) }, { semantic: 0.8, keyword: 0.2 });
    expect(merged.map((c) => [c.id, c.hybrid_score])).toEqual([
      ["m1", 0.8],
      ["m2", 0.2],
    ]);
  });

  it("normalization sem m1:0.5, m2:1.0 → m2 1.0, m1 0.5", () => {
    const merged = mergeHybrid({
      semantic: hits([
        ["m1", 0.5],
        ["m2", 1.0],
      ]),
      keyword: [],
    });
    expect(merged.map((c) => [c.id, c.semantic_score])).toEqual([
      ["m2", 1.0],
      ["m1", 0.5],
    ]);
  });

  it("dedup: sem/kw both m1 → 1 entry", () => {
    expect(mergeHybrid({ semantic: hits([["m1", 0.7]]), keyword: hits([["m1", 3.2]]) })).toHaveLength(1);
  });

  it("sorted output: hybrid scores non-increasing (random arms)", () => {
    const rng = mulberry32(8);
    for (let i = 0; i < 500; i++) {
      const ids = Array.from({ length: 30 }, (_, k) => `m${k}`);
      const sem = rng
        .shuffle(ids)
        .slice(0, rng.int(0, 20))
        .map((id) => ({ id, score: rng.uniform(-0.2, 1) }));
      const kw = rng
        .shuffle(ids)
        .slice(0, rng.int(0, 20))
        .map((id) => ({ id, score: rng.uniform(0, 25) }));
      const merged = mergeHybrid({ semantic: sem, keyword: kw });
      expect(merged).toHaveLength(new Set([...sem, ...kw].map((h) => h.id)).size);
      for (let k = 1; k < merged.length; k++) {
        expect(merged[k - 1]!.hybrid_score).toBeGreaterThanOrEqual(merged[k]!.hybrid_score);
      }
      // Raw scores are carried untouched.
      for (const c of merged) {
        expect(c.semantic_score_raw).toBe(sem.find((h) => h.id === c.id)?.score ?? null);
        expect(c.keyword_score_raw).toBe(kw.find((h) => h.id === c.id)?.score ?? null);
      }
    }
  });

  it("service example: mem2 (0.93333, raw 0.8), mem1 (0.6, raw 0.9), mem3 (0.342857, raw null)", () => {
    const merged = mergeHybrid({
      semantic: hits([
        ["mem1", 0.9],
        ["mem2", 0.8],
      ]),
      keyword: hits([
        ["mem2", 0.7],
        ["mem3", 0.6],
      ]),
    });
    expect(merged.map((c) => c.id)).toEqual(["mem2", "mem1", "mem3"]);
    expect(merged[0]?.hybrid_score).toBeCloseTo(0.93333, 5);
    expect(merged[0]?.semantic_score_raw).toBe(0.8);
    expect(merged[1]).toMatchObject({ hybrid_score: 0.6, semantic_score_raw: 0.9 });
    expect(merged[2]?.hybrid_score).toBeCloseTo(0.342857, 6);
    expect(merged[2]?.semantic_score_raw).toBeNull();
    // The exact arithmetic: (0.8 / 0.9) × 0.6 + (0.7 / 0.7) × 0.4.
    expect(merged[0]?.hybrid_score).toBe((0.8 / 0.9) * 0.6 + 1 * 0.4);
  });
});

describe("mergeHybrid: ordering details", () => {
  it("is stable: ties keep semantic-arm order first, then keyword-only hits in keyword order", () => {
    // Every hit normalizes to 1.0; with equal weights all hybrid scores tie at 0.5.
    const merged = mergeHybrid(
      {
        semantic: hits([
          ["s2", 0.5],
          ["s1", 0.5],
        ]),
        keyword: hits([
          ["k2", 3],
          ["k1", 3],
        ]),
      },
      { semantic: 0.5, keyword: 0.5 },
    );
    expect(merged.map((c) => c.id)).toEqual(["s2", "s1", "k2", "k1"]);
  });

  it("reproduces the all-negative quirk: dividing by a negative max inverts the order", () => {
    const merged = mergeHybrid({
      semantic: hits([
        ["a", -0.1],
        ["b", -0.2],
      ]),
      keyword: [],
    });
    expect(merged.map((c) => [c.id, c.semantic_score, c.semantic_score_raw])).toEqual([
      ["b", 2.0, -0.2],
      ["a", 1.0, -0.1],
    ]);
  });

  it("leaves an arm unchanged when its max is 0", () => {
    const merged = mergeHybrid({
      semantic: hits([
        ["a", 0],
        ["b", -0.3],
      ]),
      keyword: [],
    });
    expect(merged.map((c) => [c.id, c.semantic_score])).toEqual([
      ["a", 0],
      ["b", -0.3],
    ]);
  });

  it("normalizes the keyword arm by its own max (BM25 is unbounded)", () => {
    const merged = mergeHybrid({
      semantic: [],
      keyword: hits([
        ["a", 12.5],
        ["b", 5],
      ]),
    });
    expect(merged.map((c) => c.keyword_score)).toEqual([1, 0.4]);
    expect(merged.map((c) => c.keyword_score_raw)).toEqual([12.5, 5]);
  });

  it("does not mutate its input", () => {
    const sem = hits([
      ["a", 0.5],
      ["b", 0.9],
    ]);
    const copy = structuredClone(sem);
    mergeHybrid({ semantic: sem, keyword: [] });
    expect(sem).toEqual(copy);
  });

  it("rejects bad hits and weights with RecallInputError", () => {
    const cases: [unknown, unknown][] = [
      [{ semantic: [{ id: "a", score: NaN }], keyword: [] }, undefined],
      [{ semantic: [{ id: "", score: 0.5 }], keyword: [] }, undefined],
      [{ semantic: [], keyword: [{ id: "a", score: "1" }] }, undefined],
      [
        {
          semantic: hits([
            ["a", 0.5],
            ["a", 0.4],
          ]),
          keyword: [],
        },
        undefined,
      ],
      [{ semantic: [], keyword: [] }, { semantic: -0.1 }],
      [{ semantic: [], keyword: [] }, { keyword: Infinity }],
    ];
    for (const [arms, weights] of cases) {
      expect(() => mergeHybrid(arms as never, weights as never)).toThrow(RecallInputError);
    }
    try {
      mergeHybrid({
        semantic: hits([
          ["a", 0.5],
          ["a", 0.4],
        ]),
        keyword: [],
      });
    } catch (e) {
      expect((e as RecallInputError).code).toBe("invalid_merge_input");
      expect((e as RecallInputError).details.issues[0]?.path).toEqual(["semantic", 1, "id"]);
    }
  });
});

describe("fetchSize and candidatesK", () => {
  it("fetchSize = min(k × fetch_factor, 200), factor doubled for rerank", () => {
    expect(fetchSize(5, 4)).toBe(20);
    expect(fetchSize(5, 4, { rerank: true })).toBe(40);
    expect(fetchSize(100, 3)).toBe(200);
    expect(fetchSize(60, 2, { rerank: true })).toBe(200);
    expect(fetchSize(1, 1)).toBe(1);
  });

  it("fetchSize rejects non-positive or fractional arguments", () => {
    expect(() => fetchSize(0, 4)).toThrow(RecallInputError);
    expect(() => fetchSize(5, 2.5)).toThrow(RecallInputError);
    expect(() => fetchSize(NaN, 2)).toThrow(RecallInputError);
  });

  it("candidatesK follows the candidate pool rules", () => {
    expect(candidatesK({ k: 5 })).toBe(5);
    expect(candidatesK({ k: 5, neuralMemory: true })).toBe(20);
    expect(candidatesK({ k: 5, candidatePoolK: 50 })).toBe(50);
    expect(candidatesK({ k: 5, neuralMemory: true, candidatePoolK: 10 })).toBe(20);
    expect(candidatesK({ k: 5, clusterSize: 12 })).toBe(62);
    expect(candidatesK({ k: 100, clusterSize: 0 })).toBe(100);
    expect(candidatesK({ k: 5, candidatePoolK: null, clusterSize: null })).toBe(5);
    expect(() => candidatesK({ k: 0 })).toThrow(RecallInputError);
    expect(() => candidatesK({ k: 5, clusterSize: -1 })).toThrow(RecallInputError);
  });
});

describe("modes", () => {
  it("keyword never runs the dense arm; semantic never runs BM25; default runs both", () => {
    expect(armsForMode("keyword")).toEqual({ semantic: false, keyword: true });
    expect(armsForMode("semantic")).toEqual({ semantic: true, keyword: false });
    expect(armsForMode("hybrid")).toEqual({ semantic: true, keyword: true });
    expect(armsForMode(undefined)).toEqual({ semantic: true, keyword: true });
    expect(armsForMode(null)).toEqual({ semantic: true, keyword: true });
  });

  const semantic = hits([
    ["a", 0.9],
    ["b", 0.45],
  ]);
  const keyword = hits([
    ["b", 7],
    ["c", 3.5],
  ]);

  it("hybrid pool: merged, score = hybrid_score", () => {
    const pool = buildCandidatePool("hybrid", { semantic, keyword });
    expect(pool.map((c) => c.id)).toEqual(["b", "a", "c"]);
    for (const c of pool) expect(c.score).toBe(c.hybrid_score);
  });

  it("semantic pool: raw cosines, semantic_score_raw = score, no hybrid_score, no normalization", () => {
    expect(buildCandidatePool("semantic", { semantic, keyword })).toEqual([
      {
        id: "a",
        score: 0.9,
        hybrid_score: null,
        semantic_score: null,
        keyword_score: null,
        semantic_score_raw: 0.9,
        keyword_score_raw: null,
      },
      {
        id: "b",
        score: 0.45,
        hybrid_score: null,
        semantic_score: null,
        keyword_score: null,
        semantic_score_raw: 0.45,
        keyword_score_raw: null,
      },
    ]);
  });

  it("keyword pool and degraded hybrid: raw BM25, no cosines", () => {
    const expected = [
      {
        id: "b",
        score: 7,
        hybrid_score: null,
        semantic_score: null,
        keyword_score: null,
        semantic_score_raw: null,
        keyword_score_raw: 7,
      },
      {
        id: "c",
        score: 3.5,
        hybrid_score: null,
        semantic_score: null,
        keyword_score: null,
        semantic_score_raw: null,
        keyword_score_raw: 3.5,
      },
    ];
    expect(buildCandidatePool("keyword", { semantic, keyword })).toEqual(expected);
    expect(buildCandidatePool("hybrid", { semantic: null, keyword })).toEqual(expected);
  });

  it("keeps the first candidates_k", () => {
    expect(buildCandidatePool("hybrid", { semantic, keyword }, { candidatesK: 2 }).map((c) => c.id)).toEqual(["b", "a"]);
    expect(() => buildCandidatePool("hybrid", { semantic, keyword }, { candidatesK: 0 })).toThrow(RecallInputError);
  });
});

describe("confidenceInputFromPool", () => {
  it("takes hybrid_score, else score (skipping nulls), and every non-null raw cosine", () => {
    expect(
      confidenceInputFromPool([
        { hybrid_score: 0.9, score: 0.1, semantic_score_raw: 0.8 },
        { hybrid_score: null, score: 0.4, semantic_score_raw: null },
        { score: null },
        { hybrid_score: 0.2, semantic_score_raw: -0.05 },
        {},
      ]),
    ).toEqual({ hybridScores: [0.9, 0.4, 0.2], semanticRaw: [0.8, -0.05] });
  });

  it("a reranked pool keeps the raw cosines while hybrid_score holds the reranker's relevance", () => {
    const reranked = buildCandidatePool("hybrid", {
      semantic: hits([
        ["a", 0.9],
        ["b", 0.45],
      ]),
      keyword: [],
    }).map((c, i) => ({ ...c, hybrid_score: [0.12, 0.97][i] ?? null }));
    expect(confidenceInputFromPool(reranked)).toEqual({ hybridScores: [0.12, 0.97], semanticRaw: [0.9, 0.45] });
  });
});
