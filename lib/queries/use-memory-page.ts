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
  recalls: (id: string, show: MemoryRecallFilter) => [...memoryKeys.all, "recalls", id, show] as const,
  neighbours: (id: string) => [...memoryKeys.all, "neighbours", id] as const,
  lookup: (ids: readonly string[]) => [...memoryKeys.all, "lookup", ids] as const,
};

const path = (id: string) => `/api/memories/${encodeURIComponent(id)}`;

/** The recalls a memory appeared in, newest first, with the counts; the previous filter's list stays up while the next loads. */
export function useMemoryRecalls(id: string, show: MemoryRecallFilter) {
  return useInfiniteQuery({
    queryKey: memoryPageKeys.recalls(id, show),
    queryFn: ({ pageParam, signal }) => {
      const params = new URLSearchParams({ show });
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

/** The memories closest to this one in the embedded store. */
export function useMemoryNeighbours(id: string, enabled = true) {
  return useQuery({
    queryKey: memoryPageKeys.neighbours(id),
    queryFn: ({ signal }) => fetchJson<MemoryNeighbours>(`${path(id)}/neighbours?limit=${NEIGHBOURS_SHOWN}`, { signal }),
    enabled,
    retry: retryMemoryQuery,
  });
}

/**
 * Which of these memory ids the embedded store no longer holds (an old recall's deleted
 * memories). Ids sorted, so one recall asks once whatever order its rows come in. Asked in a POST
 * body: up to 500 ids do not fit in a URL (Node refuses headers past 16 KB with a 431).
 */
export function useMissingMemories(ids: readonly string[], enabled = true) {
  const sorted = [...new Set(ids)].sort();
  const query = useQuery({
    queryKey: memoryPageKeys.lookup(sorted),
    queryFn: ({ signal }) => fetchJson<MemoryLookup>("/api/memories/lookup", { ...jsonRequest("POST", { ids: sorted }), signal }),
    enabled: enabled && sorted.length > 0,
    // A mark is a hint on an old page; a failed look-up just leaves the rows unmarked.
    retry: false,
    staleTime: 30_000,
  });
  return new Set(query.data?.missing ?? []);
}
