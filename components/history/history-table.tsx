"use client";

import Link from "next/link";
import { useRouter } from "next/navigation";
import type { MouseEvent, ReactNode } from "react";
import { LevelBadge } from "@/components/recall/level-badge";
import { Badge } from "@/components/ui/badge";
import { shownColumns, type ColumnChoice, type HiddenColumns } from "@/components/ui/column-visibility";
import { DataTable, numericCellClassName, type DataTableColumn } from "@/components/ui/table";
import { formatNumber, formatScore, MISSING } from "@/lib/format";
import { selectorReasonKind, selectorReasonKindLabel, selectorReasonLabel } from "@/lib/recall/selector-reasons";
import { selectorReasonText, topScoreLabel, topScoreUnit } from "@/lib/recall-log/format";
import type { HistoryItem } from "@/lib/recall-log/history";
import { presentWord } from "@/lib/recall-log/labels";
import { verdictCell } from "./history-verdict";
import styles from "./history.module.css";

const dateFormat = new Intl.DateTimeFormat(undefined, { dateStyle: "medium" });
const clockFormat = new Intl.DateTimeFormat(undefined, { timeStyle: "medium" });

export function recallHref(id: string): string {
  return `/recalls/${encodeURIComponent(id)}`;
}

export type HistoryColumnId =
  "time" | "store" | "query" | "level" | "top" | "prominence" | "mode" | "results" | "selector" | "latency" | "label";

/** The table's columns in order, as the "Columns" control lists them; the query is the row's link and always shown. */
export const HISTORY_COLUMNS: readonly ColumnChoice<HistoryColumnId>[] = [
  { id: "time", label: "Time" },
  { id: "store", label: "Store" },
  { id: "query", label: "Query", required: true },
  { id: "level", label: "Verdict" },
  { id: "top", label: "Top score" },
  { id: "prominence", label: "Prominence" },
  { id: "mode", label: "Mode · k" },
  { id: "results", label: "Results" },
  { id: "selector", label: "Selector" },
  { id: "latency", label: "Latency" },
  { id: "label", label: "Label" },
];

/** What the selector column says: counts when it ran, "off" or why not when it did not. */
export function selectorCell(item: HistoryItem): { text: string; title: string; dropped: boolean; model: string | null } {
  if (item.status === "error")
    return { text: MISSING, title: "The recall failed; no selector ran.", dropped: false, model: null };
  if (item.selector_applied) {
    const kept = item.selector_kept ?? null;
    const dropped = item.selector_dropped ?? null;
    const model = item.selector_model ? `Selector ${item.selector_model}` : "The selector";
    return {
      text: `${kept ?? "?"} kept · ${dropped ?? "?"} dropped`,
      title: `${model} kept ${kept ?? "an unknown number of"} and dropped ${dropped ?? "an unknown number of"} results.`,
      dropped: (dropped ?? 0) > 0,
      model: item.selector_model,
    };
  }
  const reason = item.selector_reason;
  if (reason === "disabled" || reason === "off")
    return { text: "off", title: selectorReasonText(reason), dropped: false, model: null };
  // An ingested recall may state neither; that is unknown, not "off".
  if (reason === null || reason.trim() === "") {
    return { text: "not run", title: selectorReasonText(null), dropped: false, model: null };
  }
  const kind = selectorReasonKind(reason);
  const words =
    kind === "unknown" ? reason : `${selectorReasonKindLabel(kind).toLowerCase()}: ${selectorReasonLabel(reason).toLowerCase()}`;
  // A model that was asked and failed is still named (selector truth logs it).
  return { text: words, title: `${selectorReasonText(reason)} (reason: ${reason})`, dropped: false, model: item.selector_model };
}

/** The label column: the present label, and how many memories were marked either way. */
export function labelCell(item: HistoryItem): { text: string; title: string } {
  if (!item.labeled_at) return { text: MISSING, title: "Not labeled" };
  const counts = `${item.label_relevant.length} relevant, ${item.label_not_relevant.length} not relevant`;
  const text =
    item.label_present === "yes"
      ? "present"
      : item.label_present === "no"
        ? "absent"
        : item.label_present === "unsure"
          ? "unsure"
          : "rows only";
  return { text, title: `${presentWord(item.label_present)}; ${counts}${item.labeler ? `; by ${item.labeler}` : ""}` };
}

interface Selection {
  selected: ReadonlySet<string>;
  onToggle: (item: HistoryItem) => void;
  onToggleAll: (items: HistoryItem[], select: boolean) => void;
}

