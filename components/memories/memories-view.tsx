"use client";

import { useDebouncedCommit } from "@/lib/hooks/use-debounced-commit";
import { usePathname, useRouter, useSearchParams } from "next/navigation";
import { useCallback, useEffect, useId, useMemo, useRef, useState, type FormEvent } from "react";
import { errorMessage } from "@/lib/queries/fetch-json";
import { useMemoryList, useMemoryStats, type MemoryListFilters } from "@/lib/queries/use-memories";
import type { MemoryView } from "@/lib/stores/memory-schemas";
import { AddMemoryForm } from "./add-memory-form";
import { ImportMemories } from "./import-memories";
import { MemoryStatsPanel } from "./memory-stats";
import { MemoryTable } from "./memory-table";

const SEARCH_DEBOUNCE_MS = 300;
const FILTER_KEYS = ["q", "type", "tag"] as const;

function filtersFrom(params: URLSearchParams | { get(name: string): string | null }): MemoryListFilters {
  return { q: (params.get("q") ?? "").trim(), type: params.get("type") ?? "", tag: params.get("tag") ?? "" };
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
      <label htmlFor={`${id}-q`}>Search summaries</label>
      <input
        id={`${id}-q`}
        type="search"
        value={text}
        onChange={(e) => setText(e.target.value)}
        placeholder="e.g. deploy, on-call, Berlin"
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

  // The latest URL, for callbacks that fire after a pause (the search debounce).
  const paramsRef = useRef(searchParams);
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

  const stats = useMemoryStats();
  const list = useMemoryList(filters);

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
  const onDeleted = useCallback((memory: MemoryView) => {
    setDeletedNote(`Deleted “${memory.summary.length > 60 ? `${memory.summary.slice(0, 59)}…` : memory.summary}”.`);
    summaryLineRef.current?.focus();
  }, []);
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
      resultsLine = labels.length ? `${shown} for ${labels.join(", ")}, newest first.` : `${shown}, newest first.`;
    }
  }

  return (
    <div className="memories">
      <section className="panel memories-overview" aria-label="Store overview">
        <MemoryStatsPanel stats={stats} activeType={filters.type} onType={(type) => setFilters({ type })} />
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
      </section>

      <div id={`${ids}-add`} className="panel memories-subpanel" hidden={!addOpen}>
        {addOpen ? (
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
      <div id={`${ids}-import`} className="panel memories-subpanel" hidden={!importOpen}>
        {importOpen ? (
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
                <button type="button" className="active-tag-clear" aria-label={`Stop filtering by tag ${filters.tag}`} onClick={() => setFilters({ tag: "" })}>
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
            <p>
              Loading memories… The first request after the server starts opens the store (and, on a first start, loads the demo
              corpus), which can take a few seconds.
            </p>
          </div>
        ) : list.isError && !list.data ? (
          <div className="memories-state memories-state-error" role="alert">
            <p>
              <strong>Could not load memories.</strong> {errorMessage(list.error)}
            </p>
            <button type="button" className="button" onClick={() => void list.refetch()}>
              Try again
            </button>
          </div>
        ) : memories.length === 0 && total === 0 ? (
          filtered ? (
            <div className="empty-state">
              <p className="empty-state-title">No memories {condition}.</p>
              <p className="muted">
                {filters.q ? "Search looks at summaries only (not content or tags). Try fewer words, or " : "Try "}
                another type or tag, or clear the filters.
              </p>
              <button type="button" className="button" onClick={clearFilters}>
                Clear filters
              </button>
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
            <MemoryTable
              memories={memories}
              activeTag={filters.tag}
              onTag={(tag) => setFilters({ tag })}
              onDeleted={onDeleted}
              busy={searching}
            />
            <div className="load-more">
              {list.hasNextPage ? (
                <button type="button" className="button" disabled={list.isFetchingNextPage} onClick={() => void list.fetchNextPage()}>
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
