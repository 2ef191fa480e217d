"use client";

/** Why the selector did not apply, and the memories it dropped most often (render-only). */
import Link from "next/link";
import { panelNoteClassName } from "@/components/ui/panel";
import { cellNoteClassName, numericCellClassName } from "@/components/ui/table";
import { countOf, formatCount, formatPercent, shortenId } from "@/lib/format";
import { drill, type DrillScope } from "@/lib/insights/links";
import type { InsightsResponse, InsightStats } from "@/lib/insights/schema";
import { selectorReasonKindLabel, selectorReasonLabel } from "@/lib/recall/selector-reasons";
import styles from "./insights.module.css";
import { InsightsTable, Section } from "./table-parts";

export function ReasonTable({
  rows,
  totals,
  scope,
}: {
  rows: InsightsResponse["not_applied_reasons"];
  totals: InsightStats;
  scope: DrillScope;
}) {
  // "Off by choice" is nobody's failure: it is kept apart from the reasons a selector did not apply.
  const off = rows.filter((row) => row.kind === "off");
  const rest = rows.filter((row) => row.kind !== "off");
  const offCount = off.reduce((n, row) => n + row.recalls, 0);
  return (
    <Section
      title="Why the selector did not apply"
      testId="reasons"
      aside={
        <span className={`${styles.small} ${styles.muted}`}>
          {formatCount(totals.not_applied)} of {countOf(totals.ok, "recall")}
        </span>
      }
    >
      {rows.length === 0 ? (
        <p className={styles.tableEmpty}>The selector ran on every recall that did not fail.</p>
      ) : (
        <>
          {rest.length > 0 ? (
            <InsightsTable columns={["Reason", "Kind", { label: "Recalls", numeric: true }, { label: "Share", numeric: true }]}>
              <tbody>
                {rest.map((row) => (
                  <tr key={row.reason ?? "(none)"} data-testid="reason-row" data-reason={row.reason ?? ""} data-kind={row.kind}>
                    <td>
                      <Link
                        className={styles.cellLink}
                        href={drill.reason(scope, row.reason)}
                        title="Open these recalls in History"
                      >
                        {selectorReasonLabel(row.reason)}
                      </Link>
                      {row.reason ? <span className={`${cellNoteClassName} ${styles.mono}`}>{row.reason}</span> : null}
                    </td>
                    <td>{selectorReasonKindLabel(row.kind)}</td>
                    <td className={numericCellClassName}>{formatCount(row.recalls)}</td>
                    <td className={numericCellClassName}>{formatPercent(row.share)}</td>
                  </tr>
                ))}
              </tbody>
            </InsightsTable>
          ) : (
            <p className={styles.tableEmpty}>Whenever a selector was asked for, it ran.</p>
          )}
          {off.length > 0 ? (
            <p className={panelNoteClassName} data-testid="reason-off">
              Off by choice (no selector asked for):{" "}
              <Link href={drill.reason(scope, "disabled")} data-testid="reason-row" data-reason="disabled" data-kind="off">
                {countOf(offCount, "recall")}
              </Link>
              , not a failure.
            </p>
          ) : null}
        </>
      )}
    </Section>
  );
}

export function DroppedTable({ data, scope }: { data: InsightsResponse["most_dropped"]; scope: DrillScope }) {
  return (
    <Section title="Memories dropped most often" testId="most-dropped">
      {data.items.length === 0 ? (
        <p className={styles.tableEmpty}>The selector dropped no listed memory in this range.</p>
      ) : (
        <InsightsTable
          columns={[
            "Memory",
            "Store",
            { label: "Dropped", numeric: true },
            { label: "Kept", numeric: true },
            { label: "Drop share", numeric: true },
          ]}
        >
          <tbody>
            {data.items.map((row) => (
              <tr
                key={`${row.store}\u0000${row.memory_id}`}
                data-testid="dropped-row"
                data-memory-id={row.memory_id}
                data-store={row.store}
              >
                <td className={styles.queryCell}>
                  <Link
                    className={styles.cellLink}
                    href={drill.droppedMemory(scope, row.store, row.memory_id)}
                    title="Open the recalls that dropped this memory in History"
                  >
                    <span className={styles.ellipsis}>{row.summary ?? "(summary unknown)"}</span>
                  </Link>
                  <span className={`${cellNoteClassName} ${styles.mono}`} title={row.memory_id}>
                    {shortenId(row.memory_id, 28, 18, 8)}
                  </span>
                </td>
                <td>{row.store}</td>
                <td className={numericCellClassName} data-testid="dropped-count">
                  {formatCount(row.dropped)}
                </td>
                <td className={numericCellClassName} data-testid="kept-count">
                  {formatCount(row.kept)}
                </td>
                <td className={numericCellClassName}>{formatPercent(row.drop_share)}</td>
              </tr>
            ))}
          </tbody>
        </InsightsTable>
      )}
      <p className={panelNoteClassName} data-testid="cap-note">
        Counted from each recall’s list of dropped ids, which stops at 20, so a memory can be dropped more often than shown
        {data.unlisted_drops > 0 ? <> ({countOf(data.unlisted_drops, "drop")} in this range are not itemized)</> : null}. Kept =
        the selector ran, the memory was on the page and stayed.
      </p>
    </Section>
  );
}
