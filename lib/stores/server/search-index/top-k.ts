/**
 * Keeps the k best (score, row) pairs offered, as a min-heap on score. Rows must be offered in
 * increasing order: a score equal to the heap's minimum is then refused, so among equal scores
 * the earlier row wins, and `sorted()` is the exact lexicographic top k by (score desc, row asc).
 */
export class TopK {
  private readonly scores: Float64Array;
  private readonly rows: Int32Array;
  private count = 0;

  constructor(readonly k: number) {
    this.scores = new Float64Array(Math.max(0, k));
    this.rows = new Int32Array(Math.max(0, k));
  }

  get size(): number {
    return this.count;
  }

  get full(): boolean {
    return this.count >= this.k;
  }

  /** The score a new row must beat to enter: -Infinity until k rows are in. */
  get min(): number {
    return this.count < this.k ? -Infinity : this.scores[0]!;
  }

  offer(score: number, row: number): void {
    if (this.k <= 0) return;
    if (this.count < this.k) {
      this.scores[this.count] = score;
      this.rows[this.count] = row;
      this.up(this.count++);
    } else if (score > this.scores[0]!) {
      this.scores[0] = score;
      this.rows[0] = row;
      this.down(0);
    }
  }

  sorted(): [score: number, row: number][] {
    const out: [number, number][] = [];
    for (let i = 0; i < this.count; i++) out.push([this.scores[i]!, this.rows[i]!]);
    return out.sort((a, b) => b[0] - a[0] || a[1] - b[1]);
  }

  /** Heap order by (score asc, row desc): the root is the pair a better one displaces first. */
  private less(i: number, j: number): boolean {
    const a = this.scores[i]!;
    const b = this.scores[j]!;
    return a < b || (a === b && this.rows[i]! > this.rows[j]!);
  }

  private up(i: number): void {
    while (i > 0) {
      const p = (i - 1) >> 1;
      if (!this.less(i, p)) return;
      this.swap(i, p);
      i = p;
    }
  }

  private down(i: number): void {
    const n = this.count;
    for (;;) {
      const l = 2 * i + 1;
      const r = l + 1;
      let m = i;
      if (l < n && this.less(l, m)) m = l;
      if (r < n && this.less(r, m)) m = r;
      if (m === i) return;
      this.swap(i, m);
      i = m;
    }
  }

  private swap(a: number, b: number): void {
    const s = this.scores[a]!;
    this.scores[a] = this.scores[b]!;
    this.scores[b] = s;
    const r = this.rows[a]!;
    this.rows[a] = this.rows[b]!;
    this.rows[b] = r;
  }
}
