import { describe, expect, it } from "vitest";
import { distinctTerms, keywordTerm, MemoryIndex } from "./memory-index";
import { centredRng as rng } from "./test-fixtures";

function naiveTop(vectors: Map<string, Float32Array>, query: Float32Array, limit: number) {
  return [...vectors]
    .map(([id, v]) => ({ id, score: v.reduce((sum, x, j) => sum + x * query[j]!, 0) }))
    .sort((a, b) => b.score - a.score)
    .slice(0, limit);
}

describe("MemoryIndex.semanticTop", () => {
  it.each([7, 512])("matches a plain dot product for every row count (dim %i), after removals too", (dim) => {
    const random = rng(dim);
    const index = new MemoryIndex(dim);
    const vectors = new Map<string, Float32Array>();
    for (let i = 0; i < 37; i++) {
      const v = Float32Array.from({ length: dim }, random);
      vectors.set(`m${i}`, v);
      index.upsert([{ id: `m${i}`, vector: v, text: `memory ${i}`, type: i % 2 ? "fact" : "note", tags: [] }]);
    }
    const query = Float32Array.from({ length: dim }, random);
    const check = () => {
      const got = index.semanticTop(query, 10);
      const want = naiveTop(vectors, query, 10);
      expect(got.map((h) => h.id)).toEqual(want.map((h) => h.id));
      got.forEach((h, i) => expect(h.score).toBeCloseTo(want[i]!.score, 5));
    };
    check();
    for (const id of ["m0", "m17", "m36"]) {
      index.remove([id]);
      vectors.delete(id);
    }
    check();
  });

  it("gives a memory the same cosine wherever it sits in the matrix", () => {
    const random = rng(3);
    const dim = 9;
    const target = Float32Array.from({ length: dim }, random);
    const query = Float32Array.from({ length: dim }, random);
    const scoreAt = (position: number) => {
      const index = new MemoryIndex(dim);
      for (let i = 0; i < 6; i++) {
        const v = i === position ? target : Float32Array.from({ length: dim }, random);
        index.upsert([{ id: i === position ? "target" : `o${i}`, vector: v, text: "x", type: "note", tags: [] }]);
      }
      return index.semanticTop(query, 6).find((h) => h.id === "target")!.score;
    };
    // Wherever the row sits, the matrix loop scores it with the same operations.
    const scores = [0, 1, 2, 3, 4, 5].map(scoreAt);
    expect(new Set(scores).size).toBe(1);
  });

  it("skips memories without a vector and applies the type filter", () => {
    const index = new MemoryIndex(2);
    index.upsert([
      { id: "a", vector: Float32Array.of(1, 0), text: "a", type: "fact", tags: [] },
      { id: "b", vector: null, text: "b", type: "fact", tags: [] },
      { id: "c", vector: Float32Array.of(0.6, 0.8), text: "c", type: "note", tags: [] },
    ]);
    expect(index.semanticTop(Float32Array.of(1, 0), 5).map((h) => h.id)).toEqual(["a", "c"]);
    expect(index.semanticTop(Float32Array.of(1, 0), 5, { types: ["note"] }).map((h) => h.id)).toEqual(["c"]);
  });
});

describe("keyword terms", () => {
  it("drops stopwords and repeats, lower-cases after NFKC", () => {
    expect(distinctTerms("What is the ＰＯＳＴＧＲＥＳ pooler, the pooler?")).toEqual(["postgr", "pooler"]);
  });
});

describe("English keyword terms (keywordTerm)", () => {
  it("stems with Porter, folds accents, drops stopwords before stemming", () => {
    expect(distinctTerms("allergies allergy Deploys deployed deploying meetings Cafés naïve the was")).toEqual([
      "allergi",
      "deploi",
      "meet",
      "cafe",
      "naiv",
    ]);
    expect(keywordTerm("Running")).toBe("run");
    expect(keywordTerm("THE")).toBeNull();
  });

  it("matches inflections in the index: a query for 'allergies' finds a memory saying 'allergy'", () => {
    const index = new MemoryIndex(2);
    index.upsert([
      { id: "a", vector: null, text: "Maya has a severe peanut allergy", type: "note", tags: [] },
      { id: "b", vector: null, text: "Lunch is at noon", type: "note", tags: [] },
    ]);
    expect(index.keywordTop("which allergies does she have", 5).map((h) => h.id)).toEqual(["a"]);
  });
});
