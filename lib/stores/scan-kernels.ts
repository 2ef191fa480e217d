/**
 * The exact scan's WebAssembly SIMD kernels (docs/ARCHITECTURE.md, "The in-memory index").
 *
 * The module is assembled here, in source, byte by byte: five small functions need no toolchain,
 * and building it at import keeps the bytes and their explanation in one reviewed file (no
 * generated blob to drift). Node 20 runs 128-bit WASM SIMD everywhere; the scalar JS loop it
 * replaces was 8× above memory bandwidth, these kernels are near it.
 *
 * Layout contract with MemoryIndex: f32 rows are `strideF` floats apart (dim rounded up to 8,
 * zero padded), int8 rows `stride8` bytes apart (dim rounded up to 16, zero padded); padding
 * multiplies zeros, so it changes no sum. Every row's cosine is computed with the same
 * operations in the same order (two 4-lane accumulators, then lanes (0+1)+(2+3)), whether it goes
 * through the four-row loop, the remainder loop or the rescoring call, so a memory's score never
 * depends on where it sits or which path scored it.
 */

// --- a minimal WASM binary writer -------------------------------------------------------------

function uleb(n: number): number[] {
  const out: number[] = [];
  do {
    let byte = n & 0x7f;
    n >>>= 7;
    if (n !== 0) byte |= 0x80;
    out.push(byte);
  } while (n !== 0);
  return out;
}

function sleb(n: number): number[] {
  const out: number[] = [];
  for (;;) {
    const byte = n & 0x7f;
    n >>= 7;
    if ((n === 0 && (byte & 0x40) === 0) || (n === -1 && (byte & 0x40) !== 0)) {
      out.push(byte);
      return out;
    }
    out.push(byte | 0x80);
  }
}

const I32 = 0x7f;
const F32 = 0x7d;
const V128 = 0x7b;

/** Instruction helpers: each returns the bytes of one instruction. */
const op = {
  get: (i: number) => [0x20, ...uleb(i)],
  set: (i: number) => [0x21, ...uleb(i)],
  tee: (i: number) => [0x22, ...uleb(i)],
  i32: (v: number) => [0x41, ...sleb(v)],
  add: [0x6a],
  sub: [0x6b],
  mul: [0x6c],
  ltU: [0x49],
  gtU: [0x4b],
  eqz: [0x45],
  block: [0x02, 0x40],
  loop: [0x03, 0x40],
  end: [0x0b],
  br: (d: number) => [0x0c, ...uleb(d)],
  brIf: (d: number) => [0x0d, ...uleb(d)],
  ret: [0x0f],
  f32Add: [0x92],
  f32Store: (offset = 0) => [0x38, 2, ...uleb(offset)],
  i32Store: (offset = 0) => [0x36, 2, ...uleb(offset)],
  simd: (code: number, ...imm: number[]) => [0xfd, ...uleb(code), ...imm],
};
const v = {
  load: (offset = 0) => op.simd(0x00, 4, ...uleb(offset)),
  load8x8s: (offset = 0) => op.simd(0x01, 3, ...uleb(offset)),
  zero: () => op.simd(0x0c, ...new Array(16).fill(0)),
  or: () => op.simd(0x50),
  store: (offset = 0) => op.simd(0x0b, 4, ...uleb(offset)),
  f32x4Add: () => op.simd(0xe4),
  f32x4Mul: () => op.simd(0xe6),
  f32x4Lane: (lane: number) => op.simd(0x1f, lane),
  i32x4Add: () => op.simd(0xae),
  i32x4Dot16: () => op.simd(0xba),
  i32x4Lane: (lane: number) => op.simd(0x1b, lane),
};

interface FunctionDef {
  name: string;
  params: number[];
  results: number[];
  locals: number[];
  body: number[];
}

function section(id: number, payload: number[]): number[] {
  return [id, ...uleb(payload.length), ...payload];
}

function vec(items: number[][]): number[] {
  return [...uleb(items.length), ...items.flat()];
}

function name(s: string): number[] {
  const bytes = [...Buffer.from(s, "utf8")];
  return [...uleb(bytes.length), ...bytes];
}

function assemble(functions: FunctionDef[]): Uint8Array<ArrayBuffer> {
  const types = functions.map((f) => [0x60, ...vec(f.params.map((t) => [t])), ...vec(f.results.map((t) => [t]))]);
  // (import "env" "memory" (memory 1))
  const imports = vec([[...name("env"), ...name("memory"), 0x02, 0x00, 0x01]]);
  const bodies = functions.map((f) => {
    const locals = vec(f.locals.map((t) => [1, t]));
    const code = [...locals, ...f.body, ...op.end];
    return [...uleb(code.length), ...code];
  });
  const bytes = [
    0x00,
    0x61,
    0x73,
    0x6d,
    0x01,
    0x00,
    0x00,
    0x00,
    ...section(1, vec(types)),
    ...section(2, imports),
    ...section(3, vec(functions.map((_, i) => uleb(i)))),
    ...section(7, vec(functions.map((f, i) => [...name(f.name), 0x00, ...uleb(i)]))),
    ...section(10, vec(bodies)),
  ];
  return Uint8Array.from(bytes);
}

