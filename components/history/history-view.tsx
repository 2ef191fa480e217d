"use client";

import Link from "next/link";
import { usePathname, useRouter, useSearchParams } from "next/navigation";
import { useCallback, useMemo, useState } from "react";
import { SavedViews } from "@/components/filters/saved-views";
import { Button, buttonClassName } from "@/components/ui/button";
import { ColumnPicker, useHiddenColumns } from "@/components/ui/column-picker";
import { Notice } from "@/components/ui/notice";
import { LoadMore, PagedListRefreshError } from "@/components/ui/paged-list";
import { pageStackClassName, panelClassName } from "@/components/ui/panel";
import { EmptyState, LoadingState } from "@/components/ui/states";
import { plural } from "@/lib/format";
import { errorMessage } from "@/lib/queries/fetch-json";
import { useHistory, useHistoryCount, useHistoryFacets } from "@/lib/queries/use-history";
import { useStores } from "@/lib/queries/use-recall";
import { selectorReasonKindLabel } from "@/lib/recall/selector-reasons";
import { selectorReasonText } from "@/lib/recall-log/format";
import { hasHistoryFilters, historyFilterParams } from "@/lib/recall-log/history";
import type { HistoryItem } from "@/lib/recall-log/history";
import { CreateSetBar } from "./create-set";
import { countLine, splitLine } from "./history-count-line";
import { HistoryFilterBar } from "./history-filters";
import { HISTORY_COLUMNS, HistoryTable } from "./history-table";
import {
  effectiveFilters,
  isFiltered,
  RANGE_PRESETS,
  readHistoryUrl,
  writeHistoryUrl,
  type HistoryUrlState,
} from "./history-url";
import styles from "./history.module.css";

const EMPTY_STATE: HistoryUrlState = { filters: {}, range: null };

/** The filtered history as a file (streamed by the server, however many recalls match). */
/** The three exports of what the filters select (lib/recall-log/export.ts writes them). */
const EXPORTS = [
  { format: "csv", testId: "export-csv", label: "Export CSV", title: "One row per recall: the table's columns" },
  {
    format: "candidates",
    testId: "export-candidates",
    label: "Export candidates CSV",
    title: "One row per candidate: rank, memory id, raw cosine, BM25, hybrid, in pool, returned, dropped, relevant label",
  },
  {
    format: "jsonl",
    testId: "export-jsonl",
    label: "Export JSONL",
    title:
      "Every recall whole, one a line: request, results and dropped results, candidates with every score, confidence with its trace, selector block and trace, labels",
  },
] as const;

function exportHref(filters: Parameters<typeof historyFilterParams>[0], format: "csv" | "jsonl" | "candidates"): string {
  const params = historyFilterParams(filters);
  params.set("format", format);
  return `/api/recalls/export?${params.toString()}`;
}

