/** The int8 prefilter kernel: exact integer dot products of an int16 query with int8 rows. */
import { FIRST_KERNEL_LOCAL, MATRIX_LOCALS, MATRIX_PARAMS, matrixBody, type RowOps } from "./row-loops";
import { V128, op, v, type FunctionDef } from "./wasm-writer";

/**
 * int8 rows: 16 bytes a step, sign-extended and multiplied pairwise with 16 int16 query lanes
 * into one i32x4 accumulator; a row's result is its lanes' exact sum.
 */
const i8Ops: RowOps<readonly [number]> = {
  rowStep: 16,
  step: (p, [x], q0, q1) => [
    ...op.get(x),
    ...op.get(p),
    ...v.load8x8s(0),
    ...op.get(q0),
    ...v.i32x4Dot16(),
    ...v.i32x4Add(),
    ...op.get(p),
    ...v.load8x8s(8),
    ...op.get(q1),
    ...v.i32x4Dot16(),
    ...v.i32x4Add(),
    ...op.set(x),
  ],
  finish: ([x]) => [
    ...op.get(x),
    ...v.i32x4Lane(0),
    ...op.get(x),
    ...v.i32x4Lane(1),
    ...op.add,
    ...op.get(x),
    ...v.i32x4Lane(2),
    ...op.add,
    ...op.get(x),
    ...v.i32x4Lane(3),
    ...op.add,
    ...op.i32Store(),
  ],
};

/**
 * dotI8(q16, m8, n, strideBytes, out): out[r] (i32) = Σ q16[j]·m8[r][j], exact integer sums.
 * The query is int16, the rows int8 (sign-extended on load); stride is a multiple of 16 bytes.
 */
export function dotI8(): FunctionDef {
  return {
    name: "dotI8",
    params: MATRIX_PARAMS,
    results: [],
    locals: [...MATRIX_LOCALS, V128],
    body: matrixBody(i8Ops, [FIRST_KERNEL_LOCAL] as const),
  };
}
