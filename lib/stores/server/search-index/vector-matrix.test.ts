import { describe, expect, it } from "vitest";
import { kernelModuleBytes } from "./scan-kernels";
import { centredRng as rng, matrixOf as fill, randomUnit, unit } from "./test-fixtures";
import { INT8_MIN_ROWS, resolveScanMode, VectorMatrix } from "./vector-matrix";

/** The reference: float64 dot products of the stored float32 values, top `limit` by (score desc, row asc). */
function referenceTop(rows: (Float32Array | null)[], query: Float32Array, limit: number, accept?: (row: number) => boolean) {
  return rows
    .map((v, row) => ({ row, v }))
    .filter(({ v, row }) => v !== null && (!accept || accept(row)))
    .map(({ v, row }) => ({ row, score: v!.reduce((sum, x, j) => sum + x * query[j]!, 0) }))
    .sort((a, b) => b.score - a.score || a.row - b.row)
    .slice(0, limit);
}

describe("scan kernels", () => {
  it("assemble to a module WebAssembly validates", () => {
    expect(WebAssembly.validate(kernelModuleBytes())).toBe(true);
  });
});

describe("VectorMatrix, the SIMD float32 scan", () => {
  it.each([
    [5, 1],
    [7, 37],
    [512, 403],
    [33, 1030],
  ])("returns the reference pool at dim %i over %i rows, cosines within 1e-6", (dim, n) => {
    const random = rng(dim * 1000 + n);
    const rows = Array.from({ length: n }, (_, i) => (i % 11 === 5 ? null : randomUnit(dim, random)));
    const m = fill(dim, rows);
    for (let trial = 0; trial < 5; trial++) {
      const query = randomUnit(dim, random);
      const limit = [1, 10, 200, n + 5][trial % 4]!;
      const got = m.top(query, n, limit, null, "f32");
      const want = referenceTop(rows, query, limit);
      expect(got.map(([, row]) => row)).toEqual(want.map((h) => h.row));
      got.forEach(([score], i) => expect(Math.abs(score - want[i]!.score)).toBeLessThanOrEqual(1e-6));
    }
  });

  it("gives a row the same score at any position of the matrix loop and in the rescoring call", () => {
    const random = rng(9);
    const dim = 24;
    const target = randomUnit(dim, random);
    const query = randomUnit(dim, random);
    const scores = new Set<number>();
    for (let position = 0; position < 7; position++) {
      const rows = Array.from({ length: 7 }, (_, i) => (i === position ? target : randomUnit(dim, random)));
      const m = fill(dim, rows);
      scores.add(m.scoresF32(query, 7)[position]!);
      const viaInt8 = m.top(query, 7, 7, null, "int8").find(([, row]) => row === position)!;
      scores.add(viaInt8[0]);
    }
    expect(scores.size).toBe(1);
  });

  it("keeps rows right across growth and swap-moves", () => {
    const random = rng(4);
    const dim = 16;
    const m = new VectorMatrix(dim, 2);
    const rows: (Float32Array | null)[] = [];
    for (let i = 0; i < 300; i++) {
      rows.push(randomUnit(dim, random));
      m.set(i, rows[i]!);
    }
    m.move(299, 3);
    rows[3] = rows[299]!;
    rows.pop();
    const query = randomUnit(dim, random);
    expect(m.top(query, 299, 20, null, "f32").map(([, r]) => r)).toEqual(referenceTop(rows, query, 20).map((h) => h.row));
    expect(m.top(query, 299, 20, null, "int8")).toEqual(m.top(query, 299, 20, null, "f32"));
    expect(Array.from(m.vector(3))).toEqual(Array.from(rows[3]!));
  });
});

