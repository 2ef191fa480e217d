/**
 * The f32 cosine kernels: dotF32 scores every row of the matrix, dotRowF32 one row exactly as
 * dotF32 scores it (the same operations in the same order; see index.ts for the layout contract).
 */
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

/**
 * dotF32(q, m, n, strideBytes, out): out[r] (f32) = row r · q for r in 0..n-1, rows at
 * m + r·strideBytes. strideBytes is a positive multiple of 32.
 */
export function dotF32(): FunctionDef {
  // params 0 q, 1 m, 2 n, 3 stride, 4 out; locals:
  const [Q, M, N, S, OUT] = [0, 1, 2, 3, 4];
  const [r, pa, pb, pc, pd, pq, end, q0, q1, a0, a1, b0, b1, c0, c1, d0, d1, t] = [
    5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20, 21, 22,
  ];
  const zeroAll = [a0, a1, b0, b1, c0, c1, d0, d1].flatMap((x) => [...v.zero(), ...op.set(x)]);
  const bump = (p: number) => [...op.get(p), ...op.i32(32), ...op.add, ...op.set(p)];
  const store = (row: number[], acc0: number, acc1: number) => [
    ...op.get(OUT),
    ...row,
    ...op.i32(4),
    ...op.mul,
    ...op.add,
    ...hsum(acc0, acc1, t),
    ...op.f32Store(),
  ];
  const body = [
    ...op.i32(0),
    ...op.set(r),
    // four rows at a time, each query load shared by the four
    ...op.block,
    ...op.loop,
    ...op.get(r),
    ...op.i32(4),
    ...op.add,
    ...op.get(N),
    ...op.gtU,
    ...op.brIf(1),
    ...op.get(M),
    ...op.get(r),
    ...op.get(S),
    ...op.mul,
    ...op.add,
    ...op.tee(pa),
    ...op.get(S),
    ...op.add,
    ...op.tee(pb),
    ...op.get(S),
    ...op.add,
    ...op.tee(pc),
    ...op.get(S),
    ...op.add,
    ...op.set(pd),
    ...op.get(pa),
    ...op.get(S),
    ...op.add,
    ...op.set(end),
    ...op.get(Q),
    ...op.set(pq),
    ...zeroAll,
    ...op.loop,
    ...op.get(pq),
    ...v.load(0),
    ...op.set(q0),
    ...op.get(pq),
    ...v.load(16),
    ...op.set(q1),
    ...macc(pa, q0, q1, a0, a1),
    ...macc(pb, q0, q1, b0, b1),
    ...macc(pc, q0, q1, c0, c1),
    ...macc(pd, q0, q1, d0, d1),
    ...bump(pa),
    ...bump(pb),
    ...bump(pc),
    ...bump(pd),
    ...bump(pq),
    ...op.get(pa),
    ...op.get(end),
    ...op.ltU,
    ...op.brIf(0),
    ...op.end,
    ...store(op.get(r), a0, a1),
    ...store([...op.get(r), ...op.i32(1), ...op.add], b0, b1),
    ...store([...op.get(r), ...op.i32(2), ...op.add], c0, c1),
    ...store([...op.get(r), ...op.i32(3), ...op.add], d0, d1),
    ...op.get(r),
    ...op.i32(4),
    ...op.add,
    ...op.set(r),
    ...op.br(0),
    ...op.end,
    ...op.end,
    // the rows left over: the same operations, one row at a time
    ...op.block,
    ...op.loop,
    ...op.get(r),
    ...op.get(N),
    ...op.ltU,
    ...op.eqz,
    ...op.brIf(1),
    ...op.get(M),
    ...op.get(r),
    ...op.get(S),
    ...op.mul,
    ...op.add,
    ...op.tee(pa),
    ...op.get(S),
    ...op.add,
    ...op.set(end),
    ...op.get(Q),
    ...op.set(pq),
    ...v.zero(),
    ...op.set(a0),
    ...v.zero(),
    ...op.set(a1),
    ...op.loop,
    ...op.get(pq),
    ...v.load(0),
    ...op.set(q0),
    ...op.get(pq),
    ...v.load(16),
    ...op.set(q1),
    ...macc(pa, q0, q1, a0, a1),
    ...bump(pa),
    ...bump(pq),
    ...op.get(pa),
    ...op.get(end),
    ...op.ltU,
    ...op.brIf(0),
    ...op.end,
    ...store(op.get(r), a0, a1),
    ...op.get(r),
    ...op.i32(1),
    ...op.add,
    ...op.set(r),
    ...op.br(0),
    ...op.end,
    ...op.end,
  ];
  return {
    name: "dotF32",
    params: [I32, I32, I32, I32, I32],
    results: [],
    locals: [I32, I32, I32, I32, I32, I32, I32, V128, V128, V128, V128, V128, V128, V128, V128, V128, V128, V128],
    body,
  };
}

/** dotRowF32(q, row, strideBytes) -> f32: one row, exactly as dotF32 scores it. */
export function dotRowF32(): FunctionDef {
  const [Q, ROW, S] = [0, 1, 2];
  const [pa, pq, end, q0, q1, a0, a1, t] = [3, 4, 5, 6, 7, 8, 9, 10];
  const bump = (p: number) => [...op.get(p), ...op.i32(32), ...op.add, ...op.set(p)];
  const body = [
    ...op.get(ROW),
    ...op.tee(pa),
    ...op.get(S),
    ...op.add,
    ...op.set(end),
    ...op.get(Q),
    ...op.set(pq),
    ...v.zero(),
    ...op.set(a0),
    ...v.zero(),
    ...op.set(a1),
    ...op.loop,
    ...op.get(pq),
    ...v.load(0),
    ...op.set(q0),
    ...op.get(pq),
    ...v.load(16),
    ...op.set(q1),
    ...macc(pa, q0, q1, a0, a1),
    ...bump(pa),
    ...bump(pq),
    ...op.get(pa),
    ...op.get(end),
    ...op.ltU,
    ...op.brIf(0),
    ...op.end,
    ...hsum(a0, a1, t),
  ];
  return {
    name: "dotRowF32",
    params: [I32, I32, I32],
    results: [F32],
    locals: [I32, I32, I32, V128, V128, V128, V128, V128],
    body,
  };
}
