"use client";

import { usePathname, useRouter, useSearchParams } from "next/navigation";
import { useCallback, useEffect, useId, useMemo, useRef, useState } from "react";
import { defaultStoreName } from "@/components/filters/store-label";
import { Button } from "@/components/ui/button";
import { Notice } from "@/components/ui/notice";
import { LoadingState } from "@/components/ui/states";
import { visuallyHiddenClassName } from "@/components/ui/visually-hidden";
import { plural } from "@/lib/format";
import { errorMessage } from "@/lib/queries/fetch-json";
import { useMemoryList, useMemoryStats, type MemoryListFilters } from "@/lib/queries/use-memories";
import { useStores } from "@/lib/queries/use-recall";
import type { MemoryView } from "@/lib/stores/memory-schemas";
import { AddMemoryForm } from "./add-memory-form";
import { DeleteStoreForm } from "./delete-store";
import { ImportMemories } from "./import-memories";
import { MemoriesToolbar } from "./memories-toolbar";
import { memoryFiltersFrom, memoryFiltersQuery, memoryResultsLine } from "./memories-url";
import styles from "./memories.module.css";
import { MemoryList } from "./memory-list";
import { MemoryStatsPanel } from "./memory-stats";
import { NewStoreForm } from "./new-store-form";
import { StorePicker } from "./store-picker";

