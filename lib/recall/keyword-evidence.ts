/**
 * What the keyword arm knows about a query beyond its hits' BM25: how much BM25 the query could
 * earn at most in this store, and how much of the query's IDF mass the first merged candidates
 * cover. A raw BM25 is not comparable across queries (a long query earns more); these ratios are,
 * so the store's verdict can read the keyword arm (lib/calibration/README.md "Threshold profiles").
 * The store computes it from its index (lib/stores/search-index/keyword-index.ts `evidence`).
 */
export interface KeywordEvidence {
  /** Distinct analysed query terms. */
  terms: number;
  /** Σ idf over the distinct terms; a term the store never saw counts at the idf of df = 0. */
  idf_total: number;
  /** Σ idf of the distinct terms found in at least one of the first `top_n` merged candidates. */
  idf_covered: number;
  /** The most BM25 the query can earn here: Σ idf · (k1 + 1), every term saturated. */
  max_bm25: number;
  /** How many merged candidates the coverage reads. */
  top_n: number;
}

/** How many of the first merged candidates the keyword coverage reads. */
export const KEYWORD_EVIDENCE_TOP_N = 3;
