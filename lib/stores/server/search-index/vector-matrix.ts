// Past ~400 lines for one reason: every method reads and writes the same private wasm memory
// layout (the offsets below), which must change together (lib/stores/server/search-index/README.md "The in-memory index").
import { instantiateKernels, MAX_PAGES, type ScanKernels } from "./scan-kernels";
import { TopK } from "./top-k";

/**
 * The index's vectors, in WebAssembly memory so the SIMD kernels scan them in place
 * (lib/stores/server/search-index/README.md "The in-memory index"). Rows are dense 0..n-1 (the index swaps the last
 * row into a hole); each row is kept twice: float32 (the exact score) and int8 with its scale and
 * its quantization error (the prefilter for large stores).
 *
 * Memory layout, in bytes: [query f32 | query int16 | floor scratch | f32 rows | int8 rows | scores].
 * At a million 512-d rows offsets pass 2^31: JS offsets are divided, never shifted (`>>` is
 * signed 32-bit), and the kernels compare addresses unsigned.
 */
export type ScanMode = "auto" | "f32" | "int8";

/**
 * Stores at least this large use the int8 prefilter: `npm run bench -- scan` finds it at half
 * the f32 scan's time or less from 25k rows on, on random and on clustered vectors alike; below,
 * both take a few milliseconds.
 */
export const INT8_MIN_ROWS = 20_000;

/**
 * What `mode` means for a scan of `n` rows for the best `limit`: `auto` takes the int8 prefilter
 * from INT8_MIN_ROWS on, while the pool is small beside the store (its rescoring stays cheap).
 */
export function resolveScanMode(mode: ScanMode, n: number, limit: number): "f32" | "int8" {
  return mode === "int8" || (mode === "auto" && n >= INT8_MIN_ROWS && limit * 64 <= n) ? "int8" : "f32";
}
const PAGE = 65_536;
const U = 2 ** -24;
/**
 * A wasm32 memory holds at most 65,536 pages (4 GiB). One page stays unused so that no end
 * address a kernel computes (row pointer + rows × stride) wraps past 2^32 to 0.
 */
const MAX_BYTES = MAX_PAGES * PAGE - PAGE;

/** A matrix's rows 0..rows-1 exactly as held (f32 and int8 rows with their padding, bounds): a snapshot's part. */
export interface MatrixState {
  rows: number;
  f32: Float32Array;
  i8: Int8Array;
  present: Uint8Array;
  scale: Float64Array;
  residual: Float64Array;
  quantNorm: Float64Array;
  maxResidual: number;
  maxNorm: number;
}

export interface ScanStats {
  mode: "f32" | "int8";
  /** Rows rescored in float32 after the int8 pass (int8 mode). */
  rescored: number;
  /** Rows the helper thread scanned (scan-kernels/row-scanner.ts); 0 when the scan was not shared. */
  helperRows: number;
}

function align(n: number, to: number): number {
  return Math.ceil(n / to) * to;
}

/**
 * The most rows one matrix (one wasm memory) can hold at `dim`: its header, then per row the
 * f32 row, the int8 row and an 8-byte score slot (as `reserve` lays them out) (lib/stores/search-index/vector-shards.ts splits a larger
 * store over several matrices). About 1.67M rows at 512-d, 558k at 1536-d.
 */
export function maxRowsFor(dim: number): number {
  const strideF = Math.max(8, align(dim, 8));
  const stride8 = Math.max(16, align(dim, 16));
  const header = align(strideF * 4, 64) + align(stride8 * 2, 64) + 64;
  // Each of the three regions is 64-byte aligned: at most 3 × 63 bytes of padding.
  return Math.floor((MAX_BYTES - header - 3 * 64) / (strideF * 4 + stride8 + 8));
}