/** Why a remote store's memories cannot be changed here, and how to get a copy that can. */
function ReadOnlyNotice({ store }: { store: string }) {
  return (
    <Notice className={styles.sourceNote} data-testid="remote-read-only">
      <p>
        <strong>Read-only.</strong> Memories of a remote store are managed by that service; run{" "}
        <code>npm run mirror -- {store}</code> to copy them here (into an embedded store, where their full candidate pool can be
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
  const stores = useStores();
  // No `?store=`: the default store (the API's own choice for a request naming none).
  const storeName = filters.store || defaultStoreName(stores.data);
  const storeInfo = stores.data?.find((s) => s.name === storeName);
  const remote = storeInfo?.kind === "remote";
  // A store named in the URL is of an unknown kind until the list says; the default one is embedded.
  const kindKnown = filters.store === "" || stores.data !== undefined || stores.isError;
  const storeLabel = storeInfo?.label ?? storeName;
  const storeDescription = storeInfo?.description ?? "";
  // Add and import only into a store known to be embedded (not a remote one, not a name no store has).
  const writable = filters.store === "" ? !remote : storeInfo?.kind === "embedded";

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
  // The add and import panels open under the overview, the store forms in the store panel;
  // opening one focuses its first control.
  const [addOpen, setAddOpen] = useState(false);
  const [importOpen, setImportOpen] = useState(false);
  const [storeForm, setStoreForm] = useState<"new" | "delete" | null>(null);
  const summaryRef = useRef<HTMLTextAreaElement>(null);
  const fileRef = useRef<HTMLInputElement>(null);
  const storeNameRef = useRef<HTMLInputElement>(null);
  const confirmRef = useRef<HTMLInputElement>(null);
  const addToggleRef = useRef<HTMLButtonElement>(null);
  const importToggleRef = useRef<HTMLButtonElement>(null);
  const newStoreRef = useRef<HTMLButtonElement>(null);
  const deleteStoreRef = useRef<HTMLButtonElement>(null);
  const pickerSectionRef = useRef<HTMLElement>(null);
  const focusOnOpen = useRef<"add" | "import" | "new" | "delete" | null>(null);
  useEffect(() => {
    if (focusOnOpen.current === "add" && addOpen) summaryRef.current?.focus();
    if (focusOnOpen.current === "import" && importOpen) fileRef.current?.focus();
    if (focusOnOpen.current === "new" && storeForm === "new") storeNameRef.current?.focus();
    if (focusOnOpen.current === "delete" && storeForm === "delete") confirmRef.current?.focus();
    focusOnOpen.current = null;
  }, [addOpen, importOpen, storeForm]);
  const openStoreForm = (form: "new" | "delete") => {
    focusOnOpen.current = form;
    if (storeForm === form) (form === "new" ? storeNameRef : confirmRef).current?.focus();
    setStoreForm(form);
  };
  const closeStoreForm = () => {
    const from = storeForm;
    setStoreForm(null);
    (from === "delete" ? deleteStoreRef : newStoreRef).current?.focus();
  };
  // What just happened to a store ("Created store a.", "Deleted store a and its 2 memories."), said once.
  const [storeNote, setStoreNote] = useState<string | null>(null);
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
    setStoreForm(null);
    setStoreNote(null);
    // Types and tags belong to a store; the search text carries over.
    setFilters({ store, type: "", tag: "" });
  };
  const onCreated = (name: string) => {
    onStore(name);
    setStoreNote(`Created store ${name}. It is empty: import a file or add memories into it.`);
    importToggleRef.current?.focus();
  };
  const onStoreDeleted = ({ deleted: name, memories }: { deleted: string; memories: number }) => {
    // Back to the default store (the list refetches without the deleted one).
    onStore("");
    setStoreNote(
      `Deleted store ${name}${memories > 0 ? ` and its ${plural(memories, "memory", "memories")}` : ""}. Its recalls stay in History.`,
    );
    pickerSectionRef.current?.focus();
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
      <section className={`panel ${styles.source}`} aria-label="Store" ref={pickerSectionRef} tabIndex={-1}>
        <StorePicker stores={stores.data} value={storeName} onChange={onStore} />
        <div className={styles.storeActions}>
          <Button
            ref={newStoreRef}
            aria-expanded={storeForm === "new"}
            aria-controls={`${ids}-store-form`}
            onClick={() => (storeForm === "new" ? closeStoreForm() : openStoreForm("new"))}
          >
            New store
          </Button>
          {storeInfo?.kind === "embedded" ? (
            <Button
              ref={deleteStoreRef}
              variant="ghost"
              aria-expanded={storeForm === "delete"}
              aria-controls={`${ids}-store-form`}
              onClick={() => (storeForm === "delete" ? closeStoreForm() : openStoreForm("delete"))}
            >
              Delete store…
            </Button>
          ) : null}
        </div>
        {remote ? (
          <ReadOnlyNotice store={storeName} />
        ) : storeDescription ? (
          <p className={styles.storeDescription}>{storeDescription}</p>
        ) : null}
        <p className={styles.storeNote} role="status" data-testid="store-note">
          {storeNote}
        </p>
        <div id={`${ids}-store-form`} className={styles.storePanel} hidden={storeForm === null}>
          {storeForm === "new" ? (
            <NewStoreForm nameRef={storeNameRef} onCreated={onCreated} onClose={closeStoreForm} />
          ) : storeForm === "delete" && storeInfo?.kind === "embedded" ? (
            <DeleteStoreForm
              key={storeInfo.name}
              store={storeInfo.name}
              memories={storeInfo.memories}
              confirmRef={confirmRef}
              onDeleted={onStoreDeleted}
              onClose={closeStoreForm}
            />
          ) : null}
        </div>
      </section>

      <section className={`panel ${styles.overview}`} aria-label="Store overview">
        <MemoryStatsPanel
          stats={stats}
          activeType={filters.type}
          onType={(type) => setFilters({ type })}
          errorShownBelow={statsErrorShownBelow}
          store={storeName}
        />
        {!writable ? null : (
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

      <div id={`${ids}-add`} className={`panel ${styles.subpanel}`} hidden={!writable || !addOpen}>
        {addOpen && writable ? (
          <AddMemoryForm
            store={storeName}
            knownTypes={Object.keys(stats.data?.by_type ?? {})}
            summaryRef={summaryRef}
            onClose={() => {
              setAddOpen(false);
              addToggleRef.current?.focus();
            }}
          />
        ) : null}
      </div>
      <div id={`${ids}-import`} className={`panel ${styles.subpanel}`} hidden={!writable || !importOpen}>
        {importOpen && writable ? (
          <ImportMemories
            store={storeName}
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
        {kindKnown ? (
          <MemoryList
            list={list}
            filters={filters}
            remote={remote}
            store={storeName}
            storeLabel={storeLabel}
            onTag={(tag) => setFilters({ tag })}
            onDeleted={onDeleted}
            onClear={clearFilters}
            onAdd={openAdd}
            onImport={openImport}
            onRetry={retryAll}
          />
        ) : (
          <LoadingState>Loading stores…</LoadingState>
        )}
      </section>
    </div>
  );
}