function HistoryRow({
  item,
  selection,
  shown,
  storeDeleted,
}: {
  item: HistoryItem;
  selection?: Selection | undefined;
  shown: readonly HistoryColumnId[];
  /** The recall's store was an embedded store that has been deleted since. */
  storeDeleted: boolean;
}) {
  const router = useRouter();
  const href = recallHref(item.id);
  const failed = item.status === "error";
  const selector = selectorCell(item);
  const created = new Date(item.created_at);
  const label = labelCell(item);
  const verdict = verdictCell(item);
  const top = topScoreLabel(item.top_score, topScoreUnit(item.basis, item.search_mode, item.degraded));

  // The query cell's link is the keyboard and assistive-technology target; a click anywhere else
  // on the row goes to the same place for the mouse (but not while selecting text).
  const onClick = (event: MouseEvent<HTMLTableRowElement>) => {
    if (event.defaultPrevented || event.button !== 0 || event.metaKey || event.ctrlKey || event.shiftKey || event.altKey) return;
    if ((event.target as HTMLElement).closest("a, button, input, select, textarea")) return;
    if (window.getSelection()?.toString()) return;
    router.push(href);
  };

  // One cell per column, written in the table's order; the row shows those not hidden.
  const cells: Record<HistoryColumnId, ReactNode> = {
    time: (
      <td key="time" className={`${styles.secondary} ${styles.timeCell}`}>
        {/* Date over time: two short lines leave the width to the query. */}
        <time dateTime={item.created_at} title={item.created_at}>
          <span>{dateFormat.format(created)}</span> <span>{clockFormat.format(created)}</span>
        </time>
      </td>
    ),
    store: (
      <td key="store" className={`${styles.storeCell} ${styles.secondary}`}>
        <span className={styles.store} title={item.store}>
          {item.store}
        </span>
        {storeDeleted ? (
          <Badge tone="warning" className={styles.rowBadge} title="This store was deleted; the recall stays in the log">
            deleted store
          </Badge>
        ) : null}
        {item.source === "ingest" ? (
          <Badge className={styles.rowBadge} title="Captured elsewhere and ingested">
            ingested
          </Badge>
        ) : item.source === "eval" ? (
          <Badge className={styles.rowBadge} title="Made by an evaluation run">
            eval
          </Badge>
        ) : item.source === "proxy" ? (
          <Badge className={styles.rowBadge} title="Captured by the recall proxy (/proxy/{store})">
            proxy
          </Badge>
        ) : item.source === "otel" ? (
          <Badge
            className={styles.rowBadge}
            title={item.trace_id ? `From an OpenTelemetry span of trace ${item.trace_id}` : "From an OpenTelemetry span"}
          >
            otel
          </Badge>
        ) : null}
      </td>
    ),
    query: (
      <td key="query" className={styles.queryCell}>
        <Link href={href} className={styles.queryLink} title={item.query} data-testid="history-query">
          {item.query}
        </Link>
      </td>
    ),
    level: (
      <td
        key="level"
        className={styles.levelCell}
        title={verdict.title}
        data-testid="history-verdict-cell"
        data-by={verdict.by}
        data-caption="verdict"
      >
        <LevelBadge level={verdict.level} />
        {verdict.probability ? (
          <span className={styles.probability} data-testid="history-verdict-probability">
            {verdict.probability}
          </span>
        ) : null}
        {verdict.note ? (
          <span className={styles.referenceNote} data-testid="history-reference-level">
            {verdict.note}
          </span>
        ) : null}
        {failed ? (
          <Badge tone="danger" className={styles.rowBadge} title="The store failed; the detail page says how">
            failed
          </Badge>
        ) : !item.has_candidates ? (
          <Badge
            className={styles.rowBadge}
            title="No candidate pool was recorded, so the score distribution cannot be drawn"
            data-testid="no-pool"
          >
            no pool
          </Badge>
        ) : null}
      </td>
    ),
    top: (
      <td
        key="top"
        className={numericCellClassName}
        title={top.title}
        data-testid="history-top-score"
        data-unit={top.unit}
        data-caption="top"
      >
        {top.value}
        {top.unit ? <span className={styles.unit}> {top.unit}</span> : null}
      </td>
    ),
    prominence: (
      <td key="prominence" className={`${numericCellClassName} ${styles.secondary}`} data-caption="prominence">
        {formatScore(item.prominence)}
      </td>
    ),
    mode: (
      <td key="mode" className={`${styles.modeCell} ${styles.secondary}`} data-testid="history-mode">
        <span>{item.search_mode} ·</span> <span>k {item.k}</span>
      </td>
    ),
    results: (
      <td key="results" className={`${numericCellClassName} ${styles.secondary}`} data-caption="results">
        {failed ? MISSING : item.returned_count}
      </td>
    ),
    selector: (
      <td
        key="selector"
        className={styles.selectorCell}
        title={selector.title}
        data-testid="history-selector"
        data-caption="selector"
      >
        <span className={selector.dropped ? styles.dropped : selector.text === "off" ? styles.muted : undefined}>
          {selector.text}
        </span>
        {selector.model ? <span className={styles.subline}>{selector.model}</span> : null}
      </td>
    ),
    latency: (
      <td key="latency" className={`${numericCellClassName} ${styles.nowrap} ${styles.secondary}`} data-caption="latency">
        {/* Tenths only where they matter: "1235 ms" leaves the width to the query. */}
        {item.latency_ms === null ? MISSING : `${formatNumber(item.latency_ms, item.latency_ms >= 100 ? 0 : 1)} ms`}
      </td>
    ),
    label: (
      <td
        key="label"
        className={`${styles.nowrap} ${styles.secondary}`}
        title={label.title}
        data-testid="history-label"
        data-caption="label"
        data-label={item.label_present ?? (item.labeled_at ? "rows" : "none")}
      >
        <span className={item.labeled_at ? undefined : styles.muted}>{label.text}</span>
      </td>
    ),
  };

  return (
    <tr data-testid="history-row" data-recall-id={item.id} data-status={item.status} className={styles.row} onClick={onClick}>
      {selection ? (
        <td className={styles.selectCell}>
          <input
            type="checkbox"
            checked={selection.selected.has(item.id)}
            onChange={() => selection.onToggle(item)}
            aria-label={`Select recall: ${item.query}`}
            data-testid="history-select"
          />
        </td>
      ) : null}
      {shown.map((id) => cells[id])}
    </tr>
  );
}

