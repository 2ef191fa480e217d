import type { KeywordHit } from "./keyword-index";

/**
 * The keyword arm's top-k collector (split from keyword-index.ts, its one user).
 */
/** The k best (score, id) by (score desc, id asc): a min-heap whose root is the worst kept. */
export class HitHeap {
  private readonly scores: number[] = [];
  private readonly ids: string[] = [];
  constructor(private readonly k: number) {}

  get full(): boolean {
    return this.scores.length >= this.k;
  }

  /** The score a document must reach (ties decided by id) to enter: -Infinity until full. */
  get minScore(): number {
    return this.full ? this.scores[0]! : -Infinity;
  }

  offer(score: number, id: string): void {
    if (!this.full) {
      this.scores.push(score);
      this.ids.push(id);
      this.up(this.scores.length - 1);
    } else if (this.worse(this.scores[0]!, this.ids[0]!, score, id)) {
      this.scores[0] = score;
      this.ids[0] = id;
      this.down(0);
    }
  }

  sorted(): KeywordHit[] {
    return this.scores
      .map((score, i) => ({ id: this.ids[i]!, score }))
      .sort((a, b) => b.score - a.score || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
  }

  /** Is (s1, id1) ranked below (s2, id2)? */
  private worse(s1: number, id1: string, s2: number, id2: string): boolean {
    return s1 < s2 || (s1 === s2 && id1 > id2);
  }

  private up(i: number): void {
    while (i > 0) {
      const p = (i - 1) >> 1;
      if (!this.worse(this.scores[i]!, this.ids[i]!, this.scores[p]!, this.ids[p]!)) return;
      this.swap(i, p);
      i = p;
    }
  }

  private down(i: number): void {
    const n = this.scores.length;
    for (;;) {
      const l = 2 * i + 1;
      const r = l + 1;
      let m = i;
      if (l < n && this.worse(this.scores[l]!, this.ids[l]!, this.scores[m]!, this.ids[m]!)) m = l;
      if (r < n && this.worse(this.scores[r]!, this.ids[r]!, this.scores[m]!, this.ids[m]!)) m = r;
      if (m === i) return;
      this.swap(i, m);
      i = m;
    }
  }

  private swap(a: number, b: number): void {
    [this.scores[a], this.scores[b]] = [this.scores[b]!, this.scores[a]!];
    [this.ids[a], this.ids[b]] = [this.ids[b]!, this.ids[a]!];
  }
}
