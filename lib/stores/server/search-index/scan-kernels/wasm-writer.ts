/**
 * A minimal WebAssembly binary writer: LEB128, the instructions and SIMD opcodes the scan
 * kernels use, and a module assembler (one imported memory, exported functions). Enough for
 * the kernels in this folder and nothing more (lib/stores/server/search-index/README.md "The in-memory index").
 */
export function uleb(n: number): number[] {
  const out: number[] = [];
  do {
    let byte = n & 0x7f;
    n >>>= 7;
    if (n !== 0) byte |= 0x80;
    out.push(byte);
  } while (n !== 0);
  return out;
}

export function sleb(n: number): number[] {
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

export const I32 = 0x7f;
export const F32 = 0x7d;
export const V128 = 0x7b;

/** Instruction helpers: each returns the bytes of one instruction. */
export const op = {
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
export const v = {
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

export interface FunctionDef {
  name: string;
  params: number[];
  results: number[];
  locals: number[];
  body: number[];
}

export function section(id: number, payload: number[]): number[] {
  return [id, ...uleb(payload.length), ...payload];
}

export function vec(items: number[][]): number[] {
  return [...uleb(items.length), ...items.flat()];
}

export function name(s: string): number[] {
  const bytes = [...Buffer.from(s, "utf8")];
  return [...uleb(bytes.length), ...bytes];
}

/**
 * A module over one imported memory; with `sharedMaxPages`, a shared memory of at most that many
 * pages (threads scanning one matrix), else an unshared one.
 */
export function assemble(functions: FunctionDef[], options: { sharedMaxPages?: number } = {}): Uint8Array<ArrayBuffer> {
  const types = functions.map((f) => [0x60, ...vec(f.params.map((t) => [t])), ...vec(f.results.map((t) => [t]))]);
  // (import "env" "memory" (memory 1)) or (import "env" "memory" (memory 1 max shared))
  const limits = options.sharedMaxPages === undefined ? [0x00, 0x01] : [0x03, 0x01, ...uleb(options.sharedMaxPages)];
  const imports = vec([[...name("env"), ...name("memory"), 0x02, ...limits]]);
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
