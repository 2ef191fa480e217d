import { keepPreviousData, useInfiniteQuery, useQuery } from "@tanstack/react-query";
import { HISTORY_PAGE_SIZE, historyFilterParams, type HistoryFilters, type HistoryPage } from "@/lib/recall-log/history";
import type { HistoryCount, HistoryFacets } from "@/lib/recall-log/server/history-count";
import { fetchJson } from "./fetch-json";

/** The recall history (`GET /api/recalls`, README "HTTP API"), page by page through `next_cursor`. */

export const historyKeys = {
  all: ["history"] as const,
  /** Keyed by the filters' query string: equal filters, equal key. */
  list: (filters: HistoryFilters) => [...historyKeys.all, "list", historyFilterParams(filters).toString()] as const,
};

export function historyUrl(filters: HistoryFilters, cursor: string | null, limit = HISTORY_PAGE_SIZE): string {
  const params = historyFilterParams(filters);
  params.set("limit", String(limit));
  if (cursor) params.set("cursor", cursor);
  return `/api/recalls?${params.toString()}`;
}

/**
 * Newest first; the previous list stays up while a new filter loads. Always refetched on mount
 * (a recall run a moment ago in the console should be there when History opens).
 */
export function useHistory(filters: HistoryFilters, options: { enabled?: boolean } = {}) {
  return useInfiniteQuery({
    queryKey: historyKeys.list(filters),
    queryFn: ({ pageParam, signal }) => fetchJson<HistoryPage>(historyUrl(filters, pageParam), { signal }),
    initialPageParam: null as string | null,
    getNextPageParam: (last) => last.next_cursor,
    placeholderData: keepPreviousData,
    staleTime: 0,
    enabled: options.enabled ?? true,
  });
}

/** How many recalls the filters select (`GET /api/recalls/count`): exact up to 10,000, estimated beyond. */
export function useHistoryCount(filters: HistoryFilters, options: { enabled?: boolean } = {}) {
  return useQuery({
    queryKey: [...historyKeys.all, "count", historyFilterParams(filters).toString()],
    queryFn: ({ signal }) => fetchJson<HistoryCount>(`/api/recalls/count?${historyFilterParams(filters).toString()}`, { signal }),
    placeholderData: keepPreviousData,
    staleTime: 0,
    enabled: options.enabled ?? true,
  });
}

export interface HistoryFacetsAnswer extends HistoryFacets {
  profiles: string[];
}

/** The stores, selector models and profiles History's pickers offer (`GET /api/recalls/facets`). */
export function useHistoryFacets() {
  return useQuery({
    queryKey: [...historyKeys.all, "facets"],
    queryFn: ({ signal }) => fetchJson<HistoryFacetsAnswer>("/api/recalls/facets", { signal }),
    staleTime: 60_000,
  });
}
