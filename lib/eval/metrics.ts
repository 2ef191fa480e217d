import {
  calibrationEstimate,
  reliability,
  riskCoverage,
  type CalibrationEstimate,
  type ReliabilityBin,
} from "@/lib/calibration/model/reliability";
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
 * has no AUC of its own and the point is to show each apart (lib/eval/README.md "Evaluation").
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
  /** The store's verdict probability where the recall carries one. */
  probability?: number | null;
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
  verdict: VerdictMetrics;
}

/**
 * The verdict's figures, never pooled (lib/eval/README.md "Evaluation"): present vs off-topic
 * (every absent query that is not a near-miss) is the headline; near-misses apart; how far the
 * probability can be trusted over present and off-topic queries.
 */
export interface VerdictMetrics {
  present_vs_off_topic: {
    present: number;
    off_topic: number;
    balanced_accuracy: number | null;
    /** AUC of the verdict's probability (null without one), else of the top score. */
    auc: number | null;
    auc_of: "probability" | "top_score";
  };
  near_miss: { count: number; worth_reading_rate: number | null; auc_vs_present: number | null } | null;
  /** Null when no recall carried a probability (a run judged by a profile of the old shape). */
  calibration: {
    count: number;
    ece: number | null;
    brier: number | null;
    reliability: ReliabilityBin[];
    risk_coverage: { coverage: number; risk: number; threshold: number }[];
    p_present_by_level: CalibrationEstimate["p_present_by_level"];
  } | null;
}

export const NEAR_MISS_KIND = "near_miss";

export function verdictMetrics(outcomes: readonly EvalOutcome[]): VerdictMetrics {
  const judged = outcomes.filter((o) => o.level !== null);
  const present = judged.filter(isPresent);
  const nearMiss = judged.filter((o) => !isPresent(o) && o.kind === NEAR_MISS_KIND);
  const offTopic = judged.filter((o) => !isPresent(o) && o.kind !== NEAR_MISS_KIND);
  const matrix = confusion([...present, ...offTopic].map((o) => ({ level: o.level!, present: isPresent(o) })));
  const withProbability = [...present, ...offTopic].every((o) => typeof o.probability === "number") && present.length > 0;
  const score = (o: EvalOutcome) => (withProbability ? o.probability : o.top_score);
  const scored = withProbability
    ? [...present, ...offTopic].map((o) => ({ probability: o.probability!, present: isPresent(o) }))
    : [];
  const estimate = withProbability ? calibrationEstimate(scored, () => "none") : null;
  const byLevel = { high: [0, 0], moderate: [0, 0], low: [0, 0], none: [0, 0] } as Record<Level, [number, number]>;
  for (const o of [...present, ...offTopic]) {
    byLevel[o.level!][0]++;
    if (isPresent(o)) byLevel[o.level!][1]++;
  }
  return {
    present_vs_off_topic: {
      present: present.length,
      off_topic: offTopic.length,
      balanced_accuracy: triageScores(matrix).balanced_accuracy,
      auc: auc(present.map(score), offTopic.map(score)),
      auc_of: withProbability ? "probability" : "top_score",
    },
    near_miss: nearMiss.length
      ? {
          count: nearMiss.length,
          worth_reading_rate: nearMiss.filter((o) => o.level === "high" || o.level === "moderate").length / nearMiss.length,
          auc_vs_present: auc(present.map(score), nearMiss.map(score)),
        }
      : null,
    calibration: estimate
      ? {
          count: scored.length,
          ece: estimate.ece,
          brier: estimate.brier,
          reliability: reliability(scored),
          risk_coverage: riskCoverage(scored),
          // The levels the recalls carried (the profile's cuts), not a re-cut here.
          p_present_by_level: Object.fromEntries(
            Object.entries(byLevel).map(([l, [count, hits]]) => [l, { count, present_rate: count ? hits / count : null }]),
          ) as CalibrationEstimate["p_present_by_level"],
        }
      : null,
  };
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
  return { k, ...metricBlock(outcomes, k), by_kind: byKind, verdict: verdictMetrics(outcomes) };
}
