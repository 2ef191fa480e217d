import type { Level } from "@/lib/recall/confidence";

/**
 * Ranking metrics of one query (pure). `ranked` is the returned page, best first; `relevant`
 * the labeled ids. Ranks are 1-based; a query with no relevant ids has no ranking figures (it is
 * judged by triage alone: lib/eval/README.md "Evaluation").
 */

/** 1-based rank of the first relevant id on the page, or null when none is there. */
export function firstRelevantRank(ranked: readonly string[], relevant: readonly string[]): number | null {
  const wanted = new Set(relevant);
  const index = ranked.findIndex((id) => wanted.has(id));
  return index < 0 ? null : index + 1;
}

/** 1 when a relevant id is within the first `k`, else 0. */
export function hitAt(ranked: readonly string[], relevant: readonly string[], k: number): 0 | 1 {
  const rank = firstRelevantRank(ranked, relevant);
  return rank !== null && rank <= k ? 1 : 0;
}

/** 1 / rank of the first relevant id (0 when none is on the page). */
export function reciprocalRank(ranked: readonly string[], relevant: readonly string[]): number {
  const rank = firstRelevantRank(ranked, relevant);
  return rank === null ? 0 : 1 / rank;
}

/**
 * Binary-relevance nDCG over the first `k`: DCG = Σ rel_i / log2(i + 1), divided by the DCG of
 * the ideal page (min(|relevant|, k) relevant ids first). Null without relevant ids. A duplicate
 * id on the page counts once.
 */
export function ndcgAt(ranked: readonly string[], relevant: readonly string[], k: number): number | null {
  const wanted = new Set(relevant);
  if (wanted.size === 0) return null;
  const seen = new Set<string>();
  let dcg = 0;
  ranked.slice(0, k).forEach((id, i) => {
    if (wanted.has(id) && !seen.has(id)) dcg += 1 / Math.log2(i + 2);
    seen.add(id);
  });
  let ideal = 0;
  for (let i = 0; i < Math.min(wanted.size, k); i++) ideal += 1 / Math.log2(i + 2);
  return dcg / ideal;
}

/** Share of the relevant ids found within the first `k`; null without relevant ids. */
export function recallAt(ranked: readonly string[], relevant: readonly string[], k: number): number | null {
  const wanted = new Set(relevant);
  if (wanted.size === 0) return null;
  const found = new Set(ranked.slice(0, k).filter((id) => wanted.has(id)));
  return found.size / wanted.size;
}

/** One labeled query of the demo set (data/demo/queries.json). */
export interface LabeledQuery {
  id: string;
  query: string;
  /** on_topic, off_topic or near_miss (near misses are off-topic for the level mix below). */
  kind: string;
  relevant: string[];
}

export interface QueryOutcome {
  query: LabeledQuery;
  /** Returned memory ids, best first. */
  ranked: string[];
  level: Level;
}

export interface RetrievalReport {
  onTopic: number;
  offTopic: number;
  hitAt1: number;
  hitAt5: number;
  /** Mean reciprocal rank of the first relevant hit within the ranked list (0 when none). */
  mrr: number;
  levels: Record<"on_topic" | "off_topic", Record<Level, number>>;
}

/**
 * `npm run eval`'s first table: standard retrieval figures over the on-topic queries, and the
 * level mix for on-topic vs everything else. Kept as it was so before/after figures compare.
 */
export function retrievalReport(outcomes: readonly QueryOutcome[]): RetrievalReport {
  const empty = (): Record<Level, number> => ({ high: 0, moderate: 0, low: 0, none: 0 });
  const levels = { on_topic: empty(), off_topic: empty() };
  let hit1 = 0;
  let hit5 = 0;
  let rr = 0;
  let onTopic = 0;
  for (const { query, ranked, level } of outcomes) {
    const isOn = query.kind === "on_topic";
    levels[isOn ? "on_topic" : "off_topic"][level] += 1;
    if (!isOn) continue;
    onTopic += 1;
    hit1 += hitAt(ranked, query.relevant, 1);
    hit5 += hitAt(ranked, query.relevant, 5);
    rr += reciprocalRank(ranked, query.relevant);
  }
  return {
    onTopic,
    offTopic: outcomes.length - onTopic,
    hitAt1: onTopic ? hit1 / onTopic : 0,
    hitAt5: onTopic ? hit5 / onTopic : 0,
    mrr: onTopic ? rr / onTopic : 0,
    levels,
  };
}
