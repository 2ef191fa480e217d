"use client";

import type { UseInfiniteQueryResult, InfiniteData } from "@tanstack/react-query";
import { errorMessage } from "@/lib/queries/fetch-json";
import type { MemoryListFilters, MemoryListPage } from "@/lib/queries/use-memories";
import type { MemoryView } from "@/lib/stores/memory-schemas";
import { Button } from "@/components/ui/button";
import { Notice } from "@/components/ui/notice";
import { EmptyState, LoadingState } from "@/components/ui/states";
import { LoadMore, PagedListRefreshError } from "@/components/ui/paged-list";
import { describeMemoryFilters } from "./memories-url";
import { MemoryTable, RemoteMemoryTable } from "./memory-table";
import styles from "./memories.module.css";

export interface MemoryListProps {
  list: UseInfiniteQueryResult<InfiniteData<MemoryListPage>>;
  filters: MemoryListFilters;
  remote: boolean;
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
          : "Loading memories… The first request after the server starts opens the store (and, on a first start, loads the demo corpus), which can take a few seconds."}
      </LoadingState>
    );
  }
  if (list.isError && !list.data) {
    return (
      <Notice
        tone="error"
        title={remote ? `Could not load the memories of ${storeLabel}.` : "Could not load memories."}
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
      <EmptyState title="The store is empty.">
        <p>Add a memory by hand, or import a JSON or JSON Lines file of them.</p>
        <div className={styles.emptyActions}>
          <Button variant="primary" onClick={onAdd}>
            Add a memory
          </Button>
          <Button onClick={onImport}>Import a file</Button>
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
        <MemoryTable memories={memories} activeTag={filters.tag} onTag={onTag} onDeleted={onDeleted} busy={searching} />
      )}
      <LoadMore list={list} shown={memories.length} />
    </>
  );
}
