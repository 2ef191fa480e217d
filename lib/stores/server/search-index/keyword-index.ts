// Past ~400 lines for one reason: exportState/fromState read and write the private lists and
// must change with them (lib/stores/server/search-index/README.md "The in-memory index").
import MiniSearch from "minisearch";
import { HitHeap } from "./keyword-heap";

/**
 * The keyword arm's BM25 index with MaxScore top-k pruning (lib/stores/server/search-index/README.md "The in-memory
 * index"). It scores exactly as the MiniSearch index it replaced did — same tokenizer, same
 * term processing, same BM25 arithmetic in the same order (Okapi BM25, k1 = 1.2, b = 0.75; the
 * average length kept as MiniSearch's running average; per-term scores summed in query order,
 * then MiniSearch's `× matched terms` undone as `/ matched terms`) — but over typed posting
 * lists, and without scoring documents that cannot reach the top k: a common word's long list is
 * only probed for documents the rarer words already found, once the k-th best score passes what
 * the common word can add.
 *
 * One difference, deliberately: document frequency counts live documents only. MiniSearch kept a
 * discarded document in its lists until a vacuum and counted it in the df of whichever documents
 * it scored first; here removal updates df at once.
 */
const K1 = 1.2;
const B = 0.75;
/** Upper bounds are inflated by this much so float rounding never makes a score exceed its bound. */
const BOUND_SLACK = 1 + 1e-9;

const tokenize = MiniSearch.getDefault("tokenize") as (text: string) => string[];

interface Postings {
  docs: Int32Array;
  tfs: Int32Array;
  length: number;
  /** Live documents containing the term. */
  df: number;
  /** Entries of removed documents still in the arrays (compacted before the next use). */
  dead: number;
  /** Bounds over every entry ever added (compaction recomputes them). */
  maxTf: number;
  minLen: number;
}

export interface KeywordHit {
  id: string;
  score: number;
}

/**
 * The whole index as flat arrays (lib/stores/embedded/index-snapshot.ts writes them to disk): restoring
 * it gives back the same documents, lists, bounds and running average, so every score is the
 * one the live index would compute. List t covers `docs`/`tfs` [listStart[t], listStart[t+1]).
 */
export interface KeywordState {
  terms: string[];
  /** Per list: df, dead, maxTf (int32); minLen as float64 (Infinity for an empty list). */
  listStart: Int32Array;
  listInts: Int32Array;
  listMinLen: Float64Array;
  docs: Int32Array;
  tfs: Int32Array;
  /** Per document number: its id, or null once removed. */
  keys: (string | null)[];
  lengths: Int32Array;
  /** Per document: its distinct terms at [docTermStart[d], docTermStart[d+1]) (empty once removed). */
  docTermStart: Int32Array;
  docTermIds: Int32Array;
  count: number;
  avgLength: number;
}

export class KeywordIndex {
  private readonly termIds = new Map<string, number>();
  private readonly postings: Postings[] = [];
  private readonly docOf = new Map<string, number>();
  private keys: (string | null)[] = [];
  private lengths = new Int32Array(1024);
  /** Distinct terms of each document added since the restore (document `restored.docs + i` at i). */
  private docTerms: (Int32Array | null)[] = [];
  /**
   * A restored index's documents keep their terms where the state had them (termsOf): one view
   * per document made at start was 100k objects to collect, for lists only `remove` reads.
   */
  private restored: { docs: number; termStart: Int32Array; termIds: Int32Array } = {
    docs: 0,
    termStart: new Int32Array(1),
    termIds: new Int32Array(0),
  };
  private count = 0;
  private avgLength = 0;

  constructor(private readonly processTerm: (term: string) => string | null) {}

  /** A copy of the index's state (see KeywordState). */
  exportState(): KeywordState {
    const lists = this.postings.length;
    const listStart = new Int32Array(lists + 1);
    for (let t = 0; t < lists; t++) listStart[t + 1] = listStart[t]! + this.postings[t]!.length;
    const docs = new Int32Array(listStart[lists]!);
    const tfs = new Int32Array(listStart[lists]!);
    const listInts = new Int32Array(lists * 3);
    const listMinLen = new Float64Array(lists);
    this.postings.forEach((p, t) => {
      docs.set(p.docs.subarray(0, p.length), listStart[t]!);
      tfs.set(p.tfs.subarray(0, p.length), listStart[t]!);
      listInts.set([p.df, p.dead, p.maxTf], t * 3);
      listMinLen[t] = p.minLen;
    });
    const n = this.keys.length;
    const docTermStart = new Int32Array(n + 1);
    let total = 0;
    for (let d = 0; d < n; d++) total += this.termsOf(d)?.length ?? 0;
    const docTermIds = new Int32Array(total);
    let at = 0;
    for (let d = 0; d < n; d++) {
      const own = this.termsOf(d);
      docTermStart[d] = at;
      if (own) docTermIds.set(own, at);
      at += own?.length ?? 0;
    }
    docTermStart[n] = at;
    const terms: string[] = new Array(lists);
    for (const [term, t] of this.termIds) terms[t] = term;
    return {
      terms,
      listStart,
      listInts,
      listMinLen,
      docs,
      tfs,
      keys: [...this.keys],
      lengths: this.lengths.slice(0, n),
      docTermStart,
      docTermIds,
      count: this.count,
      avgLength: this.avgLength,
    };
  }

