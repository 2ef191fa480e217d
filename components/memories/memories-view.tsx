"use client";

import { useDebouncedCommit } from "@/lib/hooks/use-debounced-commit";
import { usePathname, useRouter, useSearchParams } from "next/navigation";
import { useCallback, useEffect, useId, useMemo, useRef, useState, type FormEvent } from "react";
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
import { AddMemoryForm } from "./add-memory-form";
import { ImportMemories } from "./import-memories";
import { MemoryStatsPanel } from "./memory-stats";
import { MemoryTable, RemoteMemoryTable } from "./memory-table";
import { StorePicker } from "./store-picker";

const SEARCH_DEBOUNCE_MS = 300;
const FILTER_KEYS = ["store", "q", "type", "tag"] as const;

function filtersFrom(params: URLSearchParams | { get(name: string): string | null }): MemoryListFilters {
  return {
    store: storeParam((params.get("store") ?? "").trim()),
    q: (params.get("q") ?? "").trim(),
    type: params.get("type") ?? "",
    tag: params.get("tag") ?? "",
  };
}

/** Why a remote store's memories cannot be changed here, and how to get a copy that can. */
function ReadOnlyNotice({ store }: { store: string }) {
  return (
    <p className="memories-readonly" role="note" data-testid="remote-read-only">
      <strong>Read-only.</strong> Memories of a remote store are managed by that service; run{" "}
      <code>npm run mirror -- {store}</code> to copy them here (into the embedded store, where their full candidate pool can be
      inspected). The service lists summaries, types, scope, importance and dates, not contents or tags.
    </p>
  );
}

function describeFilters(filters: MemoryListFilters): string {
  const parts: string[] = [];
  if (filters.q) parts.push(`match “${filters.q}”`);
  if (filters.type) parts.push(`are of type “${filters.type}”`);
  if (filters.tag) parts.push(`are tagged “${filters.tag}”`);
  return parts.length > 1 ? `${parts.slice(0, -1).join(", ")} and ${parts[parts.length - 1]}` : (parts[0] ?? "");
}

/**
 * The search box keeps what the person types and pushes it to the URL after a pause; when the
 * URL changes on its own (back/forward, "Clear filters") the box follows it.
 */
function SearchBox({ value, onCommit }: { value: string; onCommit: (q: string) => void }) {
  const id = useId();
  const { text, setText, commitNow } = useDebouncedCommit(value, onCommit, { delayMs: SEARCH_DEBOUNCE_MS });
  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    commitNow();
  };

  return (
    <form role="search" className="field memories-search" onSubmit={onSubmit}>
      <label htmlFor={`${id}-q`}>Search summaries or ids</label>
      <input
        id={`${id}-q`}
        type="search"
        value={text}
        onChange={(e) => setText(e.target.value)}
        placeholder="e.g. deploy, on-call, or a pasted memory id"
        maxLength={200}
        autoComplete="off"
        spellCheck={false}
      />
    </form>
  );
}

