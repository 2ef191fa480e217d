import { maxRowsFor, resolveScanMode, VectorMatrix, type MatrixState, type ScanMode, type ScanStats } from "./vector-matrix";

/**
 * The index's rows over as many vector matrices as they need (lib/stores/server/search-index/README.md "The
 * in-memory index"). One matrix lives in one wasm memory, and a wasm32 memory stops at 4 GiB
 * (about 1.67M rows at 512-d, 558k at 1536-d); past that, rows continue in the next shard, each
 * with its own memory and kernel instance, so a store of any size is scanned by the same SIMD
 * kernels and answers exactly.
 *
 * Global row r lives in shard ⌊r / shardRows⌋ at local row r mod shardRows, so row order (the
 * tie-break) is shard order, then local order. Each shard returns its exact top `limit` by
 * (score desc, row asc); the global top `limit` is among their union, so merging them is exact.
 */
export class VectorShards {
  /** Rows per shard: the wasm cap at this dim, or fewer (tests use a handful). */
  readonly shardRows: number;
  private readonly shards: VectorMatrix[] = [];
  lastScan: ScanStats = { mode: "f32", rescored: 0, helperRows: 0 };

  constructor(
    readonly dim: number,
    options: { shardRows?: number } = {},
  ) {
    this.shardRows = Math.max(1, Math.min(options.shardRows ?? Infinity, maxRowsFor(dim)));
  }

  /** How many wasm memories hold the rows. */
  get shardCount(): number {
    return this.shards.length;
  }

  /** Makes room for rows 0..rows-1 at once (a bulk load), each shard sized once. */
  reserve(rows: number): void {
    for (let s = 0; s * this.shardRows < rows; s++) {
      const own = Math.min(this.shardRows, rows - s * this.shardRows);
      this.shard(s, own).reserve(own);
    }
  }

  /** Rows 0..n-1, one state per shard. */
  exportState(n: number): MatrixState[] {
    const states: MatrixState[] = [];
    for (let s = 0; s * this.shardRows < n; s++)
      states.push(this.shards[s]!.exportState(Math.min(this.shardRows, n - s * this.shardRows)));
    return states;
  }

  /** Puts exported shards back (the shard size must be the one they were exported with). */
  restoreState(states: readonly MatrixState[]): void {
    this.checkShardRows(states.map((state) => state.rows));
    states.forEach((state, s) => this.shard(s, state.rows).restoreState(state));
  }

  /** Each shard sized for a state's rows, and views to read its f32 and int8 rows into (VectorMatrix.rowViews). */
  rowViews(shardRows: readonly number[]): { f32: Float32Array; i8: Int8Array }[] {
    this.checkShardRows(shardRows);
    return shardRows.map((rows, s) => this.shard(s, rows).rowViews(rows));
  }

  private checkShardRows(shardRows: readonly number[]): void {
    shardRows.forEach((rows, s) => {
      if (rows > this.shardRows || (s < shardRows.length - 1 && rows !== this.shardRows)) {
        throw new Error(`shard ${s} of the state holds ${rows} rows; this index's shards hold ${this.shardRows}`);
      }
    });
  }

  set(row: number, vector: Float32Array | null): void {
    const [shard, local] = this.locate(row);
    this.shard(shard, local + 1).set(local, vector);
  }

  /** Copies row `from` over row `to` (the index's swap-remove), across shards when it must. */
  move(from: number, to: number): void {
    const [sf, lf] = this.locate(from);
    const [st, lt] = this.locate(to);
    if (sf === st) {
      this.shards[sf]!.move(lf, lt);
      return;
    }
    // Quantization is deterministic, so the moved row gets the same int8 row and bounds.
    const source = this.shards[sf]!;
    this.shard(st, lt + 1).set(lt, source.hasVector(lf) ? source.vector(lf) : null);
  }

  hasVector(row: number): boolean {
    const [shard, local] = this.locate(row);
    return this.shards[shard]?.hasVector(local) ?? false;
  }

  /** The stored float32 vector of a row (a copy). */
  vector(row: number): Float32Array {
    const [shard, local] = this.locate(row);
    return this.shards[shard]!.vector(local);
  }

  /** One row's exact score, as `top` computes it. */
  cosine(query: Float32Array, row: number): number {
    const [shard, local] = this.locate(row);
    return this.shards[shard]!.cosine(query, local);
  }

  /**
   * The `limit` best (cosine, row) pairs over rows 0..n-1 that hold a vector and pass `accept`,
   * by (score desc, row asc), exact in every mode. `auto` picks int8 by the whole store's size.
   */
  top(
    query: Float32Array,
    n: number,
    limit: number,
    accept: ((row: number) => boolean) | null,
    mode: ScanMode = "auto",
  ): [number, number][] {
    if (limit <= 0 || n === 0) return [];
    const resolved = resolveScanMode(mode, n, limit);
    const hits: [number, number][] = [];
    let rescored = 0;
    let helperRows = 0;
    for (let s = 0; s < this.shards.length && s * this.shardRows < n; s++) {
      const base = s * this.shardRows;
      const rows = Math.min(this.shardRows, n - base);
      const shard = this.shards[s]!;
      const own = shard.top(query, rows, limit, accept && base > 0 ? (row) => accept(base + row) : accept, resolved);
      rescored += shard.lastScan.rescored;
      helperRows += shard.lastScan.helperRows;
      for (const [score, row] of own) hits.push([score, base + row]);
    }
    this.lastScan = { mode: resolved, rescored, helperRows };
    if (this.shards.length <= 1) return hits;
    return hits.sort((a, b) => b[0] - a[0] || a[1] - b[1]).slice(0, limit);
  }

  /** Resolves once the scan helper thread holds every shard's memory (VectorMatrix.helperReady). */
  async helperReady(): Promise<boolean> {
    const ready = await Promise.all(this.shards.map((shard) => shard.helperReady()));
    return ready.every(Boolean);
  }

  /** Streams the f32 rows 0..n-1 once (the benchmark's floor). */
  streamF32(n: number): void {
    for (let s = 0; s < this.shards.length && s * this.shardRows < n; s++) {
      this.shards[s]!.streamF32(Math.min(this.shardRows, n - s * this.shardRows));
    }
  }

  private locate(row: number): [number, number] {
    const shard = Math.floor(row / this.shardRows);
    return [shard, row - shard * this.shardRows];
  }

  /** Shard `s`, created (with its predecessors) when missing, with room for `rows` rows. */
  private shard(s: number, rows: number): VectorMatrix {
    while (this.shards.length <= s) {
      // A full predecessor is sized to the cap once, instead of by doubling.
      const full = this.shards.length < s;
      this.shards.push(new VectorMatrix(this.dim, full ? this.shardRows : Math.min(1024, rows), this.shardRows));
    }
    return this.shards[s]!;
  }
}
