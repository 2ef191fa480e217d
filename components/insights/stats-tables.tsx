"use client";

/** The stats tables per store, per selector model and per bucket: one `StatsTable` each (render-only). */
import Link from "next/link";
import { countOf } from "@/lib/format";
import { bucketLabel } from "@/lib/insights/format";
import { judgeShortName, type JudgeKey } from "@/lib/insights/judges";
import { drill, type DrillScope } from "@/lib/insights/links";
import type { InsightsResponse } from "@/lib/insights/schema";
import styles from "./insights.module.css";
import { Section, StatsTable } from "./table-parts";

export function StoreTable({ rows, scope }: { rows: InsightsResponse["by_store"]; scope: DrillScope }) {
  return (
    <Section title="By store" testId="by-store">
      {rows.length === 0 ? (
        <p className={styles.tableEmpty}>No recalls in this range.</p>
      ) : (
        <StatsTable
          rows={rows}
          columns={["recalls", "applied_rate", "drop_rate", "lost_any", "verdict_weak_hits", "weak_hits"]}
          heads={{ weak_hits: "Weak hits, reference rules" }}
          showNoneFailed
          rowProps={(row) => ({ key: row.store, "data-testid": "store-row", "data-store": row.store })}
          first={{
            head: "Store",
            cell: (row) => (
              <Link
                className={styles.cellLink}
                href={drill.store(scope, row.store)}
                title={`Open the recalls of ${row.store} in History`}
              >
                {row.store}
              </Link>
            ),
          }}
        />
      )}
    </Section>
  );
}

export function ModelTable({ rows, scope }: { rows: InsightsResponse["by_model"]; scope: DrillScope }) {
  return (
    <Section title="By selector model" testId="by-model">
      {rows.length === 0 ? (
        <p className={styles.tableEmpty}>No selector ran or tried to run on any recall in this range.</p>
      ) : (
        <StatsTable
          rows={rows}
          columns={["ran_on", "drop_rate", "failure_rate", "lost_any", "verdict_weak_hits", "weak_hits"]}
          heads={{ weak_hits: "Weak hits, reference rules" }}
          rowProps={(row) => ({
            key: row.selector_model ?? "(none)",
            "data-testid": "model-row",
            "data-model": row.selector_model ?? "",
          })}
          first={{
            head: "Model",
            cell: (row) => (
              <Link
                className={styles.cellLink}
                href={drill.model(scope, row.selector_model)}
                title={
                  row.selector_model
                    ? `Open the recalls ${row.selector_model} ran on in History`
                    : "History cannot filter by a missing model: this opens every recall the selector ran on"
                }
              >
                {row.selector_model ?? "(model not stated)"}
              </Link>
            ),
          }}
        />
      )}
    </Section>
  );
}

/**
 * The series as a table: the charts' text alternative, and a drill-down per bucket. Its weak hits
 * are counted by the level chart's judge (`data` is the answer under it, lib/insights/judges.ts).
 */
export function BucketTable({ data, scope, judge }: { data: InsightsResponse; scope: DrillScope; judge: JudgeKey }) {
  const rows = data.series.filter((p) => p.recalls > 0);
  return (
    <details className={styles.details} data-testid="bucket-table">
      <summary>
        Every {data.bucket} as a table ({countOf(rows.length, `${data.bucket} with recalls`, `${data.bucket}s with recalls`)})
      </summary>
      {rows.length === 0 ? (
        <p className={styles.tableEmpty}>No bucket has recalls.</p>
      ) : (
        <StatsTable
          rows={rows}
          columns={["recalls", "applied_rate", "drop_rate", "lost_any", "weak_hits"]}
          heads={{ weak_hits: `Weak hits, ${judgeShortName(judge)}` }}
          rowProps={(p) => ({ key: p.local_start, "data-testid": "bucket-row", "data-bucket": p.local_start })}
          first={{
            head: data.bucket === "week" ? "Week" : data.bucket === "day" ? "Day" : "Hour",
            cell: (p) => (
              <>
                <Link className={styles.cellLink} href={drill.bucket(scope, p.start, p.end)}>
                  {bucketLabel(p.local_start, data.bucket)}
                </Link>
                {p.partial ? <span className={styles.partialMark}>(part)</span> : null}
              </>
            ),
          }}
        />
      )}
    </details>
  );
}