export class VectorMatrix {
  /** f32 row stride in floats: dim rounded up to 8 (≥ 8). */
  readonly strideF: number;
  /** int8 row stride in bytes: dim rounded up to 16 (≥ 16). */
  readonly stride8: number;
  /** int16 query bound: Σ|q̃|·127 over dim terms must fit an int32. */
  private readonly qLimit: number;
  private readonly k: ScanKernels;
  private capacity = 0;
  private offF = 0;
  private offI = 0;
  private offS = 0;
  private readonly offQ = 0;
  private readonly offQ16: number;
  private readonly offF0: number;
  private buffer: ArrayBuffer | null = null;
  private f32!: Float32Array;
  private i8!: Int8Array;
  private i16!: Int16Array;
  private i32!: Int32Array;
  private u8!: Uint8Array;
  /** Per row: 1 when it holds a vector. */
  private present: Uint8Array = new Uint8Array(0);
  /** Per row: int8 scale s (x ≈ s·x̃), ‖x − s·x̃‖ and ‖s·x̃‖, all in float64. */
  private scale: Float64Array = new Float64Array(0);
  private residual: Float64Array = new Float64Array(0);
  private quantNorm: Float64Array = new Float64Array(0);
  /** Upper bounds over every row ever stored (removals keep them valid, only looser). */
  private maxResidual = 0;
  private maxNorm = 0;
  /** The rows the int8 estimate pass keeps for rescoring (reused across scans). */
  private kept: Int32Array = new Int32Array(0);
  lastScan: ScanStats = { mode: "f32", rescored: 0, helperRows: 0 };

  /** The most rows this matrix takes (its wasm memory's 4 GiB cap, or less for tests). */
  readonly maxRows: number;

  constructor(
    readonly dim: number,
    initialRows = 1024,
    maxRows = maxRowsFor(dim),
  ) {
    this.maxRows = Math.min(maxRows, maxRowsFor(dim));
    this.strideF = Math.max(8, align(dim, 8));
    this.stride8 = Math.max(16, align(dim, 16));
    this.qLimit = Math.min(32767, Math.floor((2 ** 31 - 1) / (127 * Math.max(1, dim))));
    this.offQ16 = align(this.strideF * 4, 64);
    this.offF0 = this.offQ16 + align(this.stride8 * 2, 64);
    this.k = instantiateKernels(1);
    this.reserve(Math.min(initialRows, this.maxRows));
  }

  /** Makes room for `rows` rows (a bulk load reserves once instead of doubling). */
  reserve(rows: number): void {
    if (rows <= this.capacity) return;
    if (rows > this.maxRows) throw new RangeError(`a vector matrix holds at most ${this.maxRows} rows of ${this.dim} dimensions`);
    const cap = Math.min(Math.max(rows, 16), this.maxRows);
    const offF = this.offF0;
    const offI = align(offF + cap * this.strideF * 4, 64);
    const offS = align(offI + cap * this.stride8, 64);
    const bytes = offS + cap * 8;
    const pages = Math.ceil(bytes / PAGE);
    const have = this.k.memory.buffer.byteLength / PAGE;
    if (pages > have) this.k.memory.grow(pages - have);
    this.refresh();
    // The int8 rows move up (the f32 rows only gain room at their end); copyWithin handles overlap.
    if (this.capacity > 0 && offI !== this.offI) this.u8.copyWithin(offI, this.offI, this.offI + this.capacity * this.stride8);
    this.offF = offF;
    this.offI = offI;
    this.offS = offS;
    this.present = grownU8(this.present, cap);
    this.scale = grownF64(this.scale, cap);
    this.residual = grownF64(this.residual, cap);
    this.quantNorm = grownF64(this.quantNorm, cap);
    this.capacity = cap;
  }

  /** Grows by doubling when `rows` exceeds the capacity. */
  ensure(rows: number): void {
    if (rows <= this.capacity) return;
    let cap = Math.max(16, this.capacity);
    while (cap < rows) cap *= 2;
    // Doubling stops at the cap: 600k rows at 1536-d fit, a doubled 1,048,576 would not.
    this.reserve(Math.max(rows, Math.min(cap, this.maxRows)));
  }

  /** Stores `vector` (length dim) as row `row`, or clears it when null. */
  set(row: number, vector: Float32Array | null): void {
    this.ensure(row + 1);
    this.refresh();
    const f = this.offF / 4 + row * this.strideF;
    const b = this.offI + row * this.stride8;
    this.f32.fill(0, f, f + this.strideF);
    this.i8.fill(0, b, b + this.stride8);
    this.present[row] = vector ? 1 : 0;
    this.scale[row] = 0;
    this.residual[row] = 0;
    this.quantNorm[row] = 0;
    if (!vector) return;
    this.f32.set(vector, f);
    let max = 0;
    for (let j = 0; j < vector.length; j++) max = Math.max(max, Math.abs(vector[j]!));
    if (max === 0) return;
    const s = max / 127;
    let err = 0;
    let norm = 0;
    for (let j = 0; j < vector.length; j++) {
      const x = vector[j]!;
      const q = Math.max(-127, Math.min(127, Math.round(x / s)));
      this.i8[b + j] = q;
      const e = x - q * s;
      err += e * e;
      norm += q * s * (q * s);
    }
    // Float64 sums of a few hundred terms: nudge up so the bounds stay bounds.
    this.scale[row] = s;
    this.residual[row] = Math.sqrt(err) * (1 + 1e-9) + 1e-12;
    this.quantNorm[row] = Math.sqrt(norm) * (1 + 1e-9);
    this.maxResidual = Math.max(this.maxResidual, this.residual[row]!);
    this.maxNorm = Math.max(this.maxNorm, this.quantNorm[row]!);
  }

