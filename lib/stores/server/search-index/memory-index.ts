import { stemmer } from "stemmer";
import { eng as ENGLISH_STOPWORDS } from "stopword";
import type { ArmHit } from "@/lib/recall/merge";
import { KeywordIndex, type KeywordState } from "./keyword-index";
import type { MatrixState, ScanMode } from "./vector-matrix";
import { VectorShards } from "./vector-shards";

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

/**
 * The whole index as flat data (lib/stores/embedded/index-snapshot.ts keeps it on disk): rows in index
 * order, the vectors as each shard holds them (float32, int8 and bounds, so nothing is
 * recomputed on the way back).
 */
export interface IndexState {
  dim: number;
  /** Rows per shard when exported (a restore needs the same). */
  shardRows: number;
  ids: string[];
  types: string[];
  tags: (readonly string[])[];
  matrix: MatrixState[];
  keyword: KeywordState;
}

export interface IndexFilter {
  types?: readonly string[];
  tags?: readonly string[];
  tagsMatch?: "any" | "all";
}

export class MemoryIndex {
  private ids: string[] = [];
  private types: string[] = [];
  private tags: (readonly string[])[] = [];
  private vectors = 0;
  private rowOf = new Map<string, number>();
  private readonly matrix: VectorShards;
  /** Plain Okapi BM25 (k1 = 1.2, b = 0.75) with MaxScore pruning. */
  private keyword = new KeywordIndex(keywordTerm);

  /** `shardRows` splits the vectors over wasm memories of that many rows (tests; default: the 4 GiB cap). */
  constructor(
    readonly dim: number,
    options: { shardRows?: number } = {},
  ) {
    this.matrix = new VectorShards(dim, options);
  }

  get size(): number {
    return this.ids.length;
  }

  /** How many memories have a vector (the rest are searchable by keyword only). */
  get vectorCount(): number {
    return this.vectors;
  }

  /** Makes room for `rows` memories at once (a bulk load), instead of growing by doubling. */
  reserve(rows: number): void {
    this.matrix.reserve(rows);
  }

  /** How the last semantic scan ran (benchmarks, tests). */
  get lastScan() {
    return this.matrix.lastScan;
  }

  has(id: string): boolean {
    return this.rowOf.has(id);
  }

  /** Row r's memory id (index order, as IndexState lists them). */
  idAt(row: number): string {
    return this.ids[row]!;
  }

  /** A copy of the whole index (see IndexState). */
  exportState(): IndexState {
    return {
      dim: this.dim,
      shardRows: this.matrix.shardRows,
      ids: [...this.ids],
      types: [...this.types],
      tags: [...this.tags],
      matrix: this.matrix.exportState(this.ids.length),
      keyword: this.keyword.exportState(),
    };
  }

  /**
   * An index holding exactly `state`: the same rows in the same order, the same keyword lists,
   * so every arm scores as the exported index did. The state's id, type and tag lists are not
   * changed by what the index does next (the store's restored fields read them, memory-meta.ts);
   * its keyword arrays are adopted and written to, so a state is restored once.
   */
  static fromState(state: IndexState, into?: MemoryIndex): MemoryIndex {
    const index = into ?? new MemoryIndex(state.dim, { shardRows: state.shardRows });
    if (index.size > 0 || index.dim !== state.dim || index.matrix.shardRows !== state.shardRows) {
      throw new Error("an index state restores into an empty index of its own shape");
    }
    const n = state.ids.length;
    if (state.matrix.reduce((sum, m) => sum + m.rows, 0) !== n) throw new Error("the index state's vectors and ids disagree");
    index.matrix.restoreState(state.matrix);
    for (const m of state.matrix) for (let r = 0; r < m.rows; r++) index.vectors += m.present[r]!;
    for (let row = 0; row < n; row++) index.rowOf.set(state.ids[row]!, row);
    index.ids = state.ids.slice();
    index.types = state.types.slice();
    index.tags = state.tags.slice();
    index.keyword = KeywordIndex.fromState(keywordTerm, state.keyword);
    return index;
  }