/** The heading of each column (its label is HISTORY_COLUMNS' label, as the "Columns" control names it). */
const HEADINGS: Record<HistoryColumnId, DataTableColumn> = {
  time: { label: "Time", className: styles.secondary },
  store: { label: "Store", className: styles.secondary },
  query: "Query",
  level: {
    label: "Verdict",
    title:
      "The store's verdict: the level its threshold profile gave when the recall was logged, with the calibrated probability that something relevant is stored where the profile has a verdict model; beside it, the reference rules' level (what the agent saw). Without a profile the verdict is the reference level.",
  },
  top: {
    label: "Top score",
    numeric: true,
    title: "The best candidate's score, with its scale: cos = raw cosine, BM25 = raw keyword score, hyb = hybrid score",
  },
  prominence: { label: "Prominence", numeric: true, className: styles.secondary },
  mode: { label: "Mode · k", className: styles.secondary, title: "Search mode and k (results asked for)" },
  results: { label: "Results", numeric: true, className: styles.secondary, title: "Results on the returned page" },
  selector: { label: "Selector", title: "Kept and dropped by the selector, and its model" },
  latency: { label: "Latency", numeric: true, className: styles.secondary },
  label: {
    label: "Label",
    className: styles.secondary,
    title: "Relevance label: present (a relevant memory was there), absent, unsure",
  },
};

/** The logged recalls, one a row, without the columns in `hidden` (the query always shows). */
export function HistoryTable({
  items,
  busy,
  selection,
  hidden = new Set(),
  deletedStores = new Set(),
}: {
  items: HistoryItem[];
  busy: boolean;
  selection?: Selection;
  hidden?: HiddenColumns<HistoryColumnId>;
  /** Stores of these rows that were deleted since (GET /api/recalls `deleted_stores`). */
  deletedStores?: ReadonlySet<string>;
}) {
  const shown = shownColumns(hidden, HISTORY_COLUMNS);
  const allSelected = selection !== undefined && items.length > 0 && items.every((i) => selection.selected.has(i.id));
  const columns: DataTableColumn[] = [
    ...(selection
      ? [
          {
            key: "select",
            className: styles.selectCell,
            label: (
              <input
                type="checkbox"
                checked={allSelected}
                onChange={() => selection.onToggleAll(items, !allSelected)}
                aria-label={allSelected ? "Unselect the recalls shown" : "Select the recalls shown"}
                data-testid="history-select-all"
              />
            ),
          },
        ]
      : []),
    ...shown.map((id) => HEADINGS[id]),
  ];
  return (
    <DataTable
      className={styles.table}
      data-testid="history-table"
      busy={busy}
      bleed
      columns={columns}
      caption="Logged recalls, newest first. Each query opens the recall."
      captionHidden
    >
      <tbody>
        {items.map((item) => (
          <HistoryRow
            key={item.id}
            item={item}
            selection={selection}
            shown={shown}
            storeDeleted={deletedStores.has(item.store)}
          />
        ))}
      </tbody>
    </DataTable>
  );
}
