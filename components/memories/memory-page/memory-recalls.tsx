"use client";

import Link from "next/link";
import type { ReactNode } from "react";
import { LevelBadge } from "@/components/recall/level-badge";
import { ColumnPicker, useHiddenColumns } from "@/components/ui/column-picker";
import { shownColumns, type ColumnChoice } from "@/components/ui/column-visibility";
import { LoadMore } from "@/components/ui/paged-list";
import { panelTitleClassName } from "@/components/ui/panel";
import { EmptyState, ErrorState, LoadingState } from "@/components/ui/states";
import { DataTable, numericCellClassName, type DataTableColumn } from "@/components/ui/table";
import { formatScore, plural } from "@/lib/format";
import { useMemoryRecalls } from "@/lib/queries/use-memory-page";
import type { MemoryRecallCounts, MemoryRecallFilter, MemoryRecallRow } from "@/lib/recall-log/memory-usage-schema";
import styles from "./memory-page.module.css";

const dateFormat = new Intl.DateTimeFormat(undefined, { dateStyle: "medium", timeStyle: "short" });

const FILTER_WORDS: Record<MemoryRecallFilter, string> = {
  appeared: "every recall it appeared in",
  returned: "recalls that returned it",
  dropped: "recalls whose selector dropped it",
  relevant: "recalls where it was labeled relevant",
};

/** The counts, each a filter of the list below (the pressed one is the list shown). */
function Counts({
  counts,
  show,
  onShow,
}: {
  counts: MemoryRecallCounts;
  show: MemoryRecallFilter;
  onShow: (show: MemoryRecallFilter) => void;
}) {
  const kept = counts.returned - counts.dropped;
  const recalls = (n: number) => (n === 1 ? "recall" : "recalls");
  const items: { key: MemoryRecallFilter; value: number; label: string; note?: string }[] = [
    {
      key: "appeared",
      value: counts.appeared,
      label: `${recalls(counts.appeared)} it appeared in`,
      note: `${counts.in_pool.toLocaleString("en-US")} in the confidence pool`,
    },
    {
      key: "returned",
      value: counts.returned,
      label: `${recalls(counts.returned)} that returned it`,
      note: `${kept.toLocaleString("en-US")} kept on the page`,
    },
    { key: "dropped", value: counts.dropped, label: `${recalls(counts.dropped)} whose selector dropped it` },
    {
      key: "relevant",
      value: counts.labeled_relevant,
      label: `${recalls(counts.labeled_relevant)} that labeled it relevant`,
      note: `${counts.labeled_irrelevant.toLocaleString("en-US")} labeled not relevant`,
    },
  ];
  return (
    <ul className={styles.counts} aria-label="How often this memory took part (choose one to list those recalls)">
      {items.map((item) => (
        <li key={item.key}>
          <button
            type="button"
            className={styles.count}
            aria-pressed={show === item.key}
            onClick={() => onShow(item.key)}
            data-testid={`memory-count-${item.key}`}
          >
            <span className={styles.countValue}>{item.value.toLocaleString("en-US")}</span>
            <span className={styles.countLabel}>{item.label}</span>
            {item.note ? <span className={styles.countNote}>{item.note}</span> : null}
          </button>
        </li>
      ))}
    </ul>
  );
}

function Fate({ row }: { row: MemoryRecallRow }) {
  if (row.dropped) return <span className={`${styles.fate} ${styles.fateDropped}`}>⊘ Dropped by selector</span>;
  if (row.returned) return <span className={`${styles.fate} ${styles.fateReturned}`}>Returned</span>;
  return <span className={styles.fate}>Candidate only{row.in_pool ? " (in pool)" : ""}</span>;
}

function Label({ relevant }: { relevant: boolean | null }) {
  if (relevant === null) return <span className={styles.muted}>—</span>;
  return relevant ? <span className={styles.relevant}>Relevant</span> : <span className={styles.irrelevant}>Not relevant</span>;
}

type RecallColumnId = "when" | "query" | "rank" | "fate" | "cosine" | "label" | "level";

/** The list's columns, as the "Columns" control lists them; the query opens the recall and always shows. */
const RECALL_COLUMNS: readonly ColumnChoice<RecallColumnId>[] = [
  { id: "when", label: "When" },
  { id: "query", label: "Query", required: true },
  { id: "rank", label: "Rank" },
  { id: "fate", label: "In this recall" },
  { id: "cosine", label: "Raw cosine" },
  { id: "label", label: "Label" },
  { id: "level", label: "Level" },
];

const HEADINGS: Record<RecallColumnId, DataTableColumn> = {
  when: "When",
  query: "Query",
  rank: { label: "Rank", numeric: true, title: "Rank in the recall's merged candidate list" },
  fate: "In this recall",
  cosine: { label: "Raw cosine", numeric: true },
  label: "Label",
  level: "Level",
};