  /**
   * An empty index whose shards are sized for a state's, with views of where their rows live, so
   * a snapshot's vectors are read straight into WebAssembly memory; `fromState(state, index)` then
   * keeps them in place.
   */
  static forState(
    dim: number,
    shardRows: number,
    matrixRows: readonly number[],
  ): { index: MemoryIndex; views: { f32: Float32Array; i8: Int8Array }[] } {
    const index = new MemoryIndex(dim, { shardRows });
    return { index, views: index.matrix.rowViews(matrixRows) };
  }

  /** The stored vector of a memory (a copy); null when it has none or is not indexed. */
  vectorOf(id: string): Float32Array | null {
    const row = this.rowOf.get(id);
    return row !== undefined && this.matrix.hasVector(row) ? this.matrix.vector(row) : null;
  }

  /** Adds memories, replacing any with the same id. */
  upsert(memories: readonly IndexedMemory[]): void {
    for (const memory of memories) {
      if (this.rowOf.has(memory.id)) this.remove([memory.id]);
      if (memory.vector && memory.vector.length !== this.dim) {
        throw new Error(`vector for ${memory.id} has ${memory.vector.length} dimensions, the index ${this.dim}`);
      }
      const row = this.ids.length;
      this.matrix.set(row, memory.vector);
      if (memory.vector) this.vectors++;
      this.ids.push(memory.id);
      this.types.push(memory.type);
      this.tags.push(memory.tags);
      this.rowOf.set(memory.id, row);
      this.keyword.add(memory.id, normalizeText(memory.text));
    }
  }

  remove(ids: readonly string[]): void {
    for (const id of ids) {
      const row = this.rowOf.get(id);
      if (row === undefined) continue;
      // Swap the last row into the hole: rows stay dense, so the scan never skips holes.
      const last = this.ids.length - 1;
      if (this.matrix.hasVector(row)) this.vectors--;
      if (row !== last) {
        const lastId = this.ids[last]!;
        this.ids[row] = lastId;
        this.types[row] = this.types[last]!;
        this.tags[row] = this.tags[last]!;
        this.matrix.move(last, row);
        this.rowOf.set(lastId, row);
      }
      this.ids.pop();
      this.types.pop();
      this.tags.pop();
      this.rowOf.delete(id);
      this.keyword.remove(id);
    }
  }

  /**
   * The `limit` highest raw cosines between `query` (unit length) and every stored vector that
   * passes the filter, best first (ties in index order).
   */
  semanticTop(query: Float32Array, limit: number, filter?: IndexFilter, options: { scan?: ScanMode } = {}): ArmHit[] {
    if (query.length !== this.dim) throw new Error(`query has ${query.length} dimensions, the index ${this.dim}`);
    const accept = this.rowFilter(filter);
    return this.matrix
      .top(query, this.ids.length, limit, accept, options.scan)
      .map(([score, row]) => ({ id: this.ids[row]!, score }));
  }

  /**
   * The `limit` highest BM25 scores for the query's distinct terms, best first (ties by id).
   * `prune: false` scores every matching memory (the reference for tests and benchmarks).
   */
  keywordTop(query: string, limit: number, filter?: IndexFilter, options: { prune?: boolean } = {}): ArmHit[] {
    const terms = distinctTerms(query);
    if (terms.length === 0) return [];
    const accept = this.rowFilter(filter);
    return this.keyword.top(terms, limit, accept ? (id) => accept(this.rowOf.get(id)!) : null, options);
  }

  /**
   * One memory's BM25 for the query, exactly as `keywordTop` would score it; null when it is not
   * indexed, 0 when no term matches (lib/stores/search-index/keyword-index.ts `scoreOf`).
   */
  keywordScoreOf(query: string, id: string): number | null {
    if (!this.rowOf.has(id)) return null;
    const terms = distinctTerms(query);
    if (terms.length === 0) return 0;
    return this.keyword.scoreOf(terms, id);
  }

