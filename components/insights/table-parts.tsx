"use client";

/**
 * The pieces every Insights table is built from: a panel section, a rate cell with the counts
 * under it, and `StatsTable` — the one table of stats rows (per store, per model, per bucket),
 * parametrised by its first column and the stat columns it shows.
 */
import type { ReactNode } from "react";
import { PanelHead, panelClassName } from "@/components/ui/panel";
import { cellNoteClassName, DataTable, numericCellClassName, type DataTableProps } from "@/components/ui/table";
import { formatCount, formatPercent } from "@/lib/format";
import type { InsightStats, VerdictCounts } from "@/lib/insights/schema";

/** "70% (7 of 10)", or "—" with nothing under it. */
export function RateCell({ share, num, den }: { share: number | null; num: number; den: number }) {
  return (
    <td className={numericCellClassName}>
      {formatPercent(share)}
      <span className={cellNoteClassName}>{den > 0 ? `${formatCount(num)} of ${formatCount(den)}` : "no data"}</span>
    </td>
  );
}

/** Every Insights table: a DataTable whose cells align to their top line (most have a second line) and light up under the pointer. */
export function InsightsTable(props: Omit<DataTableProps, "alignTop" | "hoverRows">) {
  return <DataTable alignTop hoverRows {...props} />;
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
    <section className={panelClassName} data-testid={testId} aria-label={title}>
      <PanelHead title={title} aside={aside} />
      {children}
    </section>
  );
}

/** A row of a stats table: the counters, and the store's verdict's levels where the answer gives them. */
type StatsRow = InsightStats & { verdict?: VerdictCounts };

/** The stat columns a stats table can show, each with its heading and its cell. */
const STAT_COLUMNS = {
  recalls: {
    head: "Recalls",
    cell: (row: InsightStats, showNoneFailed: boolean) => (
      <td className={numericCellClassName}>
        {formatCount(row.recalls)}
        {row.failed > 0 ? (
          <span className={cellNoteClassName}>{formatCount(row.failed)} failed</span>
        ) : showNoneFailed ? (
          <span className={cellNoteClassName}>none failed</span>
        ) : null}
      </td>
    ),
  },
  applied_rate: {
    head: "Selector ran",
    cell: (row: InsightStats) => <RateCell share={row.applied_rate} num={row.applied} den={row.ok} />,
  },
  ran_on: { head: "Ran on", cell: (row: InsightStats) => <td className={numericCellClassName}>{formatCount(row.applied)}</td> },
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
  /** The weak hits by the store's verdict, where the row carries it (per store, per model). */
  verdict_weak_hits: {
    head: "Weak hits, store's verdict",
    cell: (row: StatsRow) => {
      const v = row.verdict;
      return v ? (
        <RateCell share={v.weak_hit_rate} num={v.none + v.low} den={v.high + v.moderate + v.low + v.none} />
      ) : (
        <td className={numericCellClassName}>{formatPercent(null)}</td>
      );
    },
  },
} as const;
export type StatColumn = keyof typeof STAT_COLUMNS;

export interface StatsTableProps<R extends StatsRow> {
  rows: readonly R[];
  /** The first column: its heading and each row's cell (a link into History). */
  first: { head: string; cell: (row: R) => ReactNode };
  columns: readonly StatColumn[];
  /** The row's key and its data-* attributes (what tests and drill-downs find it by). */
  rowProps: (row: R) => { key: string } & Record<`data-${string}`, string>;
  /** "none failed" under a count with no failure (the per-store table says it; buckets do not). */
  showNoneFailed?: boolean;
  /** Headings other than the columns' own (e.g. which judge the weak hits are counted by). */
  heads?: Partial<Record<StatColumn, string>>;
}

export function StatsTable<R extends StatsRow>({
  rows,
  first,
  columns,
  rowProps,
  showNoneFailed = false,
  heads = {},
}: StatsTableProps<R>) {
  return (
    <InsightsTable
      columns={[first.head, ...columns.map((c) => ({ key: c, label: heads[c] ?? STAT_COLUMNS[c].head, numeric: true }))]}
    >
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
    </InsightsTable>
  );
}

function StatCell({ column, row, showNoneFailed }: { column: StatColumn; row: StatsRow; showNoneFailed: boolean }) {
  return STAT_COLUMNS[column].cell(row, showNoneFailed);
}
