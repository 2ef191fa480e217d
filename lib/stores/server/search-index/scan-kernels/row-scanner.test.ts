import { afterEach, describe, expect, it } from "vitest";
import { centredRng, randomUnit } from "../test-fixtures";
import { VectorMatrix } from "../vector-matrix";
import { VectorShards } from "../vector-shards";
import { scanHelper } from "./index";

/**
 * Scans shared with the helper thread against the same scans on one thread: at 256-d a matrix
 * passes the sharing threshold (8 MiB of rows) from 8,192 rows in float32 and 32,768 in int8.
 */
const DIM = 256;

function matrixOf(rows: number, seed: number): VectorMatrix {
  const random = centredRng(seed);
  const m = new VectorMatrix(DIM, rows);
  for (let row = 0; row < rows; row++) m.set(row, row % 97 === 13 ? null : randomUnit(DIM, random));
  return m;
}

/** Runs `scan` with the helper until the helper took part (a busy machine can leave it out of one scan). */
function shared<T>(m: VectorMatrix, scan: () => T): T {
  scanHelper.mode = "on";
  for (let attempt = 0; attempt < 200; attempt++) {
    const result = scan();
    if (m.lastScan.helperRows > 0) return result;
  }
  throw new Error("the helper thread never took a chunk of 200 scans");
}

function solo<T>(m: VectorMatrix, scan: () => T): T {
  scanHelper.mode = "off";
  const result = scan();
  expect(m.lastScan.helperRows).toBe(0);
  return result;
}

afterEach(() => {
  scanHelper.mode = "auto";
});

describe("scans shared with the helper thread", () => {
  it("give every row the score one thread gives it, float32 and int8 pools included", async () => {
    const n = 40_000;
    const m = matrixOf(n, 3);
    expect(await m.helperReady()).toBe(true);
    const query = randomUnit(DIM, centredRng(4));
    const alone = Float32Array.from(solo(m, () => m.scoresF32(query, n)));
    const both = Float32Array.from(shared(m, () => m.scoresF32(query, n)));
    expect(both).toEqual(alone);
    expect(m.lastScan.helperRows).toBeLessThanOrEqual(n);

    const even = (row: number) => row % 2 === 0;
    for (const [mode, accept] of [
      ["f32", null],
      ["int8", null],
      ["int8", even],
    ] as const) {
      const want = solo(m, () => m.top(query, n, 200, accept, mode));
      expect(shared(m, () => m.top(query, n, 200, accept, mode))).toEqual(want);
      expect(m.lastScan.mode).toBe(mode);
    }
  });

  it("follow the memory as it grows after the helper took it", async () => {
    const m = matrixOf(9_000, 5);
    expect(await m.helperReady()).toBe(true);
    const query = randomUnit(DIM, centredRng(6));
    shared(m, () => m.scoresF32(query, 9_000));
    const random = centredRng(7);
    const n = 60_000;
    for (let row = 9_000; row < n; row++) m.set(row, randomUnit(DIM, random));
    const want = solo(m, () => m.top(query, n, 50, null, "int8"));
    expect(want.some(([, row]) => row >= 9_000)).toBe(true);
    expect(shared(m, () => m.top(query, n, 50, null, "int8"))).toEqual(want);
    expect(Float32Array.from(shared(m, () => m.scoresF32(query, n)))).toEqual(
      Float32Array.from(solo(m, () => m.scoresF32(query, n))),
    );
  });

  it("serve several matrices at once, each over its own memory", async () => {
    const random = centredRng(9);
    const shards = new VectorShards(DIM, { shardRows: 10_000 });
    const n = 30_000;
    for (let row = 0; row < n; row++) shards.set(row, randomUnit(DIM, random));
    expect(shards.shardCount).toBe(3);
    expect(await shards.helperReady()).toBe(true);
    const query = randomUnit(DIM, random);
    scanHelper.mode = "off";
    const want = shards.top(query, n, 100, null, "f32");
    scanHelper.mode = "on";
    let helped = 0;
    for (let attempt = 0; attempt < 200 && helped < 3; attempt++) {
      expect(shards.top(query, n, 100, null, "f32")).toEqual(want);
      if (shards.lastScan.helperRows > 0) helped++;
    }
    expect(helped).toBe(3);
  });

  it("leave small scans on the calling thread", async () => {
    const m = matrixOf(2_000, 8);
    expect(await m.helperReady()).toBe(true);
    scanHelper.mode = "on";
    for (let i = 0; i < 20; i++) {
      m.top(randomUnit(DIM, centredRng(i)), 2_000, 10, null, "f32");
      expect(m.lastScan.helperRows).toBe(0);
    }
  });
});