/** The History page's interactive part: filters (kept in the URL), the table, paging. */
export function HistoryView() {
  const searchParams = useSearchParams();
  const router = useRouter();
  const pathname = usePathname();
  const url = useMemo(() => readHistoryUrl(searchParams), [searchParams]);
  // Kept in this browser, not in the URL: the link stays the filters (column-picker.tsx says why).
  const [hiddenColumns, setHiddenColumns] = useHiddenColumns("history", HISTORY_COLUMNS);
  const state: HistoryUrlState = useMemo(() => ({ filters: url.filters, range: url.range }), [url]);

  // A relative range is anchored when it is chosen (or the page opens, or Refresh is pressed),
  // so the query key stays put while the person reads.
  const [refreshed, setRefreshed] = useState(0);
  // eslint-disable-next-line react-hooks/purity -- the relative range is anchored to the clock at the render where the range (or the Refresh count) changed; reading it in an effect would fetch twice
  const anchor = useMemo(() => Date.now(), [url.range, refreshed]);
  const filters = useMemo(() => effectiveFilters(state, anchor), [state, anchor]);
  const list = useHistory(filters, { enabled: url.invalid === null });
  const count = useHistoryCount(filters, { enabled: url.invalid === null });
  const stores = useStores();
  const facets = useHistoryFacets();

  const navigate = useCallback(
    (next: HistoryUrlState) => {
      const query = writeHistoryUrl(next);
      router.replace(query ? `${pathname}?${query}` : pathname, { scroll: false });
    },
    [router, pathname],
  );
  // Fires after the text box's pause: reads the URL at that moment (not a render's copy), so a
  // filter chosen meanwhile is kept and the callback stays stable.
  const onQuery = useCallback(
    (q: string) => {
      const now = readHistoryUrl(new URLSearchParams(window.location.search));
      navigate({ filters: { ...now.filters, q: q || undefined }, range: now.range });
    },
    [navigate],
  );
  const clearFilters = () => navigate(EMPTY_STATE);
  const refresh = () => {
    if (url.range) setRefreshed((n) => n + 1);
    else void list.refetch();
  };

  const items = useMemo(() => list.data?.pages.flatMap((page) => page.items) ?? [], [list.data]);
  const deletedStores = useMemo(() => new Set(list.data?.pages.flatMap((page) => page.deleted_stores ?? []) ?? []), [list.data]);

  // Selected rows, kept across filters and pages (by id, with the row as seen) for "Create set".
  const [selected, setSelected] = useState<ReadonlyMap<string, HistoryItem>>(new Map());
  const selection = useMemo(
    () => ({
      selected: new Set(selected.keys()),
      onToggle: (item: HistoryItem) =>
        setSelected((prev) => {
          const next = new Map(prev);
          if (next.has(item.id)) next.delete(item.id);
          else next.set(item.id, item);
          return next;
        }),
      onToggleAll: (rows: HistoryItem[], select: boolean) =>
        setSelected((prev) => {
          const next = new Map(prev);
          for (const row of rows) {
            if (select) next.set(row.id, row);
            else next.delete(row.id);
          }
          return next;
        }),
    }),
    [selected],
  );
  const filtered = isFiltered(state);
  const busy = list.isFetching && !list.isFetchingNextPage;
  // Configured stores (from /api/stores, at once) and stores only seen in the log (facets).
  const storeChoices = useMemo(() => {
    const configured = (stores.data ?? []).map((s) => ({ name: s.name, configured: true }));
    const names = new Set(configured.map((s) => s.name));
    const logged = (facets.data?.stores ?? [])
      .filter((s) => !names.has(s.name))
      .map((s) => ({ name: s.name, configured: false }));
    return [...configured, ...logged];
  }, [stores.data, facets.data]);

  let resultsLine = "";
  if (list.data && !list.isPlaceholderData) {
    if (items.length > 0) {
      const since = url.range ? ` in the ${RANGE_PRESETS.find((p) => p.value === url.range)!.label.toLowerCase()}` : "";
      const total = count.data && !count.isPlaceholderData ? countLine(count.data) : null;
      resultsLine = `${total ? `${total} ` : ""}Showing ${plural(items.length, "recall", "recalls")}${since}${hasHistoryFilters(state.filters) ? " matching the filters" : ""}, newest first${list.hasNextPage ? "; more below" : ""}.`;
    }
  }

  return (
    <div className={pageStackClassName}>
      <section className={panelClassName} aria-label="Recall history">
        <HistoryFilterBar
          state={state}
          onChange={navigate}
          onQuery={onQuery}
          stores={storeChoices}
          profiles={facets.data?.profiles ?? []}
        />
        <SavedViews page="history" params={writeHistoryUrl(state)} />
        <DrillDownChips state={state} onChange={navigate} />
        {selected.size > 0 ? <CreateSetBar selected={[...selected.values()]} onClear={() => setSelected(new Map())} /> : null}
        <div className={styles.toolbar}>
          <p className={styles.resultsLine} role="status" aria-live="polite">
            {resultsLine}
            {busy && list.data ? <span className={styles.loadingNote}> Loading…</span> : null}
          </p>
          <div className={styles.toolbarActions}>
            <ColumnPicker
              columns={HISTORY_COLUMNS}
              hidden={hiddenColumns}
              onChange={setHiddenColumns}
              data-testid="history-columns"
            />
            {filtered ? (
              <Button variant="ghost" onClick={clearFilters}>
                Clear filters
              </Button>
            ) : null}
            <Button onClick={refresh} disabled={url.invalid !== null || list.isFetching}>
              Refresh
            </Button>
            {url.invalid === null
              ? EXPORTS.map((e) => (
                  <a
                    key={e.format}
                    className={buttonClassName({ variant: "ghost" })}
                    href={exportHref(filters, e.format)}
                    download
                    data-testid={e.testId}
                    title={e.title}
                  >
                    {e.label}
                  </a>
                ))
              : null}
          </div>
        </div>

        {count.data && !count.isPlaceholderData && count.data.grouped > 0 && url.invalid === null ? (
          <dl className={styles.split} data-testid="history-split">
            <div>
              <dt>By the store&apos;s verdict</dt>
              <dd>{splitLine(count.data.by_verdict, [["unknown", "failed or unknown"]])}</dd>
            </div>
            <div>
              <dt>By reference level (what the agent saw)</dt>
              <dd>{splitLine(count.data.by_level, [["unknown", "failed or unknown"]])}</dd>
            </div>
            {count.data.exact ? null : (
              <p className={styles.muted}>Split over the newest {count.data.grouped.toLocaleString("en-US")} matching recalls.</p>
            )}
          </dl>
        ) : null}
        {url.invalid !== null ? (
          <Notice
            tone="error"
            title="This link's filters cannot be read."
            action={<Button onClick={clearFilters}>Clear filters</Button>}
          >
            {url.invalid}
          </Notice>
        ) : list.isPending ? (
          <LoadingState>Loading recalls…</LoadingState>
        ) : list.isError && !list.data ? (
          <Notice
            tone="error"
            title="Could not load the history."
            action={<Button onClick={() => void list.refetch()}>Try again</Button>}
          >
            {errorMessage(list.error)}
          </Notice>
        ) : items.length === 0 && !list.isPlaceholderData ? (
          filtered ? (
            <EmptyState title="No recalls match these filters" data-testid="history-empty">
              <p>Widen the time range, pick more levels, or start over.</p>
              <Button onClick={clearFilters}>Clear filters</Button>
            </EmptyState>
          ) : (
            <EmptyState title="No recalls yet — run one in the console" data-testid="history-empty">
              <p>Every recall run in the console, or ingested from elsewhere, is logged here.</p>
              <Link href="/" className={buttonClassName({ variant: "primary" })}>
                Open the console
              </Link>
            </EmptyState>
          )
        ) : (
          <>
            <PagedListRefreshError list={list} />
            <HistoryTable items={items} busy={busy} selection={selection} hidden={hiddenColumns} deletedStores={deletedStores} />
            <LoadMore list={list} shown={items.length} />
          </>
        )}
      </section>
    </div>
  );
}