export function MemoriesView() {
  const searchParams = useSearchParams();
  const router = useRouter();
  const pathname = usePathname();
  const filters = useMemo(() => filtersFrom(searchParams), [searchParams]);
  const filtered = Boolean(filters.q || filters.type || filters.tag);
  const remote = isRemoteStoreName(filters.store);
  const stores = useStores();
  const storeName = filters.store || EMBEDDED_STORE;
  const storeInfo = stores.data?.find((s) => s.name === storeName);
  const storeLabel = storeInfo?.label ?? storeName;
  const storeDescription = storeInfo?.description ?? "";
  const showPicker = remote || Boolean(stores.data?.some((s) => s.kind === "remote"));

  // The latest URL, for callbacks that fire after a pause (the search debounce).
  const paramsRef = useRef(searchParams);
  // eslint-disable-next-line react-hooks/refs -- reads the latest value through a ref on purpose (stable callbacks, form ids); not a render dependency
  paramsRef.current = searchParams;
  const setFilters = useCallback(
    (next: Partial<MemoryListFilters>) => {
      const params = new URLSearchParams(paramsRef.current.toString());
      for (const key of FILTER_KEYS) {
        const value = next[key];
        if (value === undefined) continue;
        if (value) params.set(key, value);
        else params.delete(key);
      }
      const query = params.toString();
      router.replace(query ? `${pathname}?${query}` : pathname, { scroll: false });
    },
    [router, pathname],
  );
  const onSearch = useCallback((q: string) => setFilters({ q }), [setFilters]);
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
  const [deletedNote, setDeletedNote] = useState<string | null>(null);
  const onStore = (store: string) => {
    setAddOpen(false);
    setImportOpen(false);
    // Types and tags belong to a store; the search text carries over.
    setFilters({ store: storeParam(store), type: "", tag: "" });
  };

  const onDeleted = useCallback((memory: MemoryView) => {
    setDeletedNote(`Deleted “${memory.summary.length > 60 ? `${memory.summary.slice(0, 59)}…` : memory.summary}”.`);
    summaryLineRef.current?.focus();
  }, []);
  // eslint-disable-next-line react-hooks/set-state-in-effect -- syncs local state from the URL or a query after render; a rewrite as derived state changes behaviour, left to the page's owner
  useEffect(() => setDeletedNote(null), [filters]);

  const types = useMemo(() => {
    const known = Object.keys(stats.data?.by_type ?? {});
    return filters.type && !known.includes(filters.type) ? [...known, filters.type] : known;
  }, [stats.data, filters.type]);

  const memories = useMemo(() => list.data?.pages.flatMap((page) => page.items) ?? [], [list.data]);
  const total = list.data?.pages[0]?.total ?? 0;
  const searching = list.isPlaceholderData && list.isFetching;
  const condition = describeFilters(filters);

  let resultsLine = "";
  if (list.data) {
    if (total === 0) resultsLine = filtered ? "No matches." : "No memories.";
    else {
      const shown = `Showing ${memories.length.toLocaleString("en-US")} of ${total.toLocaleString("en-US")} ${total === 1 ? "memory" : "memories"}`;
      const labels = [
        filters.q ? `search “${filters.q}”` : null,
        filters.type ? `type “${filters.type}”` : null,
        filters.tag ? `tag “${filters.tag}”` : null,
      ].filter(Boolean);
      const order = remote ? "in the service’s order" : "newest first";
      resultsLine = labels.length ? `${shown} for ${labels.join(", ")}, ${order}.` : `${shown}, ${order}.`;
    }
  }

  return (
    <div className="memories">
      {showPicker ? (
        <section className="panel memories-source" aria-label="Store">
          <StorePicker stores={stores.data} value={storeName} onChange={onStore} />
          {remote ? (
            <ReadOnlyNotice store={filters.store} />
          ) : storeDescription ? (
            <p className="memories-store-description muted">{storeDescription}</p>
          ) : null}
        </section>
      ) : null}

      <section className="panel memories-overview" aria-label="Store overview">
        <MemoryStatsPanel
          stats={stats}
          activeType={filters.type}
          onType={(type) => setFilters({ type })}
          errorShownBelow={statsErrorShownBelow}
        />
        {remote ? null : (
          <div className="memories-overview-actions">
            <button
              type="button"
              ref={addToggleRef}
              className="button button-primary"
              aria-expanded={addOpen}
              aria-controls={`${ids}-add`}
              onClick={() => (addOpen ? setAddOpen(false) : openAdd())}
            >
              Add memory
            </button>
            <button
              type="button"
              ref={importToggleRef}
              className="button"
              aria-expanded={importOpen}
              aria-controls={`${ids}-import`}
              onClick={() => (importOpen ? setImportOpen(false) : openImport())}
            >
              Import file
            </button>
          </div>
        )}
      </section>

      <div id={`${ids}-add`} className="panel memories-subpanel" hidden={remote || !addOpen}>
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
      <div id={`${ids}-import`} className="panel memories-subpanel" hidden={remote || !importOpen}>
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

      <section className="panel memories-browse" aria-labelledby={`${ids}-browse`}>
        <h2 id={`${ids}-browse`} className="visually-hidden">
          Browse memories
        </h2>
        <div className="memories-toolbar">
          <SearchBox value={filters.q} onCommit={onSearch} />
          <div className="field memories-type">
            <label htmlFor={`${ids}-type`}>Type</label>
            <select id={`${ids}-type`} value={filters.type} onChange={(e) => setFilters({ type: e.target.value })}>
              <option value="">All types</option>
              {types.map((type) => (
                <option key={type} value={type}>
                  {type}
                  {stats.data?.by_type[type] !== undefined ? ` (${stats.data.by_type[type]!.toLocaleString("en-US")})` : ""}
                </option>
              ))}
            </select>
          </div>
          {filters.tag ? (
            <div className="field memories-tag">
              <span className="field-label" id={`${ids}-tag`}>
                Tag
              </span>
              <span className="active-tag" aria-labelledby={`${ids}-tag`}>
                <span>{filters.tag}</span>
                <button
                  type="button"
                  className="active-tag-clear"
                  aria-label={`Stop filtering by tag ${filters.tag}`}
                  onClick={() => setFilters({ tag: "" })}
                >
                  ×
                </button>
              </span>
            </div>
          ) : null}
          {filtered ? (
            <button type="button" className="button button-ghost memories-clear" onClick={clearFilters}>
              Clear filters
            </button>
          ) : null}
        </div>

        <p className="results-line" ref={summaryLineRef} tabIndex={-1} role="status" aria-live="polite">
          {deletedNote ? <span className="results-note">{deletedNote} </span> : null}
          {resultsLine}
          {searching ? <span className="results-searching"> Searching…</span> : null}
        </p>

        {list.isPending ? (
          <div className="memories-state" role="status">
            <span className="spinner" aria-hidden="true" />
            {remote ? (
              <p>Loading the memories of {storeLabel} from its service…</p>
            ) : (
              <p>
                Loading memories… The first request after the server starts opens the store (and, on a first start, loads the demo
                corpus), which can take a few seconds.
              </p>
            )}
          </div>
        ) : listFailed ? (
          <div className="memories-state memories-state-error" role="alert">
            <p>
              <strong>{remote ? `Could not load the memories of ${storeLabel}.` : "Could not load memories."}</strong>{" "}
              <span data-testid="memories-error">{errorMessage(list.error)}</span>
            </p>
            <button type="button" className="button" disabled={list.isFetching} onClick={retryAll}>
              {list.isFetching ? "Trying…" : "Try again"}
            </button>
          </div>
        ) : memories.length === 0 && total === 0 ? (
          filtered ? (
            <div className="empty-state">
              <p className="empty-state-title">No memories {condition}.</p>
              <p className="muted">
                {filters.q ? "Search looks at summaries and ids (not content or tags). Try fewer words, or " : "Try "}
                {remote ? "another type" : "another type or tag"}, or clear the filters.
              </p>
              <button type="button" className="button" onClick={clearFilters}>
                Clear filters
              </button>
            </div>
          ) : remote ? (
            <div className="empty-state">
              <p className="empty-state-title">{storeLabel} holds no memories in its context.</p>
              <p className="muted">Memories appear here once agents store them through the service.</p>
            </div>
          ) : (
            <div className="empty-state">
              <p className="empty-state-title">The store is empty.</p>
              <p className="muted">Add a memory by hand, or import a JSON or JSON Lines file of them.</p>
              <div className="empty-state-actions">
                <button type="button" className="button button-primary" onClick={openAdd}>
                  Add a memory
                </button>
                <button type="button" className="button" onClick={openImport}>
                  Import a file
                </button>
              </div>
            </div>
          )
        ) : (
          <>
            {list.isError && !list.isFetchNextPageError ? (
              <div className="inline-alert" role="alert">
                <p>Could not refresh the list: {errorMessage(list.error)}</p>
                <button type="button" className="button button-small" onClick={() => void list.refetch()}>
                  Try again
                </button>
              </div>
            ) : null}
            {remote ? (
              <RemoteMemoryTable memories={memories} storeLabel={storeLabel} busy={searching} />
            ) : (
              <MemoryTable
                memories={memories}
                activeTag={filters.tag}
                onTag={(tag) => setFilters({ tag })}
                onDeleted={onDeleted}
                busy={searching}
              />
            )}
            <div className="load-more">
              {list.hasNextPage ? (
                <button
                  type="button"
                  className="button"
                  disabled={list.isFetchingNextPage}
                  onClick={() => void list.fetchNextPage()}
                >
                  {list.isFetchingNextPage ? "Loading…" : "Load more"}
                </button>
              ) : memories.length > 0 ? (
                <p className="muted">That is all of them.</p>
              ) : null}
              {list.isFetchNextPageError ? (
                <p className="row-error" role="alert">
                  Could not load more: {errorMessage(list.error)}
                </p>
              ) : null}
            </div>
          </>
        )}
      </section>
    </div>
  );
}