// --- the kernels -------------------------------------------------------------------------------

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
function dotF32(): FunctionDef {
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
function dotRowF32(): FunctionDef {
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

/**
 * dotI8(q16, m8, n, strideBytes, out): out[r] (i32) = Σ q16[j]·m8[r][j], exact integer sums.
 * The query is int16, the rows int8 (sign-extended on load); stride is a multiple of 16 bytes.
 */
function dotI8(): FunctionDef {
  const [Q, M, N, S, OUT] = [0, 1, 2, 3, 4];
  const [r, pa, pb, pc, pd, pq, end, q0, q1, a, b, c, d, t] = [5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18];
  const acc = (p: number, x: number) => [
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
  ];
  const bump = (p: number, by: number) => [...op.get(p), ...op.i32(by), ...op.add, ...op.set(p)];
  const lanes = (x: number) => [
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
  ];
  const store = (row: number[], x: number) => [
    ...op.get(OUT),
    ...row,
    ...op.i32(4),
    ...op.mul,
    ...op.add,
    ...lanes(x),
    ...op.i32Store(),
  ];
  void t;
  const body = [
    ...op.i32(0),
    ...op.set(r),
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
    ...[a, b, c, d].flatMap((x) => [...v.zero(), ...op.set(x)]),
    ...op.loop,
    ...op.get(pq),
    ...v.load(0),
    ...op.set(q0),
    ...op.get(pq),
    ...v.load(16),
    ...op.set(q1),
    ...acc(pa, a),
    ...acc(pb, b),
    ...acc(pc, c),
    ...acc(pd, d),
    ...bump(pa, 16),
    ...bump(pb, 16),
    ...bump(pc, 16),
    ...bump(pd, 16),
    ...bump(pq, 32),
    ...op.get(pa),
    ...op.get(end),
    ...op.ltU,
    ...op.brIf(0),
    ...op.end,
    ...store(op.get(r), a),
    ...store([...op.get(r), ...op.i32(1), ...op.add], b),
    ...store([...op.get(r), ...op.i32(2), ...op.add], c),
    ...store([...op.get(r), ...op.i32(3), ...op.add], d),
    ...op.get(r),
    ...op.i32(4),
    ...op.add,
    ...op.set(r),
    ...op.br(0),
    ...op.end,
    ...op.end,
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
    ...op.set(a),
    ...op.loop,
    ...op.get(pq),
    ...v.load(0),
    ...op.set(q0),
    ...op.get(pq),
    ...v.load(16),
    ...op.set(q1),
    ...acc(pa, a),
    ...bump(pa, 16),
    ...bump(pq, 32),
    ...op.get(pa),
    ...op.get(end),
    ...op.ltU,
    ...op.brIf(0),
    ...op.end,
    ...store(op.get(r), a),
    ...op.get(r),
    ...op.i32(1),
    ...op.add,
    ...op.set(r),
    ...op.br(0),
    ...op.end,
    ...op.end,
  ];
  return {
    name: "dotI8",
    params: [I32, I32, I32, I32, I32],
    results: [],
    locals: [I32, I32, I32, I32, I32, I32, I32, V128, V128, V128, V128, V128, V128, V128],
    body,
  };
}

/**
 * streamRead(p, bytes, out): reads `bytes` (a multiple of 64) from p with four independent OR
 * chains and stores the result at out. The benchmark's floor: the least work a scan of the same
 * matrix can do, so the scan's figure can be read against memory bandwidth.
 */
function streamRead(): FunctionDef {
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

export interface ScanKernels {
  memory: WebAssembly.Memory;
  dotF32(q: number, m: number, n: number, strideBytes: number, out: number): void;
  dotRowF32(q: number, row: number, strideBytes: number): number;
  dotI8(q16: number, m8: number, n: number, strideBytes: number, out: number): void;
  streamRead(p: number, bytes: number, out: number): void;
}

let compiled: WebAssembly.Module | null = null;

/** The kernels' bytes (exported for the test that checks the module validates). */
export function kernelModuleBytes(): Uint8Array<ArrayBuffer> {
  return assemble([dotF32(), dotRowF32(), dotI8(), streamRead()]);
}

/** A fresh kernel instance over its own memory of `pages` 64 KiB pages (growable to 4 GiB). */
export function instantiateKernels(pages: number): ScanKernels {
  compiled ??= new WebAssembly.Module(kernelModuleBytes());
  const memory = new WebAssembly.Memory({ initial: pages, maximum: 65536 });
  const instance = new WebAssembly.Instance(compiled, { env: { memory } });
  const e = instance.exports as unknown as Omit<ScanKernels, "memory">;
  return { memory, dotF32: e.dotF32, dotRowF32: e.dotRowF32, dotI8: e.dotI8, streamRead: e.streamRead };
}