/**
 * Filters that only arrive through links (Insights' drill-downs) have no control in the bar;
 * each shows as a chip saying what it narrows to, with a way to drop it.
 */
function DrillDownChips({ state, onChange }: { state: HistoryUrlState; onChange: (next: HistoryUrlState) => void }) {
  const chips = [
    state.filters.dropped_memory
      ? { key: "dropped_memory" as const, text: `Selector dropped memory ${state.filters.dropped_memory}` }
      : null,
    state.filters.selector_model
      ? { key: "selector_model" as const, text: `Selector model ${state.filters.selector_model}` }
      : null,
    state.filters.selector_reason
      ? { key: "selector_reason" as const, text: `Selector not applied: ${selectorReasonText(state.filters.selector_reason)}` }
      : null,
    state.filters.selector_kind
      ? {
          key: "selector_kind" as const,
          text: `Selector not applied: ${selectorReasonKindLabel(state.filters.selector_kind).toLowerCase()}`,
        }
      : null,
    state.filters.top_dropped !== undefined
      ? {
          key: "top_dropped" as const,
          text: state.filters.top_dropped ? "Level rests on a dropped memory" : "Level's memory kept",
        }
      : null,
  ].filter((chip) => chip !== null);
  if (chips.length === 0) return null;
  return (
    <ul className={styles.chips} aria-label="Filters from a link" data-testid="drill-down-filters">
      {chips.map((chip) => (
        <li key={chip.key} className={styles.chip}>
          {chip.text}
          <button
            type="button"
            aria-label={`Remove filter: ${chip.text}`}
            onClick={() => onChange({ ...state, filters: { ...state.filters, [chip.key]: undefined } })}
          >
            ×
          </button>
        </li>
      ))}
    </ul>
  );
}
