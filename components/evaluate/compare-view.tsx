"use client";

import Link from "next/link";
import { useSearchParams } from "next/navigation";
import { useMemo, useState } from "react";
import { LevelBadge } from "@/components/recall/level-badge";
import { Notice } from "@/components/ui/notice";
import { pageStackClassName, panelClassName } from "@/components/ui/panel";
import { ApiErrorText } from "@/components/ui/states";
import { numericCellClassName } from "@/components/ui/table";
import { compareRuns, type MetricDelta } from "@/lib/eval/compare";
import { useEvalRun } from "@/lib/queries/use-eval";
import { EvaluateTable } from "./evaluate-table";
import styles from "./evaluate.module.css";
import { fmt, fmtDelta, RunStatus, settingsText } from "./run-status";

/**
 * Two runs side by side (`?a=&b=`, A the older: the page orders them, lib/charts/compare-order.ts):
 * metric deltas B − A, per-query rank and level, flipped verdicts.
 */
export function CompareView() {
  const params = useSearchParams();
  const aId = params.get("a");
  const bId = params.get("b");
  const a = useEvalRun(aId);
  const b = useEvalRun(bId);
  const [onlyChanged, setOnlyChanged] = useState(true);
  const comparison = useMemo(() => (a.data && b.data ? compareRuns(a.data, b.data) : null), [a.data, b.data]);

  if (!aId || !bId) {
    return (
      <p className={styles.muted}>
        Pick two runs on <Link href="/evaluate">Evaluate</Link> to compare them.
      </p>
    );
  }
  if (a.isPending || b.isPending) return <p role="status">Loading both runs…</p>;
  if (a.isError || b.isError || !a.data || !b.data || !comparison) {
    return (
      <Notice tone="error">
        Could not load run {a.isError ? "A" : "B"}: <ApiErrorText error={a.error ?? b.error} />{" "}
        <Link href="/evaluate">Pick two runs on Evaluate</Link>.
      </Notice>
    );
  }
  const rows = onlyChanged
    ? comparison.rows.filter((r) => r.flipped || r.rank_a !== r.rank_b || r.level_a !== r.level_b)
    : comparison.rows;
  return (
    <div className={pageStackClassName}>
      <section className={`${panelClassName} ${styles.headings}`} aria-label="The two runs">
        {(["A", "B"] as const).map((label, i) => {
          const run = i === 0 ? a.data : b.data;
          return (
            <div key={label} className={styles.row} style={{ alignItems: "center" }}>
              <strong>{label}</strong>
              <span className={styles.small}>{i === 0 ? "baseline, the older" : "change, the newer"}</span>
              <Link href={`/evaluate/runs/${run.id}`}>{run.dataset.name}</Link>
              <span className={styles.small}>{settingsText(run.settings)}</span>
              <RunStatus run={run} />
            </div>
          );
        })}
        {!comparison.sameSet ? (
          <Notice tone="warning">These runs are over different sets; rows are matched by position only.</Notice>
        ) : null}
      </section>
      <section className={`${panelClassName} ${styles.headings}`} aria-labelledby="deltas-h">
        <h2 id="deltas-h">Metric deltas (B − A)</h2>
        <DeltaTable deltas={[...comparison.deltas, ...comparison.aucDeltas]} />
      </section>
      <section className={`${panelClassName} ${styles.headings}`} aria-labelledby="rows-h">
        <div className={styles.row} style={{ justifyContent: "space-between" }}>
          <h2 id="rows-h">
            Per query: <span data-testid="flipped-count">{comparison.flipped}</span> verdicts flipped, {comparison.rankChanged}{" "}
            ranks and {comparison.levelChanged} levels changed
          </h2>
          <label className={styles.small}>
            <input type="checkbox" checked={onlyChanged} onChange={(e) => setOnlyChanged(e.target.checked)} /> Only queries that
            changed
          </label>
        </div>
        {rows.length === 0 ? (
          <p className={styles.muted}>No query changed between the two runs.</p>
        ) : (
          <EvaluateTable
            data-testid="compare-table"
            columns={["#", "Query", "Kind", { label: "Rank A → B", numeric: true }, "Level A", "Level B", "Verdict"]}
          >
            <tbody>
              {rows.map((r) => (
                <tr key={r.position} data-flipped={r.flipped}>
                  <td className={numericCellClassName}>{r.position + 1}</td>
                  <td>{r.query}</td>
                  <td className={styles.small}>{r.kind ?? "—"}</td>
                  <td className={numericCellClassName}>
                    {r.present ? `${r.rank_a ?? "missed"} → ${r.rank_b ?? "missed"}` : "n/a"}
                  </td>
                  <td>
                    {r.recall_a ? (
                      <Link href={`/recalls/${r.recall_a}`}>
                        <LevelBadge level={r.level_a} />
                      </Link>
                    ) : (
                      "—"
                    )}
                  </td>
                  <td>
                    {r.recall_b ? (
                      <Link href={`/recalls/${r.recall_b}`}>
                        <LevelBadge level={r.level_b} />
                      </Link>
                    ) : (
                      "—"
                    )}
                  </td>
                  <td className={styles.small}>
                    {r.flipped ? (
                      <span className={r.flip_correct ? styles.positive : styles.negative}>
                        flipped to {r.verdict_b === "worth_reading" ? "worth reading" : "go external"} (
                        {r.flip_correct ? "now right" : "now wrong"})
                      </span>
                    ) : (
                      "same"
                    )}
                  </td>
                </tr>
              ))}
            </tbody>
          </EvaluateTable>
        )}
      </section>
    </div>
  );
}

function DeltaTable({ deltas }: { deltas: MetricDelta[] }) {
  return (
    <EvaluateTable
      data-testid="delta-table"
      columns={["Metric", { label: "A", numeric: true }, { label: "B", numeric: true }, { label: "B − A", numeric: true }]}
    >
      <tbody>
        {deltas.map((d) => (
          <tr key={d.key}>
            <th scope="row">{d.label}</th>
            <td className={numericCellClassName}>{fmt(d.a)}</td>
            <td className={numericCellClassName}>{fmt(d.b)}</td>
            <td
              className={`${numericCellClassName} ${d.delta && d.delta > 0 ? styles.positive : d.delta && d.delta < 0 ? styles.negative : ""}`}
            >
              {fmtDelta(d.delta)}
            </td>
          </tr>
        ))}
      </tbody>
    </EvaluateTable>
  );
}
