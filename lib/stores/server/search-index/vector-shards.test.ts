import { describe, expect, it } from "vitest";
import { MemoryIndex } from "./memory-index";
import { centredRng as rng, matrixOf as single, randomUnit } from "./test-fixtures";
import { maxRowsFor, VectorMatrix } from "./vector-matrix";
import { VectorShards } from "./vector-shards";

describe("maxRowsFor, the 4 GiB wasm memory cap", () => {
  it("fits the header and every row's f32, int8 and score bytes under 4 GiB minus a page", () => {
    for (const dim of [5, 512, 1536, 3072]) {
      const rows = maxRowsFor(dim);
      const strideF = Math.ceil(Math.max(8, dim) / 8) * 8;
      const stride8 = Math.ceil(Math.max(16, dim) / 16) * 16;
      const bytes = (n: number) => strideF * 4 + stride8 * 2 + 64 + 3 * 64 + n * (strideF * 4 + stride8 + 8);
      expect(bytes(rows)).toBeLessThanOrEqual(2 ** 32 - 65_536);
      expect(bytes(rows + 1)).toBeGreaterThan(2 ** 32 - 65_536 - 4 * 64);
    }
    // The figures ARCHITECTURE quotes.
    expect(maxRowsFor(512)).toBe(1_672_468);
    expect(maxRowsFor(1536)).toBe(558_648);
  });

  it("a matrix refuses rows past its cap instead of growing its memory past 4 GiB", () => {
    const m = new VectorMatrix(8, 4, 10);
    for (let row = 0; row < 10; row++) m.set(row, randomUnit(8, rng(row)));
    expect(() => m.set(10, randomUnit(8, rng(99)))).toThrow(RangeError);
    expect(() => m.reserve(11)).toThrow(RangeError);
  });
});

describe("VectorShards, a store past one wasm memory", () => {
  const dim = 24;

  it.each([
    [7, 3],
    [250, 0],
    [64, 1],
    [1000, 2],
  ])("returns exactly the single-matrix pool with %i rows a shard (every mode, with a filter)", (shardRows, seed) => {
    const random = rng(100 + seed);
    const n = 1500;
    const rows = Array.from({ length: n }, (_, i) => (i % 13 === 4 ? null : randomUnit(dim, random)));
    // Near-ties and duplicates across shard borders: equal scores must still break by row.
    for (let i = 0; i < 40; i++) rows[n - 1 - i] = rows[i * 7] ?? null;
    const shards = new VectorShards(dim, { shardRows });
    rows.forEach((v, row) => shards.set(row, v));
    expect(shards.shardCount).toBe(Math.ceil(n / shardRows));
    const reference = single(dim, rows);
    const accept = (row: number) => row % 3 !== 1;
    for (let trial = 0; trial < 6; trial++) {
      const query = trial === 5 ? rows[7]! : randomUnit(dim, random);
      for (const limit of [1, 10, 200, n + 3]) {
        const want = reference.top(query, n, limit, null, "f32");
        expect(shards.top(query, n, limit, null, "f32")).toEqual(want);
        expect(shards.top(query, n, limit, null, "int8")).toEqual(want);
        const filtered = reference.top(query, n, limit, accept, "f32");
        expect(shards.top(query, n, limit, accept, "f32")).toEqual(filtered);
        expect(shards.top(query, n, limit, accept, "int8")).toEqual(filtered);
      }
    }
  });

  it("keeps rows right when the index's swap-remove moves a row across shards", () => {
    const random = rng(5);
    const index = new MemoryIndex(dim, { shardRows: 16 });
    const reference = new MemoryIndex(dim);
    const ids: string[] = [];
    for (let i = 0; i < 100; i++) {
      const memory = {
        id: `m${i}`,
        vector: i % 9 === 0 ? null : randomUnit(dim, random),
        text: `memory ${i}`,
        type: i % 2 ? "fact" : "note",
        tags: [],
      };
      index.upsert([memory]);
      reference.upsert([memory]);
      ids.push(memory.id);
    }
    // Each removal swaps the last row (shard 6) into a hole in an earlier shard.
    for (const id of ["m3", "m20", "m50", "m0", "m97", "m81"]) {
      index.remove([id]);
      reference.remove([id]);
    }
    expect(index.size).toBe(94);
    expect(index.vectorCount).toBe(reference.vectorCount);
    for (let trial = 0; trial < 5; trial++) {
      const query = randomUnit(dim, random);
      expect(index.semanticTop(query, 30)).toEqual(reference.semanticTop(query, 30));
      expect(index.semanticTop(query, 30, { types: ["fact"] }, { scan: "int8" })).toEqual(
        reference.semanticTop(query, 30, { types: ["fact"] }, { scan: "f32" }),
      );
    }
    const query = randomUnit(dim, random);
    for (const id of ids.filter((id) => index.has(id))) {
      expect(index.cosineOf(query, id)).toBe(reference.cosineOf(query, id));
      expect(index.vectorOf(id)).toEqual(reference.vectorOf(id));
    }
  });

  it("reserves a bulk load shard by shard, full shards at their cap", () => {
    const shards = new VectorShards(dim, { shardRows: 50 });
    shards.reserve(120);
    expect(shards.shardCount).toBe(3);
    const random = rng(8);
    const rows = Array.from({ length: 120 }, () => randomUnit(dim, random));
    rows.forEach((v, row) => shards.set(row, v));
    const query = randomUnit(dim, random);
    expect(shards.top(query, 120, 7, null)).toEqual(single(dim, rows).top(query, 120, 7, null, "f32"));
  });
});
