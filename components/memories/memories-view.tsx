"use client";

import { usePathname, useRouter, useSearchParams } from "next/navigation";
import { useCallback, useEffect, useId, useMemo, useRef, useState } from "react";
import { errorMessage } from "@/lib/queries/fetch-json";
import {
  EMBEDDED_STORE,
  isRemoteStoreName,
  storeParam,
  useMemoryList,
  useMemoryStats,
  type MemoryListFilters,
} from "@/lib/queries/use-memories";
import { useStores } from "@/lib/queries/use-recall";
import type { MemoryView } from "@/lib/stores/memory-schemas";
import { Button } from "@/components/ui/button";
import { Notice } from "@/components/ui/notice";
import { visuallyHiddenClassName } from "@/components/ui/visually-hidden";
import { AddMemoryForm } from "./add-memory-form";
import { ImportMemories } from "./import-memories";
import { MemoriesToolbar } from "./memories-toolbar";
import { memoryFiltersFrom, memoryFiltersQuery, memoryResultsLine } from "./memories-url";
import { MemoryList } from "./memory-list";
import { MemoryStatsPanel } from "./memory-stats";
import { StorePicker } from "./store-picker";
import styles from "./memories.module.css";

/** Why a remote store's memories cannot be changed here, and how to get a copy that can. */
function ReadOnlyNotice({ store }: { store: string }) {
  return (
    <Notice className={styles.sourceNote} data-testid="remote-read-only">
      <p>
        <strong>Read-only.</strong> Memories of a remote store are managed by that service; run{" "}
        <code>npm run mirror -- {store}</code> to copy them here (into the embedded store, where their full candidate pool can be
        inspected). The service lists summaries, types, scope, importance and dates, not contents or tags.
      </p>
    </Notice>
  );
}