  /** The query's keyword evidence over the first merged candidates `ids` (KeywordIndex `evidence`). */
  keywordEvidence(
    query: string,
    ids: readonly string[],
  ): { terms: number; idf_total: number; idf_covered: number; max_bm25: number } {
    return this.keyword.evidence(distinctTerms(query), ids);
  }

  /**
   * One memory's raw cosine with `query`, exactly as `semanticTop` computes it (the same scan,
   * restricted to its row); null when it is not indexed or has no vector for the current model.
   */
  cosineOf(query: Float32Array, id: string): number | null {
    const row = this.rowOf.get(id);
    if (row === undefined || !this.matrix.hasVector(row)) return null;
    if (query.length !== this.dim) throw new Error(`query has ${query.length} dimensions, the index ${this.dim}`);
    return this.matrix.cosine(query, row);
  }

  /** The type and tags the filters read, or null when the memory is not indexed. */
  entry(id: string): { type: string; tags: readonly string[]; hasVector: boolean } | null {
    const row = this.rowOf.get(id);
    if (row === undefined) return null;
    return { type: this.types[row]!, tags: this.tags[row]!, hasVector: this.matrix.hasVector(row) };
  }

  /** Whether the memory passes the recall's type and tag filters. */
  passesFilter(id: string, filter?: IndexFilter): boolean | null {
    const row = this.rowOf.get(id);
    if (row === undefined) return null;
    const accept = this.rowFilter(filter);
    return accept ? accept(row) : true;
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
}

/** Unicode NFKC, as the reference normalizes queries before search. */
export function normalizeText(text: string): string {
  return text.normalize("NFKC");
}

const STOPWORDS = new Set(ENGLISH_STOPWORDS);

/**
 * What the keyword arm does to each word, and so which index the stored terms belong to: bumped
 * whenever `keywordTerm` changes. The index lives in memory and is rebuilt from `memories` at
 * every start, so a new analyzer takes effect on the next start; the store records the version
 * it built with in `app_state` and says so once when it changed (lib/stores/embedded/embedded-store.ts).
 */
export const KEYWORD_ANALYZER = "en-porter-1";

/** Stems already computed: the vocabulary is far smaller than the token count of a rebuild. */
const stems = new Map<string, string>();
const STEM_CACHE_LIMIT = 200_000;

/**
 * How a word enters the keyword index (and the query): lower case, accents folded, English
 * stopwords dropped, then the Porter stemmer (the `stemmer` package) — so "allergies" matches
 * "allergy" and "deploys" "deploy", as the reference normalizes its keyword arm. Stopwords carry
 * almost no BM25 weight but match nearly every memory, which would make the arm scan the whole
 * corpus for "what is the …". Callers NFKC-normalize the whole text first (once, not per word:
 * per-word normalization was a third of the index rebuild); accents are folded only for words
 * that have any.
 */
export function keywordTerm(word: string): string | null {
  let term = word.toLowerCase();
  if (/[^\u0000-\u007f]/.test(term)) term = term.normalize("NFKD").replace(/\p{M}+/gu, "");
  if (!term || STOPWORDS.has(term)) return null;
  let stem = stems.get(term);
  if (stem === undefined) {
    stem = stemmer(term);
    if (stems.size >= STEM_CACHE_LIMIT) stems.clear();
    stems.set(term, stem);
  }
  return stem;
}

/** The query's keyword terms, each once (a repeated word does not count twice). */
export function distinctTerms(query: string): string[] {
  const terms = normalizeText(query)
    .split(/[^\p{L}\p{N}]+/u)
    .map(keywordTerm)
    .filter((t): t is string => t !== null);
  return [...new Set(terms)];
}