  /**
   * An index holding exactly `state`. The arrays are adopted, not copied: each posting list is a
   * view of the state's, copied only when `add` first outgrows it.
   */
  static fromState(processTerm: (term: string) => string | null, state: KeywordState): KeywordIndex {
    const index = new KeywordIndex(processTerm);
    state.terms.forEach((term, t) => {
      index.termIds.set(term, t);
      const from = state.listStart[t]!;
      const to = state.listStart[t + 1]!;
      index.postings.push({
        docs: state.docs.subarray(from, to),
        tfs: state.tfs.subarray(from, to),
        length: to - from,
        df: state.listInts[t * 3]!,
        dead: state.listInts[t * 3 + 1]!,
        maxTf: state.listInts[t * 3 + 2]!,
        minLen: state.listMinLen[t]!,
      });
    });
    const n = state.keys.length;
    index.keys = state.keys;
    index.lengths = new Int32Array(Math.max(1024, n));
    index.lengths.set(state.lengths.subarray(0, n));
    if (state.docTermStart.length !== n + 1) throw new Error("the keyword state's documents and term lists disagree");
    index.restored = { docs: n, termStart: state.docTermStart, termIds: state.docTermIds };
    for (let d = 0; d < n; d++) {
      const key = state.keys[d];
      if (key != null) index.docOf.set(key, d);
    }
    index.count = state.count;
    index.avgLength = state.avgLength;
    return index;
  }

  get documentCount(): number {
    return this.count;
  }

  has(id: string): boolean {
    return this.docOf.has(id);
  }

  add(id: string, text: string): void {
    if (this.docOf.has(id)) throw new Error(`keyword index: duplicate id ${id}`);
    const doc = this.keys.length;
    this.keys.push(id);
    this.docOf.set(id, doc);
    const tokens = tokenize(text);
    // MiniSearch's field length: distinct raw tokens, stopwords and all.
    const length = new Set(tokens).size;
    if (doc >= this.lengths.length) {
      const next = new Int32Array(this.lengths.length * 2);
      next.set(this.lengths);
      this.lengths = next;
    }
    this.lengths[doc] = length;
    this.avgLength = (this.avgLength * this.count + length) / (this.count + 1);
    this.count++;
    const tf = new Map<number, number>();
    for (const token of tokens) {
      const term = this.processTerm(token);
      if (!term) continue;
      let t = this.termIds.get(term);
      if (t === undefined) {
        t = this.postings.length;
        this.termIds.set(term, t);
        this.postings.push({
          docs: new Int32Array(2),
          tfs: new Int32Array(2),
          length: 0,
          df: 0,
          dead: 0,
          maxTf: 0,
          minLen: Infinity,
        });
      }
      tf.set(t, (tf.get(t) ?? 0) + 1);
    }
    const terms = new Int32Array(tf.size);
    let i = 0;
    for (const [t, f] of tf) {
      terms[i++] = t;
      const p = this.postings[t]!;
      if (p.length === p.docs.length) {
        // At least 2: a restored list may be an empty view.
        const docs = new Int32Array(Math.max(2, p.docs.length * 2));
        docs.set(p.docs);
        p.docs = docs;
        const tfs = new Int32Array(Math.max(2, p.tfs.length * 2));
        tfs.set(p.tfs);
        p.tfs = tfs;
      }
      p.docs[p.length] = doc;
      p.tfs[p.length] = f;
      p.length++;
      p.df++;
      if (f > p.maxTf) p.maxTf = f;
      if (length < p.minLen) p.minLen = length;
    }
    this.docTerms.push(terms);
  }

  remove(id: string): void {
    const doc = this.docOf.get(id);
    if (doc === undefined) return;
    const terms = this.termsOf(doc)!;
    this.docOf.delete(id);
    this.keys[doc] = null;
    const length = this.lengths[doc]!;
    // MiniSearch's running average, step for step.
    this.avgLength = this.count === 1 ? 0 : (this.avgLength * this.count - length) / (this.count - 1);
    this.count--;
    for (const t of terms) {
      const p = this.postings[t]!;
      p.df--;
      p.dead++;
    }
    if (doc >= this.restored.docs) this.docTerms[doc - this.restored.docs] = null;
  }

