/**
 * The loops every matrix kernel shares (dotF32, dotRowF32, dotI8): walk a row and the query
 * side by side, 32 query bytes a step, and in a whole-matrix kernel one row after the other. A
 * kernel supplies only its multiply-accumulate and how a finished row is stored, so the matrix
 * loop and the rescoring call run the same operations in the same order (see index.ts).
 */
import { I32, V128, op, v } from "./wasm-writer";

/** What one kernel does per step and per finished row; `A` is one row's accumulator locals. */
export interface RowOps<A extends readonly number[]> {
  /** Bytes a row pointer advances per step (the query pointer always advances 32). */
  rowStep: number;
  /** Adds this step's products of the row at pointer local `p` into `acc`, with q0/q1 loaded. */
  step(p: number, acc: A, q0: number, q1: number): number[];
  /** With the destination address on the stack, pushes the row's result from `acc` and stores it. */
  finish(acc: A): number[];
}

/** The locals a one-row walk uses: params Q and S, pointers pa/pq/end, query vectors q0/q1. */
export interface RowLocals {
  Q: number;
  S: number;
  pa: number;
  pq: number;
  end: number;
  q0: number;
  q1: number;
}

const QUERY_STEP = 32;

/** Adds `by` to the i32 local `p`. */
export const bump = (p: number, by: number) => [...op.get(p), ...op.i32(by), ...op.add, ...op.set(p)];

const zero = (accs: readonly number[]) => accs.flatMap((x) => [...v.zero(), ...op.set(x)]);

/** Loads the query's next 32 bytes into q0 and q1. */
const loadQuery = (pq: number, q0: number, q1: number) => [
  ...op.get(pq),
  ...v.load(0),
  ...op.set(q0),
  ...op.get(pq),
  ...v.load(16),
  ...op.set(q1),
];

/** The loop's exit test: back to its top while pa < end. */
const untilEnd = (pa: number, end: number) => [...op.get(pa), ...op.get(end), ...op.ltU, ...op.brIf(0)];

/**
 * One row into `acc`: `rowStart` pushes the row's address; leaves the sums in `acc` (stride S
 * bytes of row, the query from Q).
 */
export function walkRow<A extends readonly number[]>(ops: RowOps<A>, l: RowLocals, rowStart: number[], acc: A): number[] {
  return [
    ...rowStart,
    ...op.tee(l.pa),
    ...op.get(l.S),
    ...op.add,
    ...op.set(l.end),
    ...op.get(l.Q),
    ...op.set(l.pq),
    ...zero(acc),
    ...op.loop,
    ...loadQuery(l.pq, l.q0, l.q1),
    ...ops.step(l.pa, acc, l.q0, l.q1),
    ...bump(l.pa, ops.rowStep),
    ...bump(l.pq, QUERY_STEP),
    ...untilEnd(l.pa, l.end),
    ...op.end,
  ];
}

/** The params of a whole-matrix kernel (q, m, n, strideBytes, out), all i32. */
export const MATRIX_PARAMS = [I32, I32, I32, I32, I32];
/** Its shared locals (r, pa, pq, end, q0, q1); a kernel's own locals follow them. */
export const MATRIX_LOCALS = [I32, I32, I32, I32, V128, V128];
/** The index of a whole-matrix kernel's first own local. */
export const FIRST_KERNEL_LOCAL = MATRIX_PARAMS.length + MATRIX_LOCALS.length;

/**
 * The body of kernel(q, m, n, strideBytes, out): every row r of the matrix at m + r·strideBytes
 * scored against q into the accumulator locals `acc`, and stored at out + 4r.
 *
 * One row after the other, so the matrix is read as one sequential stream. Four rows side by
 * side, each query load shared by the four, read four streams 2 KiB apart that jump ahead at
 * every block: on this project's 2-core machines that ran at about half the bandwidth of one
 * stream (`npm run bench -- scan`: 1.8–2× the floor against 1.06×). The query stays in L1.
 */
export function matrixBody<A extends readonly number[]>(ops: RowOps<A>, acc: A): number[] {
  const [Q, M, N, S, OUT] = [0, 1, 2, 3, 4];
  const [r, pa, pq, end, q0, q1] = [5, 6, 7, 8, 9, 10];
  return [
    ...op.i32(0),
    ...op.set(r),
    ...op.block,
    ...op.loop,
    ...op.get(r),
    ...op.get(N),
    ...op.ltU,
    ...op.eqz,
    ...op.brIf(1),
    ...walkRow(ops, { Q, S, pa, pq, end, q0, q1 }, [...op.get(M), ...op.get(r), ...op.get(S), ...op.mul, ...op.add], acc),
    ...op.get(OUT),
    ...op.get(r),
    ...op.i32(4),
    ...op.mul,
    ...op.add,
    ...ops.finish(acc),
    ...op.get(r),
    ...op.i32(1),
    ...op.add,
    ...op.set(r),
    ...op.br(0),
    ...op.end,
    ...op.end,
  ];
}
