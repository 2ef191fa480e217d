/** The benchmark's floor kernel (see streamRows below). */
import { bump, MATRIX_PARAMS } from "./row-loops";
import { I32, V128, op, v, type FunctionDef } from "./wasm-writer";

/**
 * streamRows(q, m, n, strideBytes, out): reads the n rows at m (n·strideBytes bytes, a multiple
 * of 16) with four independent OR chains, 64 bytes a step, and stores one i32 of the result at
 * out; q is not read. The benchmark's floor: the least work a scan of the same matrix can do, so
 * the scan's figure can be read against memory bandwidth. It has a matrix kernel's signature, so
 * the scan helper thread shares it as it shares a scan (row-scanner.ts): a floor on two threads.
 */
export function streamRows(): FunctionDef {
  const [M, N, S, OUT] = [1, 2, 3, 4];
  const [p, end, a, b, c, d] = [5, 6, 7, 8, 9, 10];
  const chain = (x: number, off: number) => [...op.get(x), ...op.get(p), ...v.load(off), ...v.or(), ...op.set(x)];
  const body = [
    ...op.get(M),
    ...op.tee(p),
    ...op.get(N),
    ...op.get(S),
    ...op.mul,
    ...op.add,
    ...op.set(end),
    ...[a, b, c, d].flatMap((x) => [...v.zero(), ...op.set(x)]),
    // 64 bytes a step while that many are left
    ...op.block,
    ...op.loop,
    ...op.get(end),
    ...op.get(p),
    ...op.sub,
    ...op.i32(64),
    ...op.ltU,
    ...op.brIf(1),
    ...chain(a, 0),
    ...chain(b, 16),
    ...chain(c, 32),
    ...chain(d, 48),
    ...bump(p, 64),
    ...op.br(0),
    ...op.end,
    ...op.end,
    // then 16 bytes a step
    ...op.block,
    ...op.loop,
    ...op.get(p),
    ...op.get(end),
    ...op.ltU,
    ...op.eqz,
    ...op.brIf(1),
    ...chain(a, 0),
    ...bump(p, 16),
    ...op.br(0),
    ...op.end,
    ...op.end,
    ...op.get(OUT),
    ...op.get(a),
    ...op.get(b),
    ...v.or(),
    ...op.get(c),
    ...v.or(),
    ...op.get(d),
    ...v.or(),
    ...v.i32x4Lane(0),
    ...op.i32Store(),
  ];
  return { name: "streamRows", params: MATRIX_PARAMS, results: [], locals: [I32, I32, V128, V128, V128, V128], body };
}
