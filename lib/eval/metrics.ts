import type { Level } from "@/lib/recall/confidence";
import { hitAt, ndcgAt, recallAt, reciprocalRank } from "./retrieval-metrics";
import { auc } from "./roc";
import { confusion, presentGivenLevel, triageScores, type Confusion } from "./triage";

/**
 * The metrics of an evaluation run (pure, client-safe): what `GET /api/eval-runs/{id}` answers
 * under `metrics`, what `npm run eval` prints and what the report page draws. One function for
 * all three, so the figures cannot drift apart.
 *
 * Ranking figures (hit@1, hit@5, MRR, nDCG@k, recall@k) are over present queries (relevant ids
 * stored); triage figures over every query that ran; a failed recall counts in `errors` only.
 * `by_kind` repeats everything per kind, plus `auc_vs_present`: that kind's absent queries against
 * every present query of the set, because a kind of absent queries alone (off-topic, near-miss)
 * has no AUC of its own and the point is to show each apart (docs/ARCHITECTURE.md "Evaluation").
 */

export const SIGNALS = ["top_score", "prominence", "relative_margin"] as const;
export type Signal = (typeof SIGNALS)[number];

export interface EvalOutcome {
  kind: string | null;
  relevant: readonly string[];
  /** The returned page, best first (selector-dropped rows included: ranking judges the store). */
  ranked: readonly string[];
  /** Null for a failed recall (or one without a confidence block). */
  level: Level | null;
  top_score: number | null;
  prominence: number | null;
  relative_margin: number | null;
}

export interface SignalAuc {
  top_score: number | null;
  prominence: number | null;
  relative_margin: number | null;
}

export interface MetricBlock {
  count: number;
  present: number;
  absent: number;
  /** Recalls that failed or came without a level: not judged. */
  errors: number;
  hit_at_1: number | null;
  hit_at_5: number | null;
  mrr: number | null;
  /** nDCG@k with k the run's page size. */
  ndcg: number | null;
  recall_at_k: number | null;
  triage_accuracy: number | null;
  balanced_accuracy: number | null;
  worth_reading: { precision: number | null; recall: number | null };
  auc: SignalAuc;
  confusion: Confusion;
  p_present_given_level: Record<Level, number | null>;
}

export interface EvalMetrics extends MetricBlock {
  k: number;
  by_kind: Record<string, MetricBlock & { auc_vs_present: SignalAuc }>;
}

const mean = (values: readonly number[]): number | null =>
  values.length === 0 ? null : values.reduce((a, b) => a + b, 0) / values.length;

export const isPresent = (o: Pick<EvalOutcome, "relevant">): boolean => o.relevant.length > 0;

function signalAuc(present: readonly EvalOutcome[], absent: readonly EvalOutcome[]): SignalAuc {
  const out = {} as SignalAuc;
  for (const s of SIGNALS)
    out[s] = auc(
      present.map((o) => o[s]),
      absent.map((o) => o[s]),
    );
  return out;
}

export function metricBlock(outcomes: readonly EvalOutcome[], k: number): MetricBlock {
  const judged = outcomes.filter((o) => o.level !== null);
  const present = judged.filter(isPresent);
  const absent = judged.filter((o) => !isPresent(o));
  const matrix = confusion(judged.map((o) => ({ level: o.level!, present: isPresent(o) })));
  const triage = triageScores(matrix);
  return {
    count: outcomes.length,
    present: present.length,
    absent: absent.length,
    errors: outcomes.length - judged.length,
    hit_at_1: mean(present.map((o) => hitAt(o.ranked, o.relevant, 1))),
    hit_at_5: mean(present.map((o) => hitAt(o.ranked, o.relevant, 5))),
    mrr: mean(present.map((o) => reciprocalRank(o.ranked, o.relevant))),
    ndcg: mean(present.map((o) => ndcgAt(o.ranked, o.relevant, k)!)),
    recall_at_k: mean(present.map((o) => recallAt(o.ranked, o.relevant, k)!)),
    triage_accuracy: triage.accuracy,
    balanced_accuracy: triage.balanced_accuracy,
    worth_reading: { precision: triage.worth_reading_precision, recall: triage.worth_reading_recall },
    auc: signalAuc(present, absent),
    confusion: matrix,
    p_present_given_level: presentGivenLevel(matrix),
  };
}

/** The whole metrics object of a run; `by_kind` is empty when no item has a kind. */
export function evalMetrics(outcomes: readonly EvalOutcome[], k: number): EvalMetrics {
  const allPresent = outcomes.filter((o) => o.level !== null && isPresent(o));
  const kinds = [...new Set(outcomes.map((o) => o.kind).filter((kind): kind is string => !!kind))].sort();
  const byKind: EvalMetrics["by_kind"] = {};
  for (const kind of kinds) {
    const subset = outcomes.filter((o) => o.kind === kind);
    const absent = subset.filter((o) => o.level !== null && !isPresent(o));
    byKind[kind] = { ...metricBlock(subset, k), auc_vs_present: signalAuc(allPresent, absent) };
  }
  return { k, ...metricBlock(outcomes, k), by_kind: byKind };
}
