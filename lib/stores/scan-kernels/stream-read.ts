/** The benchmark's floor kernel (see streamRead below). */
import { I32, V128, op, v, type FunctionDef } from "./wasm-writer";

/**
 * streamRead(p, bytes, out): reads `bytes` (a multiple of 64) from p with four independent OR
 * chains and stores the result at out. The benchmark's floor: the least work a scan of the same
 * matrix can do, so the scan's figure can be read against memory bandwidth.
 */
export function streamRead(): FunctionDef {
  const [P, B, OUT] = [0, 1, 2];
  const [end, a, b, c, d] = [3, 4, 5, 6, 7];
  const chain = (x: number, off: number) => [...op.get(x), ...op.get(P), ...v.load(off), ...v.or(), ...op.set(x)];
  const body = [
    ...op.get(P),
    ...op.get(B),
    ...op.add,
    ...op.set(end),
    ...[a, b, c, d].flatMap((x) => [...v.zero(), ...op.set(x)]),
    ...op.block,
    ...op.get(P),
    ...op.get(end),
    ...op.ltU,
    ...op.eqz,
    ...op.brIf(0),
    ...op.loop,
    ...chain(a, 0),
    ...chain(b, 16),
    ...chain(c, 32),
    ...chain(d, 48),
    ...op.get(P),
    ...op.i32(64),
    ...op.add,
    ...op.tee(P),
    ...op.get(end),
    ...op.ltU,
    ...op.brIf(0),
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
    ...v.store(0),
  ];
  return { name: "streamRead", params: [I32, I32, I32], results: [], locals: [I32, V128, V128, V128, V128], body };
}
