"use client";

import Link from "next/link";
import { useMemo } from "react";
import { buttonClassName } from "@/components/ui/button";
import { Notice } from "@/components/ui/notice";
import { pageStackClassName, panelClassName, panelColumnClassName } from "@/components/ui/panel";
import { ApiErrorText } from "@/components/ui/states";
import { prepareRocChart, prepareSignalDistribution } from "@/lib/charts/eval-report";
import { isFinished } from "@/lib/eval/run-schemas";
import { useCancelEvalRun, useEvalRun } from "@/lib/queries/use-eval";
import styles from "./evaluate.module.css";
import { ByKindPanel, CalibrationPanel, ConfusionPanel, MetricsPanel } from "./metric-panels";
import { QueryTable } from "./query-table";
import { RocChart, SignalDistributionChart } from "./report-charts";
import { RunStatus, settingsText } from "./run-status";

/**
 * The report of one run. While the run is queued or running the page polls it, so progress and
 * the metrics over the queries done so far update in place, and a reload finds it where it is.
 */
export function RunReportView({ id }: { id: string }) {
  const run = useEvalRun(id);
  const cancel = useCancelEvalRun(id);
  const report = run.data;
  const charts = useMemo(
    () =>
      report && {
        top: prepareSignalDistribution(report.items, "top_score", report.thresholds),
        prominence: prepareSignalDistribution(report.items, "prominence", report.thresholds),
        roc: prepareRocChart(report.items),
      },
    [report],
  );

  if (run.isPending) return <p role="status">Loading the run…</p>;
  if (run.isError || !report || !charts) {
    return (
      <section className={`${panelClassName} ${styles.headings}`}>
        <Notice tone="error">
          <ApiErrorText error={run.error} />
        </Notice>
        <p>
          <Link href="/evaluate">Back to Evaluate</Link>
        </p>
      </section>
    );
  }

  const running = !isFinished(report.status);
  return (
    <div className={pageStackClassName}>
      <section className={`${panelClassName} ${styles.headings}`} aria-label="Run">
        <div className={styles.row} style={{ justifyContent: "space-between" }}>
          <div className={`${panelColumnClassName} ${styles.headings}`} style={{ gap: 4 }}>
            <p style={{ margin: 0 }}>
              <strong>{report.dataset.name}</strong> · {settingsText(report.settings)}
            </p>
            <RunStatus run={report} />
          </div>
          <span className={styles.row} style={{ gap: 8 }}>
            {running ? (
              <button className={buttonClassName()} type="button" onClick={() => cancel.mutate()} disabled={cancel.isPending}>
                {cancel.isPending ? "Cancelling…" : "Cancel run"}
              </button>
            ) : null}
            <Link className={buttonClassName()} href="/evaluate">
              All runs
            </Link>
          </span>
        </div>
        {report.missing_ids?.checked && report.missing_ids.count ? (
          <Notice tone="warning" data-testid="missing-ids">
            {report.missing_ids.count} relevant id{report.missing_ids.count === 1 ? "" : "s"} of the set{" "}
            {report.missing_ids.count === 1 ? "is" : "are"} not in the store (they can never be found):{" "}
            <span className={styles.ids}>{report.missing_ids.ids.slice(0, 20).join(" ")}</span>
            {report.missing_ids.count > 20 ? " …" : ""}
          </Notice>
        ) : null}
        {report.missing_ids && !report.missing_ids.checked ? (
          <p className={styles.hint}>Whether the set&apos;s relevant ids exist in this remote store was not checked.</p>
        ) : null}
        {report.status === "interrupted" ? (
          <Notice tone="warning">
            The server stopped while this run was unfinished; the figures cover the queries it reached.
          </Notice>
        ) : null}
        {report.status === "cancelled" ? (
          <Notice tone="warning">Cancelled; the figures cover the queries it reached.</Notice>
        ) : null}
        {report.error ? <Notice tone="error">The run failed: {report.error.message}</Notice> : null}
        {cancel.isError ? (
          <Notice tone="error">
            Could not cancel the run: <ApiErrorText error={cancel.error} />
          </Notice>
        ) : null}
        {running ? <p className={styles.hint}>Figures update as queries finish.</p> : null}
      </section>
      <MetricsPanel metrics={report.metrics} />
      <div className={styles.grid2}>
        <SignalDistributionChart data={charts.top} title="Top score (raw cosine): present vs absent" />
        <SignalDistributionChart data={charts.prominence} title="Prominence: present vs absent" />
      </div>
      <div className={styles.grid2}>
        <RocChart data={charts.roc} />
        <ConfusionPanel block={report.metrics} />
      </div>
      <CalibrationPanel metrics={report.metrics} />
      <ByKindPanel metrics={report.metrics} />
      <QueryTable items={report.items} runId={report.id} />
    </div>
  );
}
