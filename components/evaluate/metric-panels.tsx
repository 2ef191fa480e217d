import { LevelBadge } from "@/components/recall/level-badge";
import type { EvalMetrics, MetricBlock } from "@/lib/eval/metrics";
import { LEVELS } from "@/lib/recall/confidence";
import { fmt } from "./run-status";
import { Notice } from "@/components/ui/notice";
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
    <section className={`panel ${styles.panel}`} aria-labelledby="metrics-h">
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
    <section className={`panel ${styles.panel}`} aria-labelledby="confusion-h">
      <h2 id="confusion-h">Triage: level × a relevant memory present</h2>
      <p className={styles.hint}>
        High and moderate claim &ldquo;worth reading&rdquo;; low and none claim &ldquo;go external&rdquo;.
      </p>
      <div className={styles.tableScroll}>
        <table className={styles.table} data-testid="confusion">
          <thead>
            <tr>
              <th scope="col">Level</th>
              <th scope="col" className={styles.num}>
                Present
              </th>
              <th scope="col" className={styles.num}>
                Absent
              </th>
              <th scope="col" className={styles.num}>
                P(present | level)
              </th>
            </tr>
          </thead>
          <tbody>
            {[...LEVELS].reverse().map((level) => (
              <tr key={level}>
                <th scope="row">
                  <LevelBadge level={level} />
                </th>
                <td className={styles.num}>{block.confusion[level].present}</td>
                <td className={styles.num}>{block.confusion[level].absent}</td>
                <td className={styles.num}>{fmt(block.p_present_given_level[level], 2)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </section>
  );
}

/** Everything again per kind: near misses apart from off-topic, never averaged away. */
export function ByKindPanel({ metrics }: { metrics: EvalMetrics }) {
  const kinds = Object.entries(metrics.by_kind);
  if (kinds.length === 0) return null;
  return (
    <section className={`panel ${styles.panel}`} aria-labelledby="kinds-h">
      <h2 id="kinds-h">By kind</h2>
      <p className={styles.hint}>
        A kind of absent queries has no AUC of its own; &ldquo;vs present&rdquo; compares its queries with every present query of
        the set.
      </p>
      <div className={styles.tableScroll}>
        <table className={styles.table} data-testid="by-kind">
          <thead>
            <tr>
              <th scope="col">Kind</th>
              <th scope="col" className={styles.num}>
                Queries
              </th>
              <th scope="col" className={styles.num}>
                hit@1
              </th>
              <th scope="col" className={styles.num}>
                MRR
              </th>
              <th scope="col" className={styles.num}>
                Worth reading
              </th>
              <th scope="col" className={styles.num}>
                Balanced acc.
              </th>
              <th scope="col" className={styles.num}>
                AUC top (vs present)
              </th>
              <th scope="col" className={styles.num}>
                AUC prominence (vs present)
              </th>
            </tr>
          </thead>
          <tbody>
            {kinds.map(([kind, b]) => {
              const worth =
                b.confusion.high.present + b.confusion.high.absent + b.confusion.moderate.present + b.confusion.moderate.absent;
              return (
                <tr key={kind}>
                  <th scope="row">{kind}</th>
                  <td className={styles.num}>
                    {b.count} <span className={styles.muted}>({b.present} present)</span>
                  </td>
                  <td className={styles.num}>{fmt(b.hit_at_1)}</td>
                  <td className={styles.num}>{fmt(b.mrr)}</td>
                  <td className={styles.num}>
                    {worth} / {b.present + b.absent}
                  </td>
                  <td className={styles.num}>{fmt(b.balanced_accuracy)}</td>
                  <td className={styles.num}>{fmt(b.auc.top_score ?? b.auc_vs_present.top_score)}</td>
                  <td className={styles.num}>{fmt(b.auc.prominence ?? b.auc_vs_present.prominence)}</td>
                </tr>
              );
            })}
          </tbody>
        </table>
      </div>
    </section>
  );
}
