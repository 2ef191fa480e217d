import MiniSearch from "minisearch";
import { eng as ENGLISH_STOPWORDS } from "stopword";
import type { ArmHit } from "@/lib/recall/merge";

/**
 * The embedded store's in-memory index: every vector in one contiguous Float32Array for an exact
 * cosine scan (no approximation: the candidate pool must be honest), and a BM25 index over the
 * text. No I/O; the store keeps it in step with the database.
 */
export interface IndexedMemory {
  id: string;
  /** Unit-length vector, or null when the memory has none for the current model. */
  vector: Float32Array | null;
  /** What BM25 sees: summary, content and tags. */
  text: string;
  type: string;
  tags: readonly string[];
}

export interface IndexFilter {
  types?: readonly string[];
  tags?: readonly string[];
  tagsMatch?: "any" | "all";
}

/** Plain Okapi BM25 (MiniSearch's BM25+ with δ = 0), with the usual k1 and b. */
const BM25 = { k: 1.2, b: 0.75, d: 0 };

export class MemoryIndex {
  private ids: string[] = [];
  private types: string[] = [];
  private tags: (readonly string[])[] = [];
  private hasVector: boolean[] = [];
  private rowOf = new Map<string, number>();
  private matrix: Float32Array;
  /** Scratch space for one scan's scores, reused across queries. */
  private scores = new Float64Array(0);
  private readonly keyword: MiniSearch<{ id: string; text: string }>;

  constructor(readonly dim: number) {
    this.matrix = new Float32Array(dim * 1024);
    this.keyword = new MiniSearch({
      fields: ["text"],
      storeFields: [],
      idField: "id",
      processTerm: keywordTerm,
      searchOptions: { combineWith: "OR", prefix: false, fuzzy: false, bm25: BM25 },
    });
  }

  get size(): number {
    return this.ids.length;
  }

  /** How many memories have a vector (the rest are searchable by keyword only). */
  get vectorCount(): number {
    let n = 0;
    for (const has of this.hasVector) if (has) n++;
    return n;
  }

  has(id: string): boolean {
    return this.rowOf.has(id);
  }

  /** Adds memories, replacing any with the same id. */
  upsert(memories: readonly IndexedMemory[]): void {
    for (const memory of memories) {
      if (this.rowOf.has(memory.id)) this.remove([memory.id]);
      if (memory.vector && memory.vector.length !== this.dim) {
        throw new Error(`vector for ${memory.id} has ${memory.vector.length} dimensions, the index ${this.dim}`);
      }
      const row = this.ids.length;
      this.grow(row + 1);
      this.ids.push(memory.id);
      this.types.push(memory.type);
      this.tags.push(memory.tags);
      this.hasVector.push(memory.vector !== null);
      if (memory.vector) this.matrix.set(memory.vector, row * this.dim);
      else this.matrix.fill(0, row * this.dim, (row + 1) * this.dim);
      this.rowOf.set(memory.id, row);
      this.keyword.add({ id: memory.id, text: normalizeText(memory.text) });
    }
  }

  remove(ids: readonly string[]): void {
    for (const id of ids) {
      const row = this.rowOf.get(id);
      if (row === undefined) continue;
      // Swap the last row into the hole: rows stay dense, so the scan never skips holes.
      const last = this.ids.length - 1;
      if (row !== last) {
        const lastId = this.ids[last]!;
        this.ids[row] = lastId;
        this.types[row] = this.types[last]!;
        this.tags[row] = this.tags[last]!;
        this.hasVector[row] = this.hasVector[last]!;
        this.matrix.copyWithin(row * this.dim, last * this.dim, (last + 1) * this.dim);
        this.rowOf.set(lastId, row);
      }
      this.ids.pop();
      this.types.pop();
      this.tags.pop();
      this.hasVector.pop();
      this.rowOf.delete(id);
      this.keyword.discard(id);
    }
  }

  /**
   * The `limit` highest raw cosines between `query` (unit length) and every stored vector that
   * passes the filter, best first (ties in index order).
   */
  semanticTop(query: Float32Array, limit: number, filter?: IndexFilter): ArmHit[] {
    const dim = this.dim;
    if (query.length !== dim) throw new Error(`query has ${query.length} dimensions, the index ${dim}`);
    const accept = this.rowFilter(filter);
    const n = this.ids.length;
    if (this.scores.length < n) this.scores = new Float64Array(this.matrix.length / dim);
    dotRows(this.matrix, query, dim, n, this.scores);
    const top = new TopK(limit);
    for (let row = 0; row < n; row++) {
      if (!this.hasVector[row] || (accept && !accept(row))) continue;
      top.offer(this.scores[row]!, row);
    }
    return top.sorted().map(([score, row]) => ({ id: this.ids[row]!, score }));
  }

