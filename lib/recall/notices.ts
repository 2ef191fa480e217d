/**
 * Notices: what a recall's answer should say about itself beyond the level (lib/recall/README.md
 * "Explaining a ranking"). The main one is the **buried best hit**: a candidate outside the pool
 * whose raw cosine beats the pool's top, typically because the keyword arm's fetch window missed
 * it and the merge counted its BM25 as 0. Pure: the store hands in the candidate list and, where
 * it was cheap to compute after the merge, the BM25 of memories the keyword arm did not fetch
 * (shown, never used by the merge).
 */
import { armCounts, armRanks, type ArmRanks, type RankedCandidate } from "./arm-ranks";
import type { SearchMode } from "./merge";

export type NoticeKind =
  | "buried_best_hit"
  | "keyword_outside_fetch_window"
  | "reranked"
  | "rerank_failed"
  // A captured OpenTelemetry span that did not say everything where OpenInference puts it (lib/capture/otlp).
  | "span_ids_derived"
  | "span_ids_generated"
  | "span_scores_missing"
  | "span_unread";

/** Why a buried hit sits outside the pool. */
export type BuriedCause =
  /** The keyword arm's window was full and did not hold it: its BM25 counted 0 in the merge. */
  | "keyword_outside_fetch_window"
  /** It matches none of the query's keywords: memories that do outrank it in the merge. */
  | "no_keyword_match"
  /** The keyword arm fetched it, but with a weaker BM25 than the memories that outrank it. */
  | "weaker_keyword_score"
  /** A reranker ordered the pool, and placed it lower. */
  | "reranked";

export interface RecallNotice {
  kind: NoticeKind;
  memory_id?: string;
  /** One or two sentences for a person. */
  message: string;
  /** Its rank in each arm and in the merge; null where that arm did not fetch it. */
  ranks?: ArmRanks;
  raw_cosine?: number | null;
  /** The highest raw cosine inside the pool (what `top_score` rests on); null when none has one. */
  pool_top_cosine?: number | null;
  /** The BM25 the merge used; null when the keyword arm did not fetch it ("not fetched", not "no match"). */
  keyword_score?: number | null;
  /** Its BM25 computed after the merge, for display only: the merge did NOT use it. Null when not computed. */
  computed_keyword_score?: number | null;
  cause?: BuriedCause;
  /** Rerank notices: the model, the documents sent, why it failed. */
  model?: string;
  documents?: number;
  reason?: string;
}

export interface NoticeInput {
  searchMode: SearchMode;
  /** The whole merged (or reranked) list, in rank order. */
  candidates: readonly RankedCandidate[];
  /** The most hits each arm fetched (`min(candidates_k × fetch factor, 200)`); null when unknown. */
  fetchSize: number | null;
  /** BM25 computed after the merge for candidates the keyword arm did not fetch (display only). */
  computedKeyword?: ReadonlyMap<string, number>;
  /** The merge's keyword weight (0.4), to tell whether the missing BM25 would have lifted a memory into the pool. */
  keywordWeight?: number;
  /** The pool was reordered by a reranker: the merge no longer decides who is in it. */
  reranked?: boolean;
}

/** At most this many notices of each kind: the first ones carry the story; a pool of 200 should not bury the answer in notes. */
export const MAX_NOTICES_PER_KIND = 5;

/**
 * The buried-hit notices of a recall: every candidate outside the pool whose raw cosine is
 * higher than the pool's best (strictly; best first), and in hybrid mode every candidate whose
 * BM25 was left out by the keyword arm's fetch window although it matches and would have
 * entered the pool with it.
 */