export function MemoriesView() {
  const searchParams = useSearchParams();
  const router = useRouter();
  const pathname = usePathname();
  const filters = useMemo(() => memoryFiltersFrom(searchParams), [searchParams]);
  const remote = isRemoteStoreName(filters.store);
  const stores = useStores();
  const storeName = filters.store || EMBEDDED_STORE;
  const storeInfo = stores.data?.find((s) => s.name === storeName);
  const storeLabel = storeInfo?.label ?? storeName;
  const storeDescription = storeInfo?.description ?? "";
  const showPicker = remote || Boolean(stores.data?.some((s) => s.kind === "remote"));

  // Reads the URL at call time (an event or the search's pause, never during render), so the
  // callback stays stable and a late search commit does not undo a filter chosen meanwhile.
  const setFilters = useCallback(
    (next: Partial<MemoryListFilters>) => {
      const query = memoryFiltersQuery(window.location.search, next);
      router.replace(query ? `${pathname}?${query}` : pathname, { scroll: false });
    },
    [router, pathname],
  );
  const clearFilters = () => setFilters({ q: "", type: "", tag: "" });

  const stats = useMemoryStats(filters.store);
  const list = useMemoryList(filters);
  const listFailed = list.isError && !list.data;
  // One failure of the store (a rejected key, an unreachable service) is reported once, by the list.
  const statsErrorShownBelow = stats.isError && listFailed && errorMessage(stats.error) === errorMessage(list.error);
  const retryAll = () => {
    if (stats.isError) void stats.refetch();
    void list.refetch();
  };

  const ids = useId();
  // The add and import panels open under the overview; opening one focuses its first control.
  const [addOpen, setAddOpen] = useState(false);
  const [importOpen, setImportOpen] = useState(false);
  const summaryRef = useRef<HTMLTextAreaElement>(null);
  const fileRef = useRef<HTMLInputElement>(null);
  const addToggleRef = useRef<HTMLButtonElement>(null);
  const importToggleRef = useRef<HTMLButtonElement>(null);
  const focusOnOpen = useRef<"add" | "import" | null>(null);
  useEffect(() => {
    if (focusOnOpen.current === "add" && addOpen) summaryRef.current?.focus();
    if (focusOnOpen.current === "import" && importOpen) fileRef.current?.focus();
    focusOnOpen.current = null;
  }, [addOpen, importOpen]);
  const openAdd = () => {
    focusOnOpen.current = "add";
    if (addOpen) summaryRef.current?.focus();
    setAddOpen(true);
  };
  const openImport = () => {
    focusOnOpen.current = "import";
    if (importOpen) fileRef.current?.focus();
    setImportOpen(true);
  };
  const summaryLineRef = useRef<HTMLParagraphElement>(null);
  // The "Deleted …" note belongs to the list it was made in: a change of filters drops it
  // (derived from the filters it was made under, instead of reset by an effect).
  const [deleted, setDeleted] = useState<{ note: string; filters: MemoryListFilters } | null>(null);
  const deletedNote = deleted && deleted.filters === filters ? deleted.note : null;
  const onStore = (store: string) => {
    setAddOpen(false);
    setImportOpen(false);
    // Types and tags belong to a store; the search text carries over.
    setFilters({ store: storeParam(store), type: "", tag: "" });
  };
  const onDeleted = useCallback(
    (memory: MemoryView) => {
      const summary = memory.summary.length > 60 ? `${memory.summary.slice(0, 59)}…` : memory.summary;
      setDeleted({ note: `Deleted “${summary}”.`, filters });
      summaryLineRef.current?.focus();
    },
    [filters],
  );

  const types = useMemo(() => {
    const known = Object.keys(stats.data?.by_type ?? {});
    return filters.type && !known.includes(filters.type) ? [...known, filters.type] : known;
  }, [stats.data, filters.type]);

  const shown = list.data?.pages.reduce((n, page) => n + page.items.length, 0) ?? 0;
  const total = list.data?.pages[0]?.total ?? 0;
  const searching = list.isPlaceholderData && list.isFetching;
  const resultsLine = list.data ? memoryResultsLine(filters, { shown, total, remote }) : "";

  return (
    <div className={styles.memories}>
      {showPicker ? (
        <section className={`panel ${styles.source}`} aria-label="Store">
          <StorePicker stores={stores.data} value={storeName} onChange={onStore} />
          {remote ? (
            <ReadOnlyNotice store={filters.store} />
          ) : storeDescription ? (
            <p className={styles.storeDescription}>{storeDescription}</p>
          ) : null}
        </section>
      ) : null}

      <section className={`panel ${styles.overview}`} aria-label="Store overview">
        <MemoryStatsPanel
          stats={stats}
          activeType={filters.type}
          onType={(type) => setFilters({ type })}
          errorShownBelow={statsErrorShownBelow}
        />
        {remote ? null : (
          <div className={styles.overviewActions}>
            <Button
              ref={addToggleRef}
              variant="primary"
              aria-expanded={addOpen}
              aria-controls={`${ids}-add`}
              onClick={() => (addOpen ? setAddOpen(false) : openAdd())}
            >
              Add memory
            </Button>
            <Button
              ref={importToggleRef}
              aria-expanded={importOpen}
              aria-controls={`${ids}-import`}
              onClick={() => (importOpen ? setImportOpen(false) : openImport())}
            >
              Import file
            </Button>
          </div>
        )}
      </section>

      <div id={`${ids}-add`} className={`panel ${styles.subpanel}`} hidden={remote || !addOpen}>
        {addOpen && !remote ? (
          <AddMemoryForm
            knownTypes={Object.keys(stats.data?.by_type ?? {})}
            summaryRef={summaryRef}
            onClose={() => {
              setAddOpen(false);
              addToggleRef.current?.focus();
            }}
          />
        ) : null}
      </div>
      <div id={`${ids}-import`} className={`panel ${styles.subpanel}`} hidden={remote || !importOpen}>
        {importOpen && !remote ? (
          <ImportMemories
            fileRef={fileRef}
            onClose={() => {
              setImportOpen(false);
              importToggleRef.current?.focus();
            }}
          />
        ) : null}
      </div>

      <section className={`panel ${styles.browse}`} aria-labelledby={`${ids}-browse`}>
        <h2 id={`${ids}-browse`} className={visuallyHiddenClassName}>
          Browse memories
        </h2>
        <MemoriesToolbar
          filters={filters}
          types={types}
          typeCounts={stats.data?.by_type}
          onChange={setFilters}
          onClear={clearFilters}
        />
        <p className={styles.resultsLine} ref={summaryLineRef} tabIndex={-1} role="status" aria-live="polite">
          {deletedNote ? <span className={styles.resultsNote}>{deletedNote} </span> : null}
          {resultsLine}
          {searching ? <span className={styles.resultsSearching}> Searching…</span> : null}
        </p>
        <MemoryList
          list={list}
          filters={filters}
          remote={remote}
          storeLabel={storeLabel}
          onTag={(tag) => setFilters({ tag })}
          onDeleted={onDeleted}
          onClear={clearFilters}
          onAdd={openAdd}
          onImport={openImport}
          onRetry={retryAll}
        />
      </section>
    </div>
  );
}