  /** The `limit` highest BM25 scores for the query's distinct terms, best first. */
  keywordTop(query: string, limit: number, filter?: IndexFilter): ArmHit[] {
    const terms = distinctTerms(query);
    if (terms.length === 0) return [];
    const accept = this.rowFilter(filter);
    const hits = this.keyword.search(terms.join(" "), {
      filter: accept ? (result) => accept(this.rowOf.get(result.id as string)!) : undefined,
    });
    return hits
      .map((hit) => ({
        id: hit.id as string,
        // MiniSearch multiplies the summed BM25 by the number of matched query terms; undo it.
        score: hit.score / Math.max(1, hit.queryTerms.length),
      }))
      .sort((a, b) => b.score - a.score || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0))
      .slice(0, limit);
  }

  private rowFilter(filter?: IndexFilter): ((row: number) => boolean) | null {
    const types = filter?.types?.length ? new Set(filter.types) : null;
    const tags = filter?.tags?.length ? filter.tags : null;
    if (!types && !tags) return null;
    const all = filter?.tagsMatch === "all";
    return (row) => {
      if (types && !types.has(this.types[row]!)) return false;
      if (tags) {
        const own = this.tags[row]!;
        return all ? tags.every((t) => own.includes(t)) : tags.some((t) => own.includes(t));
      }
      return true;
    };
  }

  private grow(rows: number): void {
    if (rows * this.dim <= this.matrix.length) return;
    let capacity = this.matrix.length / this.dim;
    while (capacity < rows) capacity *= 2;
    const next = new Float32Array(capacity * this.dim);
    next.set(this.matrix);
    this.matrix = next;
  }
}

/**
 * out[r] = matrix row r · query, for rows 0..n-1. Four rows at a time share each query load,
 * which is the hot loop of a recall (about 20% faster than one row at a time at 100k × 512).
 */
function dotRows(m: Float32Array, query: Float32Array, dim: number, n: number, out: Float64Array): void {
  const even = dim - (dim % 2);
  let r = 0;
  for (; r + 3 < n; r += 4) {
    const a = r * dim, b = a + dim, c = b + dim, d = c + dim;
    let a0 = 0, a1 = 0, b0 = 0, b1 = 0, c0 = 0, c1 = 0, d0 = 0, d1 = 0;
    let j = 0;
    for (; j < even; j += 2) {
      const q0 = query[j]!, q1 = query[j + 1]!;
      a0 += m[a + j]! * q0; a1 += m[a + j + 1]! * q1;
      b0 += m[b + j]! * q0; b1 += m[b + j + 1]! * q1;
      c0 += m[c + j]! * q0; c1 += m[c + j + 1]! * q1;
      d0 += m[d + j]! * q0; d1 += m[d + j + 1]! * q1;
    }
    if (j < dim) {
      const q0 = query[j]!;
      a0 += m[a + j]! * q0; b0 += m[b + j]! * q0; c0 += m[c + j]! * q0; d0 += m[d + j]! * q0;
    }
    out[r] = a0 + a1; out[r + 1] = b0 + b1; out[r + 2] = c0 + c1; out[r + 3] = d0 + d1;
  }
  // The rows left over get exactly the same sums in the same order, so a memory's cosine never
  // depends on where it sits in the matrix.
  for (; r < n; r++) {
    const a = r * dim;
    let a0 = 0, a1 = 0;
    let j = 0;
    for (; j < even; j += 2) {
      a0 += m[a + j]! * query[j]!;
      a1 += m[a + j + 1]! * query[j + 1]!;
    }
    if (j < dim) a0 += m[a + j]! * query[j]!;
    out[r] = a0 + a1;
  }
}

/** Unicode NFKC, as the reference normalizes queries before search. */
export function normalizeText(text: string): string {
  return text.normalize("NFKC");
}

const STOPWORDS = new Set(ENGLISH_STOPWORDS);

/**
 * How a word enters the keyword index: lower case, English stopwords dropped. Stopwords carry
 * almost no BM25 weight but match nearly every memory, which would make the arm scan the whole
 * corpus for "what is the …". Callers NFKC-normalize the whole text first (once, not per word:
 * per-word normalization was a third of the index rebuild).
 */
export function keywordTerm(word: string): string | null {
  const term = word.toLowerCase();
  return term && !STOPWORDS.has(term) ? term : null;
}

/** The query's keyword terms, each once (a repeated word does not count twice). */
export function distinctTerms(query: string): string[] {
  const terms = normalizeText(query)
    .split(/[^\p{L}\p{N}]+/u)
    .map(keywordTerm)
    .filter((t): t is string => t !== null);
  return [...new Set(terms)];
}

/** Keeps the k best (score, row) pairs seen, as a min-heap on score. */
class TopK {
  private readonly scores: number[] = [];
  private readonly rows: number[] = [];
  constructor(private readonly k: number) {}

  offer(score: number, row: number): void {
    if (this.k <= 0) return;
    if (this.scores.length < this.k) {
      this.scores.push(score);
      this.rows.push(row);
      this.up(this.scores.length - 1);
    } else if (score > this.scores[0]!) {
      this.scores[0] = score;
      this.rows[0] = row;
      this.down(0);
    }
  }

  sorted(): [number, number][] {
    return this.scores.map((s, i) => [s, this.rows[i]!] as [number, number]).sort((a, b) => b[0] - a[0] || a[1] - b[1]);
  }

  private up(i: number): void {
    while (i > 0) {
      const p = (i - 1) >> 1;
      if (this.scores[p]! <= this.scores[i]!) return;
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
      if (l < n && this.scores[l]! < this.scores[m]!) m = l;
      if (r < n && this.scores[r]! < this.scores[m]!) m = r;
      if (m === i) return;
      this.swap(i, m);
      i = m;
    }
  }

  private swap(a: number, b: number): void {
    [this.scores[a], this.scores[b]] = [this.scores[b]!, this.scores[a]!];
    [this.rows[a], this.rows[b]] = [this.rows[b]!, this.rows[a]!];
  }
}