describe("VectorMatrix, the int8 prefilter", () => {
  const dim = 64;

  function expectSamePool(
    m: VectorMatrix,
    n: number,
    query: Float32Array,
    limit: number,
    accept: ((row: number) => boolean) | null = null,
  ) {
    const exact = m.top(query, n, limit, accept, "f32");
    const viaInt8 = m.top(query, n, limit, accept, "int8");
    expect(m.lastScan.mode).toBe("int8");
    // Same rows, same order, bit-identical scores.
    expect(viaInt8).toEqual(exact);
    return m.lastScan.rescored;
  }

  it("returns exactly the float32 pool on random data, rescoring a small share", () => {
    const random = rng(1);
    const n = 20_000;
    const rows = Array.from({ length: n }, () => randomUnit(dim, random));
    const m = fill(dim, rows);
    for (let trial = 0; trial < 10; trial++) {
      const rescored = expectSamePool(m, n, randomUnit(dim, random), 50);
      // The prefilter must actually prune, or it is only a slower f32 scan.
      expect(rescored).toBeLessThan(n / 4);
      expect(rescored).toBeGreaterThanOrEqual(50);
    }
  }, 120_000);

  it("returns exactly the float32 pool on near-ties: cosines 1e-7 apart, and exact duplicates", () => {
    const random = rng(2);
    const query = randomUnit(dim, random);
    const rows: Float32Array[] = [];
    for (let i = 0; i < 3000; i++) {
      // x = c·q + √(1−c²)·u with u ⊥ q, c = 0.3 + i·1e-7: a staircase of near-equal cosines.
      const u = randomUnit(dim, random);
      const dot = u.reduce((s, x, j) => s + x * query[j]!, 0);
      const orth = unit(u.map((x, j) => x - dot * query[j]!));
      const c = 0.3 + (i % 1500) * 1e-7;
      rows.push(unit(query.map((q, j) => c * q + Math.sqrt(1 - c * c) * orth[j]!)));
    }
    for (let i = 0; i < 200; i++) rows.push(rows[(i * 7) % rows.length]!); // exact duplicates: ties broken by row
    const m = fill(dim, rows);
    for (const limit of [1, 10, 200, 1000]) expectSamePool(m, rows.length, query, limit);
  });

  it("returns exactly the float32 pool on clustered data and on rows with an outlier coordinate", () => {
    const random = rng(3);
    const centres = Array.from({ length: 5 }, () => randomUnit(dim, random));
    const rows: Float32Array[] = [];
    for (let i = 0; i < 8000; i++) {
      const c = centres[i % 5]!;
      const spread = i % 3 === 0 ? 1e-4 : 0.05;
      const v = c.map((x) => x + spread * random());
      if (i % 97 === 0) v[i % dim] = 5; // one huge coordinate: a coarse int8 scale, a large error bound
      rows.push(unit(v));
    }
    const m = fill(dim, rows);
    for (let trial = 0; trial < 8; trial++) {
      const near = centres[trial % 5]!.map((x) => x + 0.01 * random());
      expectSamePool(m, rows.length, unit(near), [10, 200][trial % 2]!);
    }
  });

  it("returns exactly the float32 pool when every rounding error lines up with the query (the bound is tight)", () => {
    // Query ±w on every coordinate (so its int16 form is exact). Coordinate 0 is 127 in every
    // row, pinning the int8 scale s = 1. Rows A sit at M + 0.49 (round down: the estimate
    // undershoots by 0.49 per coordinate, as far as rounding can); rows B at M + 0.51 on 61 of
    // the 63 other coordinates and M − 0.49 on two (every estimate overshoots by 0.49). B's
    // estimates are 61 w above A's, B's true scores 0.74 w below: the int8 estimate ranks every B
    // above every A, the true top is all A, and a bound 2% too small loses them.
    const d = 64;
    const random = rng(8);
    const sign = Array.from({ length: d }, () => (random() < 0 ? -1 : 1));
    const query = Float32Array.from(sign, (s) => s / Math.sqrt(d));
    const rows: Float32Array[] = [];
    const limit = 40;
    for (let i = 0; i < 400; i++) {
      const a = i % 10 === 0; // 40 A rows among 360 B rows
      const v = new Float32Array(d);
      for (let j = 0; j < d; j++) {
        const m = 60;
        const t = j === 0 ? 127 : a ? m + 0.49 : j <= 61 ? m + 0.51 : m - 0.49;
        v[j] = sign[j]! * t;
      }
      rows.push(v);
    }
    const m = fill(d, rows);
    const exact = m.top(query, rows.length, limit, null, "f32");
    expect(exact.every(([, row]) => row % 10 === 0)).toBe(true);
    expectSamePool(m, rows.length, query, limit);
  });

  it("holds filters, missing vectors and a limit larger than what passes", () => {
    const random = rng(5);
    const n = 5000;
    const rows = Array.from({ length: n }, (_, i) => (i % 13 === 0 ? null : randomUnit(dim, random)));
    const m = fill(dim, rows);
    const query = randomUnit(dim, random);
    const odd = (row: number) => row % 2 === 1;
    const rare = (row: number) => row % 1000 === 7;
    expectSamePool(m, n, query, 100, odd);
    expect(m.top(query, n, 100, odd, "int8").every(([, row]) => row % 2 === 1 && rows[row] !== null)).toBe(true);
    expect(m.top(query, n, 100, odd, "int8").map(([, r]) => r)).toEqual(referenceTop(rows, query, 100, odd).map((h) => h.row));
    expectSamePool(m, n, query, 100, rare);
    expect(m.top(query, n, 100, rare, "int8")).toHaveLength(5);
  });
});

describe("resolveScanMode", () => {
  it("auto takes int8 from INT8_MIN_ROWS on, while the pool is at most 1/64 of the store", () => {
    expect(resolveScanMode("auto", INT8_MIN_ROWS - 1, 10)).toBe("f32");
    expect(resolveScanMode("auto", INT8_MIN_ROWS, 10)).toBe("int8");
    expect(resolveScanMode("auto", 64_000_000, 1_000_000)).toBe("int8");
    expect(resolveScanMode("auto", 64_000_000, 1_000_001)).toBe("f32");
  });
  it("an explicit mode is kept", () => {
    expect(resolveScanMode("int8", 10, 10)).toBe("int8");
    expect(resolveScanMode("f32", 10_000_000, 10)).toBe("f32");
  });
});
