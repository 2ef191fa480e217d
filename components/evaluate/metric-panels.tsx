import { LevelBadge } from "@/components/recall/level-badge";
import type { EvalMetrics, MetricBlock } from "@/lib/eval/metrics";
import { LEVELS } from "@/lib/recall/confidence";
import { fmt } from "./run-status";
import { Notice } from "@/components/ui/notice";
import { numericCellClassName } from "@/components/ui/table";
import { EvaluateTable } from "./evaluate-table";
import { panelClassName } from "@/components/ui/panel";
import styles from "./evaluate.module.css";

/** The headline metrics, each with the count it stands on. */
export function MetricsPanel({ metrics }: { metrics: EvalMetrics }) {
  const m = metrics;
  const items: [string, number | null, string][] = [
    ["hit@1", m.hit_at_1, `${m.present} present`],
    ["hit@5", m.hit_at_5, `${m.present} present`],
    ["MRR", m.mrr, `${m.present} present`],
    [`nDCG@${m.k}`, m.ndcg, `${m.present} present`],
    [`recall@${m.k}`, m.recall_at_k, `${m.present} present`],
    ["triage accuracy", m.triage_accuracy, `${m.present + m.absent} judged`],
    ["balanced accuracy", m.balanced_accuracy, `${m.present} present / ${m.absent} absent`],
    ["worth reading: precision", m.worth_reading.precision, "of high/moderate"],
    ["worth reading: recall", m.worth_reading.recall, "of present"],
    ["AUC top score", m.auc.top_score, "present vs absent"],
    ["AUC prominence", m.auc.prominence, "present vs absent"],
    ["AUC relative margin", m.auc.relative_margin, "present vs absent"],
  ];
  return (
    <section className={`${panelClassName} ${styles.headings}`} aria-labelledby="metrics-h">
      <h2 id="metrics-h">Metrics</h2>
      <dl className={styles.metrics} data-testid="metrics">
        {items.map(([label, value, count]) => (
          <div className={styles.metric} key={label}>
            <dt>{label}</dt>
            <dd data-metric={label}>
              {fmt(value)} <span className={styles.count}>{count}</span>
            </dd>
          </div>
        ))}
      </dl>
      {m.errors ? <Notice tone="warning">{m.errors} recall(s) failed and are not judged; their rows say so below.</Notice> : null}
    </section>
  );
}

/** Level × present/absent, with P(present | level) per row. */
export function ConfusionPanel({ block }: { block: MetricBlock }) {
  return (
    <section className={`${panelClassName} ${styles.headings}`} aria-labelledby="confusion-h">
      <h2 id="confusion-h">Triage: level × a relevant memory present</h2>
      <p className={styles.hint}>
        High and moderate claim &ldquo;worth reading&rdquo;; low and none claim &ldquo;go external&rdquo;.
      </p>
      <EvaluateTable
        data-testid="confusion"
        columns={[
          "Level",
          { label: "Present", numeric: true },
          { label: "Absent", numeric: true },
          { label: "P(present | level)", numeric: true },
        ]}
      >
        <tbody>
          {[...LEVELS].reverse().map((level) => (
            <tr key={level}>
              <th scope="row">
                <LevelBadge level={level} />
              </th>
              <td className={numericCellClassName}>{block.confusion[level].present}</td>
              <td className={numericCellClassName}>{block.confusion[level].absent}</td>
              <td className={numericCellClassName}>{fmt(block.p_present_given_level[level], 2)}</td>
            </tr>
          ))}
        </tbody>
      </EvaluateTable>
    </section>
  );
}

/** Everything again per kind: near misses apart from off-topic, never averaged away. */
export function ByKindPanel({ metrics }: { metrics: EvalMetrics }) {
  const kinds = Object.entries(metrics.by_kind);
  if (kinds.length === 0) return null;
  return (
    <section className={`${panelClassName} ${styles.headings}`} aria-labelledby="kinds-h">
      <h2 id="kinds-h">By kind</h2>
      <p className={styles.hint}>
        A kind of absent queries has no AUC of its own; &ldquo;vs present&rdquo; compares its queries with every present query of
        the set.
      </p>
      <EvaluateTable
        data-testid="by-kind"
        columns={[
          "Kind",
          { label: "Queries", numeric: true },
          { label: "hit@1", numeric: true },
          { label: "MRR", numeric: true },
          { label: "Worth reading", numeric: true },
          { label: "Balanced acc.", numeric: true },
          { label: "AUC top (vs present)", numeric: true },
          { label: "AUC prominence (vs present)", numeric: true },
        ]}
      >
        <tbody>
          {kinds.map(([kind, b]) => {
            const worth =
              b.confusion.high.present + b.confusion.high.absent + b.confusion.moderate.present + b.confusion.moderate.absent;
            return (
              <tr key={kind}>
                <th scope="row">{kind}</th>
                <td className={numericCellClassName}>
                  {b.count} <span className={styles.muted}>({b.present} present)</span>
                </td>
                <td className={numericCellClassName}>{fmt(b.hit_at_1)}</td>
                <td className={numericCellClassName}>{fmt(b.mrr)}</td>
                <td className={numericCellClassName}>
                  {worth} / {b.present + b.absent}
                </td>
                <td className={numericCellClassName}>{fmt(b.balanced_accuracy)}</td>
                <td className={numericCellClassName}>{fmt(b.auc.top_score ?? b.auc_vs_present.top_score)}</td>
                <td className={numericCellClassName}>{fmt(b.auc.prominence ?? b.auc_vs_present.prominence)}</td>
              </tr>
            );
          })}
        </tbody>
      </EvaluateTable>
    </section>
  );
}
