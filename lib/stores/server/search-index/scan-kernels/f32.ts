/**
 * The f32 cosine kernels: dotF32 scores every row of the matrix, dotRowF32 one row exactly as
 * dotF32 scores it (the same operations in the same order; see index.ts for the layout contract).
 */
import { FIRST_KERNEL_LOCAL, MATRIX_LOCALS, MATRIX_PARAMS, matrixBody, walkRow, type RowOps } from "./row-loops";
import { F32, I32, V128, op, v, type FunctionDef } from "./wasm-writer";

/** Adds `row[off..off+8) · q[off..off+8)` into accumulators acc0 (first 4 lanes) and acc1. */
function macc(rowPtr: number, qv0: number, qv1: number, acc0: number, acc1: number): number[] {
  return [
    ...op.get(acc0),
    ...op.get(rowPtr),
    ...v.load(0),
    ...op.get(qv0),
    ...v.f32x4Mul(),
    ...v.f32x4Add(),
    ...op.set(acc0),
    ...op.get(acc1),
    ...op.get(rowPtr),
    ...v.load(16),
    ...op.get(qv1),
    ...v.f32x4Mul(),
    ...v.f32x4Add(),
    ...op.set(acc1),
  ];
}

/** Pushes the f32 sum of acc0 + acc1 as (lane0 + lane1) + (lane2 + lane3). */
function hsum(acc0: number, acc1: number, tmp: number): number[] {
  return [
    ...op.get(acc0),
    ...op.get(acc1),
    ...v.f32x4Add(),
    ...op.set(tmp),
    ...op.get(tmp),
    ...v.f32x4Lane(0),
    ...op.get(tmp),
    ...v.f32x4Lane(1),
    ...op.f32Add,
    ...op.get(tmp),
    ...v.f32x4Lane(2),
    ...op.get(tmp),
    ...v.f32x4Lane(3),
    ...op.f32Add,
    ...op.f32Add,
  ];
}

/** f32 rows: 8 floats (two 4-lane accumulators) a step; a row's result is their f32 sum. */
function f32Ops(t: number): RowOps<readonly [number, number]> {
  return {
    rowStep: 32,
    step: (p, [acc0, acc1], q0, q1) => macc(p, q0, q1, acc0, acc1),
    finish: ([acc0, acc1]) => [...hsum(acc0, acc1, t), ...op.f32Store()],
  };
}

/**
 * dotF32(q, m, n, strideBytes, out): out[r] (f32) = row r · q for r in 0..n-1, rows at
 * m + r·strideBytes. strideBytes is a positive multiple of 32.
 */
export function dotF32(): FunctionDef {
  const [a0, a1, t] = [FIRST_KERNEL_LOCAL, FIRST_KERNEL_LOCAL + 1, FIRST_KERNEL_LOCAL + 2];
  return {
    name: "dotF32",
    params: MATRIX_PARAMS,
    results: [],
    locals: [...MATRIX_LOCALS, V128, V128, V128],
    body: matrixBody(f32Ops(t), [a0, a1] as const),
  };
}

/** dotRowF32(q, row, strideBytes) -> f32: one row, exactly as dotF32 scores it. */
export function dotRowF32(): FunctionDef {
  const [Q, ROW, S] = [0, 1, 2];
  const [pa, pq, end, q0, q1, a0, a1, t] = [3, 4, 5, 6, 7, 8, 9, 10];
  return {
    name: "dotRowF32",
    params: [I32, I32, I32],
    results: [F32],
    locals: [I32, I32, I32, V128, V128, V128, V128, V128],
    body: [...walkRow(f32Ops(t), { Q, S, pa, pq, end, q0, q1 }, op.get(ROW), [a0, a1]), ...hsum(a0, a1, t)],
  };
}