  /** A copy of rows 0..rows-1 (see MatrixState). */
  exportState(rows: number): MatrixState {
    this.refresh();
    const f = this.offF / 4;
    return {
      rows,
      f32: this.f32.slice(f, f + rows * this.strideF),
      i8: this.i8.slice(this.offI, this.offI + rows * this.stride8),
      present: this.present.slice(0, rows),
      scale: this.scale.slice(0, rows),
      residual: this.residual.slice(0, rows),
      quantNorm: this.quantNorm.slice(0, rows),
      maxResidual: this.maxResidual,
      maxNorm: this.maxNorm,
    };
  }

  /** Puts `state` back as rows 0..state.rows-1: copies, no re-quantization, so every score and bound is as it was. */
  restoreState(state: MatrixState): void {
    if (state.f32.length !== state.rows * this.strideF || state.i8.length !== state.rows * this.stride8) {
      throw new Error(`a matrix state of ${state.rows} rows does not fit ${this.dim} dimensions`);
    }
    this.reserve(state.rows);
    this.refresh();
    // Rows read straight into this memory (rowViews) are already in place.
    const inPlace = (a: Float32Array | Int8Array, offset: number) => a.buffer === this.buffer && a.byteOffset === offset;
    if (!inPlace(state.f32, this.offF)) this.f32.set(state.f32, this.offF / 4);
    if (!inPlace(state.i8, this.offI)) this.i8.set(state.i8, this.offI);
    this.present.set(state.present);
    this.scale.set(state.scale);
    this.residual.set(state.residual);
    this.quantNorm.set(state.quantNorm);
    this.maxResidual = Math.max(this.maxResidual, state.maxResidual);
    this.maxNorm = Math.max(this.maxNorm, state.maxNorm);
  }

  /**
   * Room for `rows` rows, and views of where their f32 and int8 rows live: a snapshot read into
   * them skips a copy of the whole matrix (restoreState keeps them in place). Valid until the
   * memory grows.
   */
  rowViews(rows: number): { f32: Float32Array; i8: Int8Array } {
    this.reserve(rows);
    this.refresh();
    const f = this.offF / 4;
    return {
      f32: this.f32.subarray(f, f + rows * this.strideF),
      i8: this.i8.subarray(this.offI, this.offI + rows * this.stride8),
    };
  }

  /** Copies row `from` over row `to` (the swap-remove of the index). */
  move(from: number, to: number): void {
    this.refresh();
    const fs = this.strideF;
    const f0 = this.offF / 4;
    this.f32.copyWithin(f0 + to * fs, f0 + from * fs, f0 + (from + 1) * fs);
    const s8 = this.stride8;
    this.u8.copyWithin(this.offI + to * s8, this.offI + from * s8, this.offI + (from + 1) * s8);
    this.present[to] = this.present[from]!;
    this.scale[to] = this.scale[from]!;
    this.residual[to] = this.residual[from]!;
    this.quantNorm[to] = this.quantNorm[from]!;
  }

  hasVector(row: number): boolean {
    return this.present[row] === 1;
  }

  /** The stored float32 vector of a row (a copy). */
  vector(row: number): Float32Array {
    this.refresh();
    const f = this.offF / 4 + row * this.strideF;
    return this.f32.slice(f, f + this.dim);
  }

  /**
   * The `limit` best (cosine, row) pairs over rows 0..n-1 that hold a vector and pass `accept`,
   * by (score desc, row asc). Exact in every mode: int8 only chooses which rows to score in f32.
   */
  top(
    query: Float32Array,
    n: number,
    limit: number,
    accept: ((row: number) => boolean) | null,
    mode: ScanMode = "auto",
  ): [number, number][] {
    if (limit <= 0 || n === 0) return [];
    this.writeQuery(query);
    const useInt8 = resolveScanMode(mode, n, limit) === "int8";
    return useInt8 ? this.topInt8(query, n, limit, accept) : this.topF32(n, limit, accept);
  }