export function buriedHitNotices(input: NoticeInput): RecallNotice[] {
  const { candidates } = input;
  const pool = candidates.filter((c) => c.in_pool);
  if (pool.length === 0) return [];
  const ranks = armRanks(candidates);
  const counts = armCounts(candidates);
  const hybrid = input.searchMode === "hybrid";
  const keywordRan = hybrid && counts.keyword > 0;
  const keywordFull = input.fetchSize !== null && counts.keyword >= input.fetchSize;
  const poolTop = maxOf(pool.map((c) => c.raw_cosine));
  const allTop = maxOf(candidates.map((c) => c.raw_cosine));
  const poolSize = pool.length;

  const notices: RecallNotice[] = [];
  const buried = candidates
    .filter((c) => !c.in_pool && c.raw_cosine !== null && (poolTop === null || c.raw_cosine > poolTop))
    .sort((a, b) => b.raw_cosine! - a.raw_cosine! || a.rank - b.rank)
    .slice(0, MAX_NOTICES_PER_KIND);
  for (const c of buried) {
    const computed = c.keyword_score === null ? (input.computedKeyword?.get(c.memory_id) ?? null) : null;
    const cause: BuriedCause = input.reranked
      ? "reranked"
      : c.keyword_score !== null
        ? "weaker_keyword_score"
        : computed !== null
          ? computed > 0
            ? "keyword_outside_fetch_window"
            : "no_keyword_match"
          : keywordRan && keywordFull
            ? "keyword_outside_fetch_window"
            : "no_keyword_match";
    const isBest = c.raw_cosine === allTop;
    const lead =
      `${c.memory_id} has ${isBest ? "the highest raw cosine of all candidates" : "a higher raw cosine than the pool's top"} ` +
      `(${c.raw_cosine!.toFixed(3)}, above the pool's top of ${poolTop === null ? "none" : poolTop.toFixed(3)}) ` +
      `but sits at rank ${c.rank}, outside the pool of ${poolSize}`;
    notices.push({
      kind: "buried_best_hit",
      memory_id: c.memory_id,
      message: `${lead}: ${causeSentence(cause, c, computed, input.fetchSize)}`,
      ranks: ranks.get(c.memory_id)!,
      raw_cosine: c.raw_cosine,
      pool_top_cosine: poolTop,
      keyword_score: c.keyword_score,
      computed_keyword_score: computed,
      cause,
    });
  }

  if (hybrid && !input.reranked && input.computedKeyword && input.computedKeyword.size > 0) {
    const named = new Set(buried.map((c) => c.memory_id));
    const keywordMax = maxOf(candidates.map((c) => c.keyword_score));
    const poolFloor = minOf(pool.map((c) => c.hybrid_score));
    const weight = input.keywordWeight ?? 0.4;
    const lifted = candidates.filter((c) => {
      if (c.in_pool || c.keyword_score !== null || named.has(c.memory_id) || c.hybrid_score === null) return false;
      const computed = input.computedKeyword!.get(c.memory_id);
      if (computed === undefined || computed <= 0 || keywordMax === null || keywordMax <= 0 || poolFloor === null) return false;
      return c.hybrid_score + (computed / keywordMax) * weight > poolFloor;
    });
    for (const c of lifted.slice(0, MAX_NOTICES_PER_KIND)) {
      const computed = input.computedKeyword.get(c.memory_id)!;
      notices.push({
        kind: "keyword_outside_fetch_window",
        memory_id: c.memory_id,
        message:
          `${c.memory_id} sits at rank ${c.rank}, outside the pool of ${poolSize}, with its BM25 counted as 0: ` +
          `the keyword arm fetched its top ${input.fetchSize ?? counts.keyword} and it was not among them. ` +
          `Its BM25 is ${computed.toFixed(2)} (computed for display, not used by the merge); with it, it would have entered the pool.`,
        ranks: ranks.get(c.memory_id)!,
        raw_cosine: c.raw_cosine,
        pool_top_cosine: poolTop,
        keyword_score: null,
        computed_keyword_score: computed,
      });
    }
  }
  return notices;
}

function causeSentence(cause: BuriedCause, c: RankedCandidate, computed: number | null, fetchSize: number | null): string {
  switch (cause) {
    case "keyword_outside_fetch_window":
      return (
        `it was outside the keyword arm's fetch window (the arm fetched its top ${fetchSize ?? "hits"}), so its BM25 counted as 0 in the merge` +
        (computed !== null ? ` — its BM25 is ${computed.toFixed(2)} (computed for display, not used by the merge).` : ".")
      );
    case "no_keyword_match":
      return "it matches none of the query's keywords, so memories that do outrank it in the merge.";
    case "weaker_keyword_score":
      return `its BM25 (${c.keyword_score!.toFixed(2)}) is weaker than the keyword scores of the memories that outrank it in the merge.`;
    case "reranked":
      return "the reranker placed it below the pool.";
  }
}

function maxOf(values: readonly (number | null)[]): number | null {
  let best: number | null = null;
  for (const v of values) if (v !== null && (best === null || v > best)) best = v;
  return best;
}

function minOf(values: readonly (number | null)[]): number | null {
  let least: number | null = null;
  for (const v of values) if (v !== null && (least === null || v < least)) least = v;
  return least;
}
