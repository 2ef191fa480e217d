"use client";

/**
 * The pieces every Insights table is built from: a panel section, a rate cell with the counts
 * under it, and `StatsTable` — the one table of stats rows (per store, per model, per bucket),
 * parametrised by its first column and the stat columns it shows.
 */
import type { ReactNode } from "react";
import { formatCount, formatPercent } from "@/lib/format";
import type { InsightStats } from "@/lib/insights/schema";
import styles from "./insights.module.css";

/** "70% (7 of 10)", or "—" with nothing under it. */
export function RateCell({ share, num, den }: { share: number | null; num: number; den: number }) {
  return (
    <td className={styles.num}>
      {formatPercent(share)}
      <span className={styles.sub}>{den > 0 ? `${formatCount(num)} of ${formatCount(den)}` : "no data"}</span>
    </td>
  );
}

export function Section({
  title,
  testId,
  aside,
  children,
}: {
  title: string;
  testId: string;
  aside?: ReactNode;
  children: ReactNode;
}) {
  return (
    <section className={`panel ${styles.panel}`} data-testid={testId} aria-label={title}>
      <div className={styles.sectionHead}>
        <h2 className={styles.sectionTitle}>{title}</h2>
        {aside}
      </div>
      {children}
    </section>
  );
}

/** The stat columns a stats table can show, each with its heading and its cell. */
const STAT_COLUMNS = {
  recalls: {
    head: "Recalls",
    cell: (row: InsightStats, showNoneFailed: boolean) => (
      <td className={styles.num}>
        {formatCount(row.recalls)}
        {row.failed > 0 ? (
          <span className={styles.sub}>{formatCount(row.failed)} failed</span>
        ) : showNoneFailed ? (
          <span className={styles.sub}>none failed</span>
        ) : null}
      </td>
    ),
  },
  applied_rate: {
    head: "Selector ran",
    cell: (row: InsightStats) => <RateCell share={row.applied_rate} num={row.applied} den={row.ok} />,
  },
  ran_on: { head: "Ran on", cell: (row: InsightStats) => <td className={styles.num}>{formatCount(row.applied)}</td> },
  drop_rate: {
    head: "Drop rate",
    cell: (row: InsightStats) => <RateCell share={row.drop_rate} num={row.dropped} den={row.kept + row.dropped} />,
  },
  failure_rate: {
    head: "Failure rate",
    cell: (row: InsightStats) => <RateCell share={row.failure_rate} num={row.selector_failed} den={row.tried} />,
  },
  lost_any: {
    head: "Lost ≥ 1",
    cell: (row: InsightStats) => <RateCell share={row.lost_any_rate} num={row.lost_any} den={row.applied} />,
  },
  weak_hits: {
    head: "Weak hits",
    cell: (row: InsightStats) => (
      <RateCell share={row.weak_hit_rate} num={row.none + row.low} den={row.high + row.moderate + row.low + row.none} />
    ),
  },
} as const;
export type StatColumn = keyof typeof STAT_COLUMNS;

export interface StatsTableProps<R extends InsightStats> {
  rows: readonly R[];
  /** The first column: its heading and each row's cell (a link into History). */
  first: { head: string; cell: (row: R) => ReactNode };
  columns: readonly StatColumn[];
  /** The row's key and its data-* attributes (what tests and drill-downs find it by). */
  rowProps: (row: R) => { key: string } & Record<`data-${string}`, string>;
  /** "none failed" under a count with no failure (the per-store table says it; buckets do not). */
  showNoneFailed?: boolean;
}

export function StatsTable<R extends InsightStats>({
  rows,
  first,
  columns,
  rowProps,
  showNoneFailed = false,
}: StatsTableProps<R>) {
  return (
    <div className={styles.tableScroll}>
      <table className={styles.table}>
        <thead>
          <tr>
            <th scope="col">{first.head}</th>
            {columns.map((c) => (
              <th key={c} scope="col" className={styles.num}>
                {STAT_COLUMNS[c].head}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {rows.map((row) => {
            const { key, ...data } = rowProps(row);
            return (
              <tr key={key} {...data}>
                <td>{first.cell(row)}</td>
                {columns.map((c) => (
                  <StatCell key={c} column={c} row={row} showNoneFailed={showNoneFailed} />
                ))}
              </tr>
            );
          })}
        </tbody>
      </table>
    </div>
  );
}

function StatCell({ column, row, showNoneFailed }: { column: StatColumn; row: InsightStats; showNoneFailed: boolean }) {
  return STAT_COLUMNS[column].cell(row, showNoneFailed);
}
