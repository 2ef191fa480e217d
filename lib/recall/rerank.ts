/**
 * Applying a reranker's scores to a candidate list as the reference does (docs/reference-rules.md
 * "The hybrid merge", step 7): the relevance score overwrites `hybrid_score` (and becomes the
 * result's `score` in hybrid mode), the raw cosine `semantic_score_raw` is kept, and the pool
 * shrinks to the reranker's top `candidates_k`. Pure: the store calls the endpoint.
 */
import type { PoolCandidate, SearchMode } from "./merge";

export interface RerankScoreInput {
  /** Index into the list that was sent. */
  index: number;
  score: number;
}

/**
 * The list reordered by relevance (descending; ties keep the merged order), every candidate the
 * reranker scored first, then those it did not score (a `top_n` answer) in merged order with
 * `hybrid_score` null: their merge score is on another scale and would mislead beside relevance.
 * The first `candidatesK` of it are the pool.
 */
export function applyRerank(
  mode: SearchMode,
  merged: readonly PoolCandidate[],
  scores: readonly RerankScoreInput[],
): PoolCandidate[] {
  const relevance = new Map<number, number>();
  for (const s of scores) if (s.index >= 0 && s.index < merged.length && !relevance.has(s.index)) relevance.set(s.index, s.score);
  const scored = merged
    .map((c, i) => ({ c, i, r: relevance.get(i) }))
    .filter((x): x is { c: PoolCandidate; i: number; r: number } => x.r !== undefined)
    .sort((a, b) => b.r - a.r || a.i - b.i)
    .map(({ c, r }) => ({ ...c, hybrid_score: r, score: mode === "hybrid" ? r : c.score }));
  const unscored = merged.filter((_, i) => !relevance.has(i)).map((c) => ({ ...c, hybrid_score: null }));
  return [...scored, ...unscored];
}