function RecallRow({ row, shown }: { row: MemoryRecallRow; shown: readonly RecallColumnId[] }) {
  const created = new Date(row.created_at);
  // One cell per column; the row shows those not hidden.
  const cells: Record<RecallColumnId, ReactNode> = {
    when: (
      <td key="when" data-label="When" className={styles.nowrap}>
        <time dateTime={row.created_at}>{dateFormat.format(created)}</time>
      </td>
    ),
    query: (
      <td key="query" data-label="Query" className={styles.query}>
        <Link href={`/recalls/${row.recall_id}`}>{row.query}</Link>
        <span className={styles.source}>
          {row.source} · {row.store}
        </span>
      </td>
    ),
    rank: (
      <td key="rank" data-label="Rank" className={`${numericCellClassName} ${styles.num}`}>
        {row.rank}
      </td>
    ),
    fate: (
      <td key="fate" data-label="Here">
        <Fate row={row} />
      </td>
    ),
    cosine: (
      <td key="cosine" data-label="Raw cosine" className={`${numericCellClassName} ${styles.num}`}>
        {formatScore(row.raw_cosine)}
      </td>
    ),
    label: (
      <td key="label" data-label="Label">
        <Label relevant={row.relevant} />
      </td>
    ),
    level: (
      <td key="level" data-label="Level">
        <LevelBadge level={row.level} />
      </td>
    ),
  };
  return <tr data-testid="memory-recall-row">{shown.map((id) => cells[id])}</tr>;
}

/** The logged recalls the memory appeared in (newest first), with the counts over all of them. */
export function MemoryRecallsPanel({
  id,
  show,
  onShow,
  store = null,
}: {
  id: string;
  show: MemoryRecallFilter;
  onShow: (show: MemoryRecallFilter) => void;
  /** The memory's store: its id names another memory in another store. */
  store?: string | null;
}) {
  const list = useMemoryRecalls(id, show, store);
  const first = list.data?.pages[0];
  const rows = list.data?.pages.flatMap((page) => page.items) ?? [];
  const failed = list.isError && !list.data;
  // Kept in this browser, not in the URL, as History's (components/ui/column-picker.tsx says why).
  const [hidden, setHidden] = useHiddenColumns("memory-recalls", RECALL_COLUMNS);
  const shown = shownColumns(hidden, RECALL_COLUMNS);
  return (
    <section className={`panel ${styles.recalls}`} aria-labelledby="memory-recalls-title" data-testid="memory-recalls">
      <h2 id="memory-recalls-title" className={panelTitleClassName}>
        In logged recalls
      </h2>
      {list.isPending ? (
        <LoadingState>Loading the recalls this memory appeared in…</LoadingState>
      ) : failed ? (
        <ErrorState
          error={list.error}
          title="Could not load the recalls."
          onRetry={() => void list.refetch()}
          retryLabel="Try again"
        />
      ) : first && first.counts.appeared === 0 ? (
        <EmptyState title="No logged recall has this memory among its candidates yet." data-testid="memory-recalls-empty">
          <p className={styles.muted}>
            Recalls of the embedded store log their candidate list; run a query that should find it in the{" "}
            <Link href="/">console</Link>.
          </p>
        </EmptyState>
      ) : first ? (
        <>
          <Counts counts={first.counts} show={show} onShow={onShow} />
          <div className={styles.listHead}>
            <p className={styles.caption} role="status" aria-live="polite">
              {rows.length === 0
                ? `None of ${FILTER_WORDS[show].replace(/^every /, "the ")}.`
                : `${FILTER_WORDS[show].replace(/^./, (c) => c.toUpperCase())}, newest first: ${plural(rows.length, "recall")} shown.`}
              {list.isPlaceholderData && list.isFetching ? " Loading…" : null}
            </p>
            {rows.length > 0 ? (
              <ColumnPicker columns={RECALL_COLUMNS} hidden={hidden} onChange={setHidden} data-testid="memory-recalls-columns" />
            ) : null}
          </div>
          {rows.length > 0 ? (
            <DataTable
              className={styles.table}
              alignTop
              busy={list.isPlaceholderData && list.isFetching}
              columns={shown.map((id) => HEADINGS[id])}
            >
              <tbody>
                {rows.map((row) => (
                  <RecallRow key={row.recall_id} row={row} shown={shown} />
                ))}
              </tbody>
            </DataTable>
          ) : null}
          <LoadMore list={list} shown={rows.length} />
          <p className={styles.note}>
            Counted from the candidate lists recalls log (the embedded store&apos;s); a remote service&apos;s answers without a
            pool are not searched here.
          </p>
        </>
      ) : null}
    </section>
  );
}