  /** One row's exact score, as `top` computes it (the rescoring kernel: same operations, same order). */
  cosine(query: Float32Array, row: number): number {
    this.writeQuery(query);
    return this.k.dotRowF32(this.offQ, this.offF + row * this.strideF * 4, this.strideF * 4);
  }

  /** Every row's exact score, for the benchmark and tests (a view, valid until the next call). */
  scoresF32(query: Float32Array, n: number): Float32Array {
    this.writeQuery(query);
    this.scanF32(n);
    this.lastScan = { mode: "f32", rescored: 0, helperRows: this.k.rows.helperRows };
    return this.f32.subarray(this.offS / 4, this.offS / 4 + n);
  }

  /** Resolves once the scan helper thread holds this matrix's memory (tests, the benchmark); false when there is none. */
  helperReady(): Promise<boolean> {
    return this.k.rows.helperReady();
  }

  /** Streams the f32 rows 0..n-1 once, shared with the helper thread as a scan is (the benchmark's floor). */
  streamF32(n: number): void {
    this.k.rows.scan("streamRows", this.offQ, this.offF, n, this.strideF * 4, this.offS);
  }

  private topF32(n: number, limit: number, accept: ((row: number) => boolean) | null): [number, number][] {
    this.scanF32(n);
    this.refresh();
    const scores = this.f32;
    const s0 = this.offS / 4;
    const present = this.present;
    const top = new TopK(limit);
    let min = -Infinity;
    for (let row = 0; row < n; row++) {
      const s = scores[s0 + row]!;
      if (!(s > min) || present[row] !== 1 || (accept && !accept(row))) continue;
      top.offer(s, row);
      min = top.min;
    }
    this.lastScan = { mode: "f32", rescored: 0, helperRows: this.k.rows.helperRows };
    return top.sorted();
  }

  /**
   * The int8 prefilter. With q = s_q·q̃ + e_q and x = s_x·x̃ + e_x, the int8 estimate
   * a = s_q·s_x·(q̃·x̃) is within b = ‖q‖·‖e_x‖ + ‖e_q‖·‖s_x·x̃‖ (+ float32 rounding of the exact
   * score) of the cosine: a − b ≤ cos ≤ a + b. If L is a lower bound of the limit-th best a − b,
   * no row with a + b < L can be in the top `limit` (limit rows score at least L, strictly more),
   * so rescoring every row with a + b ≥ L in float32 returns exactly the f32 scan's pool.
   */
  private topInt8(query: Float32Array, n: number, limit: number, accept: ((row: number) => boolean) | null): [number, number][] {
    const { sq, eq, qn } = this.quantizeQuery(query);
    this.k.rows.scan("dotI8", this.offQ16, this.offI, n, this.stride8, this.offS);
    // Float32 rounding of the exact score: (stride/8 lane adds + 4) rounding steps, each ≤ u·Σ|q_j x_j|.
    const roundK = (this.strideF / 8 + 6) * U * 1.01;
    const slack = (norm: number) => roundK * qn * norm + 1e-9 * (1 + qn * norm);
    const maxBound = qn * this.maxResidual + eq * this.maxNorm + slack(this.maxNorm + this.maxResidual);
    const margin = 2 * maxBound;
    const { min, full, kept } = this.estimatePass(n, limit, sq, accept, margin);
    const lower = full ? min - maxBound : -Infinity;
    // Rescore in float32 every kept row whose upper bound reaches `lower`, in row order. `cut` is
    // the pass's own `min - margin` (rounding is monotone), so every row it lets through was kept.
    const top = new TopK(limit);
    const cut = full ? min - margin : -Infinity;
    const ints = this.i32;
    const s0 = this.offS / 4;
    const rows = this.kept;
    const scale = this.scale;
    const residual = this.residual;
    const quantNorm = this.quantNorm;
    let rescored = 0;
    for (let i = 0; i < kept; i++) {
      const row = rows[i]!;
      const a = ints[s0 + row]! * scale[row]! * sq;
      if (a < cut) continue;
      const bound = qn * residual[row]! + eq * quantNorm[row]! + slack(quantNorm[row]! + residual[row]!);
      if (a + bound < lower) continue;
      rescored++;
      top.offer(this.k.dotRowF32(this.offQ, this.offF + row * this.strideF * 4, this.strideF * 4), row);
    }
    this.lastScan = { mode: "int8", rescored, helperRows: this.k.rows.helperRows };
    return top.sorted();
  }

