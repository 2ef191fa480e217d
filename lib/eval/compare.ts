import type { Level } from "@/lib/recall/confidence";
import type { EvalMetrics } from "./metrics";
import type { EvalRunItem, EvalRunReport } from "./run-schemas";
import { isWorthReading } from "./triage";

/**
 * Two runs over the same set side by side (pure, client-safe): metric deltas (b − a), and per
 * query the rank of the first relevant memory and the level in each, with the queries whose
 * triage verdict ("worth reading" vs "go external") flipped.
 */

export const COMPARED_METRICS = [
  ["hit_at_1", "hit@1"],
  ["hit_at_5", "hit@5"],
  ["mrr", "MRR"],
  ["ndcg", "nDCG@k"],
  ["recall_at_k", "recall@k"],
  ["triage_accuracy", "triage accuracy"],
  ["balanced_accuracy", "balanced accuracy"],
] as const;

export interface MetricDelta {
  key: string;
  label: string;
  a: number | null;
  b: number | null;
  /** b − a; null when either is undefined. */
  delta: number | null;
}

export type Verdict = "worth_reading" | "go_external";

export interface CompareRow {
  position: number;
  query: string;
  kind: string | null;
  present: boolean;
  rank_a: number | null;
  rank_b: number | null;
  level_a: Level | null;
  level_b: Level | null;
  verdict_a: Verdict | null;
  verdict_b: Verdict | null;
  /** Both verdicts known and different. */
  flipped: boolean;
  /** The flip made the verdict right (true), wrong (false); null when it did not flip. */
  flip_correct: boolean | null;
  recall_a: string | null;
  recall_b: string | null;
}

export interface RunComparison {
  sameSet: boolean;
  deltas: MetricDelta[];
  aucDeltas: MetricDelta[];
  rows: CompareRow[];
  flipped: number;
  rankChanged: number;
  levelChanged: number;
}

const verdict = (level: Level | null): Verdict | null =>
  level === null ? null : isWorthReading(level) ? "worth_reading" : "go_external";
const delta = (a: number | null, b: number | null) => (a === null || b === null ? null : b - a);

function deltas(a: EvalMetrics, b: EvalMetrics): { deltas: MetricDelta[]; aucDeltas: MetricDelta[] } {
  return {
    deltas: COMPARED_METRICS.map(([key, label]) => ({ key, label, a: a[key], b: b[key], delta: delta(a[key], b[key]) })),
    aucDeltas: (["top_score", "prominence", "relative_margin"] as const).map((key) => ({
      key: `auc.${key}`,
      label: `AUC ${key.replace("_", " ")}`,
      a: a.auc[key],
      b: b.auc[key],
      delta: delta(a.auc[key], b.auc[key]),
    })),
  };
}

export function compareRuns(
  a: Pick<EvalRunReport, "dataset" | "metrics" | "items">,
  b: Pick<EvalRunReport, "dataset" | "metrics" | "items">,
): RunComparison {
  const bByPosition = new Map<number, EvalRunItem>(b.items.map((i) => [i.position, i]));
  const aByPosition = new Map<number, EvalRunItem>(a.items.map((i) => [i.position, i]));
  const positions = [...new Set([...aByPosition.keys(), ...bByPosition.keys()])].sort((x, y) => x - y);
  const rows: CompareRow[] = positions.map((position) => {
    const ia = aByPosition.get(position);
    const ib = bByPosition.get(position);
    const item = (ia ?? ib)!;
    const present = item.relevant.length > 0;
    const va = verdict(ia?.level ?? null);
    const vb = verdict(ib?.level ?? null);
    const flipped = va !== null && vb !== null && va !== vb;
    return {
      position,
      query: item.query,
      kind: item.kind,
      present,
      rank_a: ia?.first_relevant_rank ?? null,
      rank_b: ib?.first_relevant_rank ?? null,
      level_a: ia?.level ?? null,
      level_b: ib?.level ?? null,
      verdict_a: va,
      verdict_b: vb,
      flipped,
      flip_correct: flipped ? (vb === "worth_reading") === present : null,
      recall_a: ia?.recall_id ?? null,
      recall_b: ib?.recall_id ?? null,
    };
  });
  return {
    sameSet: a.dataset.id === b.dataset.id,
    ...deltas(a.metrics, b.metrics),
    rows,
    flipped: rows.filter((r) => r.flipped).length,
    rankChanged: rows.filter((r) => r.rank_a !== r.rank_b).length,
    levelChanged: rows.filter((r) => r.level_a !== r.level_b).length,
  };
}
