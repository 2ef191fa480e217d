import type { Level } from "@/lib/recall/confidence";

/** One labeled query of the demo set (data/demo/queries.json). */
export interface LabeledQuery {
  id: string;
  query: string;
  kind: "on_topic" | "off_topic";
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

/** Standard retrieval figures over the on-topic queries, and the level mix for both kinds. */
export function retrievalReport(outcomes: readonly QueryOutcome[]): RetrievalReport {
  const empty = (): Record<Level, number> => ({ high: 0, moderate: 0, low: 0, none: 0 });
  const levels = { on_topic: empty(), off_topic: empty() };
  let hit1 = 0;
  let hit5 = 0;
  let rr = 0;
  let onTopic = 0;
  for (const { query, ranked, level } of outcomes) {
    levels[query.kind][level] += 1;
    if (query.kind !== "on_topic") continue;
    onTopic += 1;
    const relevant = new Set(query.relevant);
    const first = ranked.findIndex((id) => relevant.has(id));
    if (first === 0) hit1 += 1;
    if (first >= 0 && first < 5) hit5 += 1;
    if (first >= 0) rr += 1 / (first + 1);
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
