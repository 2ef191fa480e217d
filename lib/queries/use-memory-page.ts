import { keepPreviousData, useInfiniteQuery, useQuery } from "@tanstack/react-query";
import type { MemoryRecallFilter, MemoryRecallsPage } from "@/lib/recall-log/memory-usage-schema";
import type { MemoryLookup, MemoryNeighbours } from "@/lib/stores/memory-schemas";
import { fetchJson, jsonRequest } from "./fetch-json";
import { memoryKeys, retryMemoryQuery } from "./use-memories";

/**
 * Hooks of the memory page (`/memories/{id}`) and of old recalls' deleted-memory marks. Their keys
 * sit under `memoryKeys.all`, so an add, import or delete refreshes them with the lists.
 */
export const memoryPageKeys = {
  recalls: (id: string, show: MemoryRecallFilter, store: string | null) =>
    [...memoryKeys.all, "recalls", id, show, store] as const,
  neighbours: (id: string, store: string | null) => [...memoryKeys.all, "neighbours", id, store] as const,
  lookup: (ids: readonly string[], store: string | null) => [...memoryKeys.all, "lookup", ids, store] as const,
};

const path = (id: string) => `/api/memories/${encodeURIComponent(id)}`;

/** The memory page of `id` in `store` (without one, the default store's): ids are unique per store. */
export function memoryPageHref(id: string, store: string | null | undefined): string {
  return `/memories/${encodeURIComponent(id)}${store ? `?store=${encodeURIComponent(store)}` : ""}`;
}

/** The recalls a memory appeared in, newest first, with the counts; the previous filter's list stays up while the next loads. */
export function useMemoryRecalls(id: string, show: MemoryRecallFilter, store: string | null = null) {
  return useInfiniteQuery({
    queryKey: memoryPageKeys.recalls(id, show, store),
    queryFn: ({ pageParam, signal }) => {
      const params = new URLSearchParams({ show });
      if (store) params.set("store", store);
      if (pageParam) params.set("cursor", pageParam);
      return fetchJson<MemoryRecallsPage>(`${path(id)}/recalls?${params.toString()}`, { signal });
    },
    initialPageParam: null as string | null,
    getNextPageParam: (last) => last.next_cursor,
    placeholderData: keepPreviousData,
    retry: retryMemoryQuery,
  });
}

export const NEIGHBOURS_SHOWN = 8;

/** The memories closest to this one in its embedded store (null: the default store). */
export function useMemoryNeighbours(id: string, enabled = true, store: string | null = null) {
  const inStore = store ? `&store=${encodeURIComponent(store)}` : "";
  return useQuery({
    queryKey: memoryPageKeys.neighbours(id, store),
    queryFn: ({ signal }) =>
      fetchJson<MemoryNeighbours>(`${path(id)}/neighbours?limit=${NEIGHBOURS_SHOWN}${inStore}`, { signal }),
    enabled,
    retry: retryMemoryQuery,
  });
}

/**
 * Which of these memory ids the embedded store `store` no longer holds (an old recall's deleted
 * memories). Ids sorted, so one recall asks once whatever order its rows come in. Asked in a POST
 * body: up to 500 ids do not fit in a URL (Node refuses headers past 16 KB with a 431).
 */
export function useMissingMemories(ids: readonly string[], enabled = true, store: string | null = null) {
  const sorted = [...new Set(ids)].sort();
  const query = useQuery({
    queryKey: memoryPageKeys.lookup(sorted, store),
    queryFn: ({ signal }) =>
      fetchJson<MemoryLookup>("/api/memories/lookup", {
        ...jsonRequest("POST", store ? { ids: sorted, store } : { ids: sorted }),
        signal,
      }),
    enabled: enabled && sorted.length > 0,
    // A mark is a hint on an old page; a failed look-up just leaves the rows unmarked.
    retry: false,
    staleTime: 30_000,
  });
  return new Set(query.data?.missing ?? []);
}
