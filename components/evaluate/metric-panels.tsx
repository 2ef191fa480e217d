import { LevelBadge } from "@/components/recall/level-badge";
import { Notice } from "@/components/ui/notice";
import { panelClassName } from "@/components/ui/panel";
import { numericCellClassName } from "@/components/ui/table";
import type { EvalMetrics, MetricBlock } from "@/lib/eval/metrics";
import { LEVELS } from "@/lib/recall/confidence";
import { EvaluateTable } from "./evaluate-table";
import styles from "./evaluate.module.css";
import { ReliabilityChart } from "./reliability-chart";
import { fmt } from "./run-status";

/**
 * The headline metrics, each with the count it stands on. Triage is present vs off-topic, with
 * near-misses apart (lib/eval/README.md "Evaluation"): pooled, they hide how well the verdict
 * separates an answer from nothing at all.
 */
export function MetricsPanel({ metrics }: { metrics: EvalMetrics }) {
  const m = metrics;
  const v = m.verdict;
  const pvo = v.present_vs_off_topic;
  const items: [string, number | null, string][] = [
    ["balanced accuracy, present vs off-topic", pvo.balanced_accuracy, `${pvo.present} present / ${pvo.off_topic} off-topic`],
    [`AUC of the ${pvo.auc_of === "probability" ? "probability" : "top score"}, present vs off-topic`, pvo.auc, "ranking"],
    ...(v.near_miss
      ? ([["near-misses read worth reading", v.near_miss.worth_reading_rate, `${v.near_miss.count} near-misses, apart`]] as [
          string,
          number | null,
          string,
        ][])
      : []),
    ...(v.calibration
      ? ([["ECE (calibration error)", v.calibration.ece, `${v.calibration.count} present + off-topic`]] as [
          string,
          number | null,
          string,
        ][])
      : []),
    ["hit@1", m.hit_at_1, `${m.present} present`],
    ["hit@5", m.hit_at_5, `${m.present} present`],
    ["MRR", m.mrr, `${m.present} present`],
    [`nDCG@${m.k}`, m.ndcg, `${m.present} present`],
    [`recall@${m.k}`, m.recall_at_k, `${m.present} present`],
    ["triage accuracy (every kind)", m.triage_accuracy, `${m.present + m.absent} judged`],
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

/**
 * How far the store's probability can be trusted: the reliability diagram as a table
 * (predicted vs observed per bin) with its ECE, P(present | level) and points of the risk–coverage
 * curve. Present and off-topic queries only; nothing when the recalls carried no probability.
 */
export function CalibrationPanel({ metrics }: { metrics: EvalMetrics }) {
  const c = metrics.verdict.calibration;
  if (!c) return null;
  const bins = c.reliability.filter((b) => b.count > 0);
  const coverageAt = [0.25, 0.5, 0.75, 1].map((target) => c.risk_coverage.find((p) => p.coverage >= target) ?? null);
  return (
    <section className={`${panelClassName} ${styles.headings}`} aria-labelledby="calibration-h" data-testid="calibration">
      <h2 id="calibration-h">Is the probability true?</h2>
      <p className={styles.hint}>
        Present and off-topic queries: the store&apos;s predicted probability against how often something relevant was there. ECE{" "}
        {fmt(c.ece)}, Brier {fmt(c.brier)}. Near-misses are left out (see By kind).
      </p>
      <ReliabilityChart bins={c.reliability} ece={c.ece} />
      <EvaluateTable
        data-testid="reliability"
        columns={[
          "Predicted",
          { label: "Queries", numeric: true },
          { label: "Mean predicted", numeric: true },
          { label: "Observed rate", numeric: true },
        ]}
      >
        <tbody>
          {bins.map((b) => (
            <tr key={b.from}>
              <th scope="row">
                {b.from.toFixed(1)}–{b.to.toFixed(1)}
              </th>
              <td className={numericCellClassName}>{b.count}</td>
              <td className={numericCellClassName}>{fmt(b.mean_predicted, 2)}</td>
              <td className={numericCellClassName}>{fmt(b.observed_rate, 2)}</td>
            </tr>
          ))}
        </tbody>
      </EvaluateTable>
      <EvaluateTable
        data-testid="p-present-by-level"
        columns={["Level", { label: "Queries", numeric: true }, { label: "P(present | level)", numeric: true }]}
      >
        <tbody>
          {[...LEVELS].reverse().map((level) => (
            <tr key={level}>
              <th scope="row">
                <LevelBadge level={level} />
              </th>
              <td className={numericCellClassName}>{c.p_present_by_level[level].count}</td>
              <td className={numericCellClassName}>{fmt(c.p_present_by_level[level].present_rate, 2)}</td>
            </tr>
          ))}
        </tbody>
      </EvaluateTable>
      <EvaluateTable
        data-testid="risk-coverage"
        columns={[
          "Answered (most confident first)",
          { label: "Nothing relevant among them", numeric: true },
          { label: "From probability", numeric: true },
        ]}
      >
        <tbody>
          {coverageAt.map((p, i) =>
            p ? (
              <tr key={i}>
                <th scope="row">{Math.round(p.coverage * 100)}%</th>
                <td className={numericCellClassName}>{fmt(p.risk, 2)}</td>
                <td className={numericCellClassName}>{fmt(p.threshold, 2)}</td>
              </tr>
            ) : null,
          )}
        </tbody>
      </EvaluateTable>
    </section>
  );
}
