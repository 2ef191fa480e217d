/**
 * Where each candidate of a merged list sat in each retrieval arm (lib/recall/README.md "Explaining
 * a ranking"). Pure: derived from the logged candidate list alone, which holds every hit of both
 * arms with its raw scores, so the arm ranks need no second search.
 */

import type { RankedCandidate } from "./candidate";

export type { RankedCandidate };

/** A memory's rank in each arm and in the merge; null where that arm did not fetch it. */
export interface ArmRanks {
  semantic: number | null;
  keyword: number | null;
  merged: number | null;
}

/**
 * Ranks in each arm, reconstructed as the arms ordered their hits: the semantic arm by raw
 * cosine descending (ties in merged order, the closest to index order the log keeps), the
 * keyword arm by BM25 descending, ties by id ascending (lib/stores/search-index/keyword-index.ts).
 */
export function armRanks(candidates: readonly RankedCandidate[]): Map<string, ArmRanks> {
  const byMerged = [...candidates].sort((a, b) => a.rank - b.rank);
  const semantic = byMerged.filter((c) => c.raw_cosine !== null).sort((a, b) => b.raw_cosine! - a.raw_cosine! || a.rank - b.rank);
  const keyword = byMerged
    .filter((c) => c.keyword_score !== null)
    .sort((a, b) => b.keyword_score! - a.keyword_score! || compareIds(a.memory_id, b.memory_id));
  const out = new Map<string, ArmRanks>();
  for (const c of byMerged) out.set(c.memory_id, { semantic: null, keyword: null, merged: c.rank });
  semantic.forEach((c, i) => (out.get(c.memory_id)!.semantic = i + 1));
  keyword.forEach((c, i) => (out.get(c.memory_id)!.keyword = i + 1));
  return out;
}

/** How many hits each arm handed the merge (the candidates carrying that arm's raw score). */
export function armCounts(candidates: readonly RankedCandidate[]): { semantic: number; keyword: number } {
  let semantic = 0;
  let keyword = 0;
  for (const c of candidates) {
    if (c.raw_cosine !== null) semantic++;
    if (c.keyword_score !== null) keyword++;
  }
  return { semantic, keyword };
}

function compareIds(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