  /**
   * Over the int8 scan's estimates: the limit-th best estimate among eligible rows, and (in
   * `this.kept`, in row order) every eligible row whose estimate reached the running limit-th best
   * less `margin` when it was read. The running value only rises to the final one, so the kept
   * rows include every row within `margin` of the final limit-th best: the rescoring needs no
   * second walk over the whole matrix.
   */
  private estimatePass(
    n: number,
    limit: number,
    sq: number,
    accept: ((row: number) => boolean) | null,
    margin: number,
  ): { min: number; full: boolean; kept: number } {
    this.refresh();
    if (this.kept.length < n) this.kept = new Int32Array(this.capacity);
    const rows = this.kept;
    const ints = this.i32;
    const s0 = this.offS / 4;
    const present = this.present;
    const scale = this.scale;
    const best = new TopK(limit);
    let min = -Infinity;
    let kept = 0;
    for (let row = 0; row < n; row++) {
      const a = ints[s0 + row]! * scale[row]! * sq;
      if (a < min - margin || present[row] !== 1 || (accept && !accept(row))) continue;
      rows[kept++] = row;
      if (a > min) {
        best.offer(a, row);
        min = best.min;
      }
    }
    return { min, full: best.full, kept };
  }

  private scanF32(n: number): void {
    this.k.rows.scan("dotF32", this.offQ, this.offF, n, this.strideF * 4, this.offS);
  }

  private writeQuery(query: Float32Array): void {
    if (query.length !== this.dim) throw new Error(`query has ${query.length} dimensions, the index ${this.dim}`);
    this.refresh();
    const q = this.offQ / 4;
    this.f32.fill(0, q, q + this.strideF);
    this.f32.set(query, q);
  }

  /** int16 query (written beside the f32 one), its scale, ‖e_q‖ and ‖q‖ (float64, nudged up). */
  private quantizeQuery(query: Float32Array): { sq: number; eq: number; qn: number } {
    this.refresh();
    const q16 = this.offQ16 / 2;
    this.i16.fill(0, q16, q16 + this.stride8);
    let max = 0;
    for (let j = 0; j < query.length; j++) max = Math.max(max, Math.abs(query[j]!));
    let norm = 0;
    for (let j = 0; j < query.length; j++) norm += query[j]! * query[j]!;
    const qn = Math.sqrt(norm) * (1 + 1e-9);
    if (max === 0) return { sq: 0, eq: 0, qn };
    const sq = max / this.qLimit;
    let err = 0;
    for (let j = 0; j < query.length; j++) {
      const x = query[j]!;
      const q = Math.max(-this.qLimit, Math.min(this.qLimit, Math.round(x / sq)));
      this.i16[q16 + j] = q;
      err += (x - q * sq) ** 2;
    }
    return { sq, eq: Math.sqrt(err) * (1 + 1e-9) + 1e-12, qn };
  }

  /** Typed views over the wasm memory, recreated after it grows (growth detaches the old ones). */
  private refresh(): void {
    const buffer = this.k.memory.buffer;
    if (buffer === this.buffer) return;
    this.buffer = buffer;
    // Explicit lengths: over a growable shared buffer a view without one tracks the length, and V8
    // takes a slow path for every element of such a view.
    const bytes = buffer.byteLength;
    this.f32 = new Float32Array(buffer, 0, bytes / 4);
    this.i8 = new Int8Array(buffer, 0, bytes);
    this.i16 = new Int16Array(buffer, 0, bytes / 2);
    this.i32 = new Int32Array(buffer, 0, bytes / 4);
    this.u8 = new Uint8Array(buffer, 0, bytes);
  }
}

function grownU8(a: Uint8Array, n: number): Uint8Array {
  const b = new Uint8Array(n);
  b.set(a.subarray(0, Math.min(a.length, n)));
  return b;
}

function grownF64(a: Float64Array, n: number): Float64Array {
  const b = new Float64Array(n);
  b.set(a.subarray(0, Math.min(a.length, n)));
  return b;
}
