"use client";

import { errorMessage } from "@/lib/queries/fetch-json";
import { Button } from "./button";
import { Notice } from "./notice";
import styles from "./ui.module.css";

/** What the two pieces read of a TanStack infinite query (History, Memories). */
export interface PagedList {
  isError: boolean;
  isFetchNextPageError: boolean;
  error: unknown;
  hasNextPage: boolean;
  isFetchingNextPage: boolean;
  refetch: () => unknown;
  fetchNextPage: () => unknown;
}

/** Above a list that failed to refresh (the rows already shown stay), with a retry. */
export function PagedListRefreshError({ list }: { list: PagedList }) {
  if (!list.isError || list.isFetchNextPageError) return null;
  return (
    <Notice
      tone="error"
      action={
        <Button size="small" onClick={() => void list.refetch()}>
          Try again
        </Button>
      }
    >
      Could not refresh the list: {errorMessage(list.error)}
    </Notice>
  );
}

/** Below a paged list: "Load more", "That is all of them" once something is shown, and a failed next page. */
export function LoadMore({ list, shown }: { list: PagedList; shown: number }) {
  return (
    <div className={styles.loadMore}>
      {list.hasNextPage ? (
        <Button disabled={list.isFetchingNextPage} onClick={() => void list.fetchNextPage()}>
          {list.isFetchingNextPage ? "Loading…" : "Load more"}
        </Button>
      ) : shown > 0 ? (
        <p className={styles.loadMoreNote}>That is all of them.</p>
      ) : null}
      {list.isFetchNextPageError ? (
        <p className={styles.loadMoreError} role="alert">
          Could not load more: {errorMessage(list.error)}
        </p>
      ) : null}
    </div>
  );
}