  /** A document's distinct terms; null once it was removed. */
  private termsOf(doc: number): Int32Array | null {
    const { docs, termStart, termIds } = this.restored;
    if (doc >= docs) return this.docTerms[doc - docs] ?? null;
    return this.keys[doc] === null ? null : termIds.subarray(termStart[doc]!, termStart[doc + 1]!);
  }

  /**
   * The `limit` best documents for the query's terms by (score desc, id asc), among those
   * `accept` lets through. `prune: false` scores every matching document (the reference the
   * tests hold the pruned path to).
   */
  top(
    queryTerms: readonly string[],
    limit: number,
    accept: ((id: string) => boolean) | null,
    options: { prune?: boolean } = {},
  ): KeywordHit[] {
    if (limit <= 0) return [];
    // As MiniSearch searched `terms.join(" ")`: tokenized and processed again.
    const terms = tokenize(queryTerms.join(" "))
      .map((t) => this.processTerm(t))
      .filter((t): t is string => !!t);
    const lists: { position: number; p: Postings; idf: number; bound: number; cursor: number; unique: number }[] = [];
    const uniqueOf = new Map<string, number>();
    terms.forEach((term, position) => {
      if (!uniqueOf.has(term)) uniqueOf.set(term, uniqueOf.size);
      const t = this.termIds.get(term);
      if (t === undefined) return;
      const p = this.postings[t]!;
      if (p.dead > 0) this.compact(p);
      if (p.df === 0) return;
      const idf = Math.log(1 + (this.count - p.df + 0.5) / (p.df + 0.5));
      const bound = idf * ((p.maxTf * (K1 + 1)) / (p.maxTf + K1 * (1 - B + (B * p.minLen) / this.avgLength))) * BOUND_SLACK;
      lists.push({ position, p, idf, bound, cursor: 0, unique: uniqueOf.get(term)! });
    });
    if (lists.length === 0) return [];
    const prune = options.prune !== false;
    // MaxScore: lists by bound ascending; the first `nonEssential` of them cannot lift a document
    // into the top k on their own, so only the others generate candidates.
    const order = [...lists].sort((a, b) => a.bound - b.bound);
    const prefix = [0];
    for (const l of order) prefix.push(prefix[prefix.length - 1]! + l.bound);
    const heap = new HitHeap(limit);
    let nonEssential = 0;
    const contributions = new Float64Array(terms.length);
    const present = new Uint8Array(terms.length);
    const matched = new Uint8Array(uniqueOf.size);
    const avg = this.avgLength;
    const lengths = this.lengths;
    for (;;) {
      // The next candidate: the smallest document under an essential cursor.
      let doc = 0x7fffffff;
      for (let i = nonEssential; i < order.length; i++) {
        const l = order[i]!;
        if (l.cursor < l.p.length) {
          const d = l.p.docs[l.cursor]!;
          if (d < doc) doc = d;
        }
      }
      if (doc === 0x7fffffff) break;
      const length = lengths[doc]!;
      let partial = 0;
      contributions.fill(0);
      present.fill(0);
      for (let i = nonEssential; i < order.length; i++) {
        const l = order[i]!;
        if (l.cursor < l.p.length && l.p.docs[l.cursor] === doc) {
          const tf = l.p.tfs[l.cursor]!;
          const s = l.idf * (0 + (tf * (K1 + 1)) / (tf + K1 * (1 - B + (B * length) / avg)));
          contributions[l.position] = s;
          present[l.position] = 1;
          partial += s;
          l.cursor++;
        }
      }
      // Partial sums here are added in another order than the final score: compare with slack.
      const threshold = prune ? heap.minScore / BOUND_SLACK - 1e-12 : -Infinity;
      if (partial + prefix[nonEssential]! < threshold) continue;
      // Probe the non-essential lists, largest bound first, while the document can still enter.
      let possible = partial + prefix[nonEssential]!;
      for (let i = nonEssential - 1; i >= 0; i--) {
        const l = order[i]!;
        possible -= l.bound;
        const at = seek(l.p.docs, l.p.length, l.cursor, doc);
        l.cursor = at;
        if (at < l.p.length && l.p.docs[at] === doc) {
          const tf = l.p.tfs[at]!;
          const s = l.idf * (0 + (tf * (K1 + 1)) / (tf + K1 * (1 - B + (B * length) / avg)));
          contributions[l.position] = s;
          present[l.position] = 1;
          possible += s;
          partial += s;
        }
        if (possible < threshold) break;
      }
      if (possible < threshold) continue;
      const id = this.keys[doc]!;
      if (accept && !accept(id)) continue;
      // The exact score, as MiniSearch summed it: query order, then × matched terms ÷ matched terms.
      let sum = 0;
      matched.fill(0);
      let quality = 0;
      for (let position = 0; position < terms.length; position++) {
        if (!present[position]) continue;
        sum += contributions[position]!;
      }
      for (const l of lists) {
        if (present[l.position] && !matched[l.unique]) {
          matched[l.unique] = 1;
          quality++;
        }
      }
      const score = (sum * quality) / Math.max(1, quality);
      heap.offer(score, id);
      if (prune && heap.full) {
        const theta = heap.minScore;
        while (nonEssential < order.length && prefix[nonEssential + 1]! < theta) nonEssential++;
      }
    }
    return heap.sorted();
  }

