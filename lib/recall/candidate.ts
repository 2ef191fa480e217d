/**
 * A candidate of a recall's merged list: one home for its fields, as a store produces them
 * (lib/stores PoolMember), the log keeps them (lib/recall-log LoggedCandidate) and the ranking
 * explanations read them (arm-ranks.ts, notices.ts, why.ts).
 */

/** The fields that say where a candidate ranked and why. */
export interface RankedCandidate {
  memory_id: string;
  /** Rank in the merged (or reranked) list, 1-based. */
  rank: number;
  /** Raw cosine; null when the semantic arm did not fetch it (or did not run). */
  raw_cosine: number | null;
  /** Raw BM25; null when the keyword arm did not fetch it (or did not run). */
  keyword_score: number | null;
  hybrid_score: number | null;
  /** Counted in confidence (the first `candidates_k`). */
  in_pool: boolean;
  /** On the result page. */
  returned: boolean;
  /** Returned, then removed by the selector. */
  dropped?: boolean;
}

/**
 * One member of the candidate list a store saw, with the memory's summary. No `dropped`: the
 * selector runs after the store.
 */
export interface PoolMember extends Omit<RankedCandidate, "dropped"> {
  summary: string | null;
}
