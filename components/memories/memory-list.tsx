"use client";

import type { UseInfiniteQueryResult, InfiniteData } from "@tanstack/react-query";
import { Button } from "@/components/ui/button";
import { Notice } from "@/components/ui/notice";
import { LoadMore, PagedListRefreshError } from "@/components/ui/paged-list";
import { EmptyState, LoadingState } from "@/components/ui/states";
import { errorMessage } from "@/lib/queries/fetch-json";
import type { MemoryListFilters, MemoryListPage } from "@/lib/queries/use-memories";
import type { MemoryView } from "@/lib/stores/memory-schemas";
import { describeMemoryFilters } from "./memories-url";
import styles from "./memories.module.css";
import { MemoryTable, RemoteMemoryTable } from "./memory-table";

export interface MemoryListProps {
  list: UseInfiniteQueryResult<InfiniteData<MemoryListPage>>;
  filters: MemoryListFilters;
  remote: boolean;
  /** The store's name ("" for the default store): where a row's delete and memory page go. */
  store: string;
  storeLabel: string;
  onTag: (tag: string) => void;
  onDeleted: (memory: MemoryView) => void;
  onClear: () => void;
  onAdd: () => void;
  onImport: () => void;
  /** Retries the list (and the counts, when they failed too). */
  onRetry: () => void;
}

/** The list of memories under the toolbar: loading, failure, empty, or the table and "Load more". */
export function MemoryList({
  list,
  filters,
  remote,
  store,
  storeLabel,
  onTag,
  onDeleted,
  onClear,
  onAdd,
  onImport,
  onRetry,
}: MemoryListProps) {
  const filtered = Boolean(filters.q || filters.type || filters.tag);
  const memories = list.data?.pages.flatMap((page) => page.items) ?? [];
  const total = list.data?.pages[0]?.total ?? 0;
  const searching = list.isPlaceholderData && list.isFetching;

  if (list.isPending) {
    return (
      <LoadingState>
        {remote
          ? `Loading the memories of ${storeLabel} from its service…`
          : "Loading memories… The first request after the server starts opens the store (and, on a first start, loads the demo corpus into the store demo), which can take a few seconds."}
      </LoadingState>
    );
  }
  if (list.isError && !list.data) {
    return (
      <Notice
        tone="error"
        title={storeLabel ? `Could not load the memories of ${storeLabel}.` : "Could not load memories."}
        action={
          <Button disabled={list.isFetching} onClick={onRetry}>
            {list.isFetching ? "Trying…" : "Try again"}
          </Button>
        }
      >
        <p data-testid="memories-error">{errorMessage(list.error)}</p>
      </Notice>
    );
  }
  if (memories.length === 0 && total === 0) {
    if (filtered) {
      return (
        <EmptyState title={`No memories ${describeMemoryFilters(filters)}.`}>
          <p>
            {filters.q ? "Search looks at summaries and ids (not content or tags). Try fewer words, or " : "Try "}
            {remote ? "another type" : "another type or tag"}, or clear the filters.
          </p>
          <div className={styles.emptyActions}>
            <Button onClick={onClear}>Clear filters</Button>
          </div>
        </EmptyState>
      );
    }
    if (remote) {
      return (
        <EmptyState title={`${storeLabel} holds no memories in its context.`}>
          <p>Memories appear here once agents store them through the service.</p>
        </EmptyState>
      );
    }
    return (
      <EmptyState title={storeLabel ? `Store ${storeLabel} is empty.` : "The store is empty."}>
        <p>Import a JSON or JSON Lines file of memories into it, or add one by hand.</p>
        <div className={styles.emptyActions}>
          <Button variant="primary" onClick={onImport}>
            Import a file
          </Button>
          <Button onClick={onAdd}>Add a memory</Button>
        </div>
      </EmptyState>
    );
  }
  return (
    <>
      <PagedListRefreshError list={list} />
      {remote ? (
        <RemoteMemoryTable memories={memories} storeLabel={storeLabel} busy={searching} />
      ) : (
        <MemoryTable
          memories={memories}
          store={store}
          activeTag={filters.tag}
          onTag={onTag}
          onDeleted={onDeleted}
          busy={searching}
        />
      )}
      <LoadMore list={list} shown={memories.length} />
    </>
  );
}