  /**
   * The BM25 of one document for the query, computed exactly as `top` scores it (same terms,
   * same arithmetic, same order), or null when the id is not indexed; 0 when no term matches.
   * Cheap (one seek per term): what the recall shows for a memory the arm's fetch window left
   * out, marked as not used by the merge.
   */
  scoreOf(queryTerms: readonly string[], id: string): number | null {
    const doc = this.docOf.get(id);
    if (doc === undefined) return null;
    const terms = tokenize(queryTerms.join(" "))
      .map((t) => this.processTerm(t))
      .filter((t): t is string => !!t);
    const length = this.lengths[doc]!;
    const seen = new Set<string>();
    let sum = 0;
    let quality = 0;
    for (const term of terms) {
      const t = this.termIds.get(term);
      if (t === undefined) continue;
      const p = this.postings[t]!;
      if (p.dead > 0) this.compact(p);
      if (p.df === 0) continue;
      const at = seek(p.docs, p.length, 0, doc);
      if (at >= p.length || p.docs[at] !== doc) continue;
      const idf = Math.log(1 + (this.count - p.df + 0.5) / (p.df + 0.5));
      const tf = p.tfs[at]!;
      sum += idf * (0 + (tf * (K1 + 1)) / (tf + K1 * (1 - B + (B * length) / this.avgLength)));
      if (!seen.has(term)) {
        seen.add(term);
        quality++;
      }
    }
    return (sum * quality) / Math.max(1, quality);
  }

  /**
   * The keyword evidence of a query (lib/recall/keyword-evidence.ts): Σ idf over its distinct
   * terms (an unseen term at the idf of df = 0), the saturated maximum BM25, and the idf of the
   * terms found in at least one of `ids` (the first merged candidates). One seek per term and id.
   */
  evidence(
    queryTerms: readonly string[],
    ids: readonly string[],
  ): { terms: number; idf_total: number; idf_covered: number; max_bm25: number } {
    const terms = [
      ...new Set(
        tokenize(queryTerms.join(" "))
          .map((t) => this.processTerm(t))
          .filter((t): t is string => !!t),
      ),
    ];
    const docs = ids.map((id) => this.docOf.get(id)).filter((d): d is number => d !== undefined);
    let idfTotal = 0;
    let idfCovered = 0;
    for (const term of terms) {
      const t = this.termIds.get(term);
      const p = t === undefined ? undefined : this.postings[t]!;
      if (p && p.dead > 0) this.compact(p);
      const df = p?.df ?? 0;
      const idf = Math.log(1 + (this.count - df + 0.5) / (df + 0.5));
      idfTotal += idf;
      if (
        p &&
        df > 0 &&
        docs.some((d) => {
          const at = seek(p.docs, p.length, 0, d);
          return at < p.length && p.docs[at] === d;
        })
      )
        idfCovered += idf;
    }
    return { terms: terms.length, idf_total: idfTotal, idf_covered: idfCovered, max_bm25: idfTotal * (K1 + 1) };
  }

  /** Drops removed documents' entries and recomputes the list's bounds. */
  private compact(p: Postings): void {
    let w = 0;
    let maxTf = 0;
    let minLen = Infinity;
    for (let r = 0; r < p.length; r++) {
      const doc = p.docs[r]!;
      if (this.keys[doc] === null) continue;
      const tf = p.tfs[r]!;
      p.docs[w] = doc;
      p.tfs[w] = tf;
      w++;
      if (tf > maxTf) maxTf = tf;
      const length = this.lengths[doc]!;
      if (length < minLen) minLen = length;
    }
    p.length = w;
    p.dead = 0;
    p.maxTf = maxTf;
    p.minLen = minLen;
  }
}

/** The first index ≥ from whose doc is ≥ target (galloping, then binary search). */
function seek(docs: Int32Array, length: number, from: number, target: number): number {
  if (from >= length || docs[from]! >= target) return from;
  let step = 1;
  let lo = from;
  let hi = from + 1;
  while (hi < length && docs[hi]! < target) {
    lo = hi;
    step *= 2;
    hi = from + step;
  }
  if (hi > length) hi = length;
  // docs[lo] < target; find the first ≥ target in (lo, hi].
  while (lo + 1 < hi) {
    const mid = (lo + hi) >> 1;
    if (docs[mid]! < target) lo = mid;
    else hi = mid;
  }
  return hi;
}
