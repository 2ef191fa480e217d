import {
  keepPreviousData,
  useInfiniteQuery,
  useMutation,
  useQuery,
  useQueryClient,
  type InfiniteData,
  type QueryClient,
} from "@tanstack/react-query";
import type { ImportItemResult, MemoryInput, MemoryListPage, MemoryStats } from "@/lib/stores/memory-schemas";

export type { MemoryListPage, MemoryStats };
import { ApiRequestError, fetchJson } from "./fetch-json";
import { recallKeys } from "./use-recall";

/**
 * Hooks for the memories API (README "HTTP API"): list and stats of one store, embedded or remote
 * (read-only), and an embedded store's add/import, delete and re-embed. Every hook names its
 * store; "" means the API's default store (lib/stores/server/embedded/README.md "Embedded stores").
 */

export interface MemoryListFilters {
  /** The store to list by name; "" for the default store (the API's when none is named). */
  store: string;
  /** Matches the summary, case-insensitive; "" for none. */
  q: string;
  /** Exact type; "" for all. */
  type: string;
  /** Exact tag; "" for all. */
  tag: string;
}

export interface ImportOutcome {
  results: ImportItemResult[];
  created: number;
  rejected: number;
}

/** A batch to add: a list of items sent as `{ memories }`, or JSON Lines text sent as is. */
export type ImportBody = { kind: "json"; memories: unknown[] } | { kind: "jsonl"; text: string };

export const MEMORY_PAGE_SIZE = 50;

export const memoryKeys = {
  all: ["memories"] as const,
  lists: () => [...memoryKeys.all, "list"] as const,
  list: (filters: MemoryListFilters) => [...memoryKeys.lists(), filters] as const,
  stats: (store = "") => [...memoryKeys.all, "stats", storeParam(store)] as const,
};

/** The `store` query parameter for a store's name: the name itself, "" (none sent) for the default store. */
export function storeParam(store: string): string {
  return store.trim();
}

/** `?store=<name>` (with its `?`), or "" for the default store. */
function storeQuery(store: string): string {
  const param = storeParam(store);
  return param ? `?store=${encodeURIComponent(param)}` : "";
}

/**
 * Retry once, and only what may pass by itself: not a refused request (4xx), a rejected key,
 * a missing context or a bad answer (those need a person to change something).
 */
const PERMANENT_CODES = new Set([
  "remote_auth_failed",
  "remote_forbidden",
  "remote_not_found",
  "remote_bad_response",
  "remote_rejected",
]);
export function retryMemoryQuery(failures: number, error: Error): boolean {
  if (failures >= 1) return false;
  if (error instanceof ApiRequestError) {
    if (error.status >= 400 && error.status < 500) return false;
    if (PERMANENT_CODES.has(error.code)) return false;
  }
  return true;
}

export function memoryListUrl(filters: MemoryListFilters, cursor: string | null, limit = MEMORY_PAGE_SIZE): string {
  const params = new URLSearchParams();
  const store = storeParam(filters.store);
  if (store) params.set("store", store);
  if (filters.q.trim()) params.set("q", filters.q.trim());
  if (filters.type) params.set("type", filters.type);
  if (filters.tag) params.set("tag", filters.tag);
  params.set("limit", String(limit));
  if (cursor) params.set("cursor", cursor);
  return `/api/memories?${params.toString()}`;
}

/** Newest first, page by page through `next_cursor`; the previous result stays up while a new search loads. */
export function useMemoryList(filters: MemoryListFilters) {
  return useInfiniteQuery({
    queryKey: memoryKeys.list(filters),
    queryFn: ({ pageParam, signal }) => fetchJson<MemoryListPage>(memoryListUrl(filters, pageParam), { signal }),
    initialPageParam: null as string | null,
    getNextPageParam: (last) => last.next_cursor,
    // Keep the previous result up while a new search of the same store loads; another store's
    // memories are never shown as if they were this one's.
    placeholderData: (previous, query) =>
      previous && query && (query.queryKey[2] as MemoryListFilters | undefined)?.store === filters.store
        ? keepPreviousData(previous)
        : undefined,
    retry: retryMemoryQuery,
  });
}

/** The store's counts; `store` "" for the default store. `enabled: false` asks nothing (e.g. no store known yet). */
export function useMemoryStats(store = "", { enabled = true }: { enabled?: boolean } = {}) {
  return useQuery({
    queryKey: memoryKeys.stats(store),
    queryFn: ({ signal }) => fetchJson<MemoryStats>(`/api/memories/stats${storeQuery(store)}`, { signal }),
    retry: retryMemoryQuery,
    enabled,
  });
}

/** Writes a batch into `store` ("" for the default store): `?store=` carries it for both body kinds. */
function postMemories(body: ImportBody, store: string): Promise<ImportOutcome> {
  return fetchJson<ImportOutcome>(`/api/memories${storeQuery(store)}`, {
    method: "POST",
    headers: { "Content-Type": body.kind === "jsonl" ? "application/x-ndjson" : "application/json" },
    body: body.kind === "jsonl" ? body.text : JSON.stringify({ memories: body.memories }),
  });
}

/**
 * Lists, counts and the store pickers' "· N memories" refetch after a write, and so does what
 * Evaluate says of a set's ids missing from a store (use-stores.ts, under `["datasets"]`).
 */
function refreshMemories(client: QueryClient) {
  void client.invalidateQueries({ queryKey: memoryKeys.all });
  void client.invalidateQueries({ queryKey: recallKeys.stores });
  void client.invalidateQueries({ queryKey: ["datasets"] });
}

/** Imports a batch (a file) into `store`; lists and counts refresh when anything was created. */
export function useImportMemories(store: string) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (body: ImportBody) => postMemories(body, store),
    onSuccess: (outcome) => {
      if (outcome.created > 0) refreshMemories(client);
    },
  });
}

/** Adds one memory to `store`; resolves with its per-item result (created, or rejected with the server's errors). */
export function useAddMemory(store: string) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: async (memory: MemoryInput): Promise<ImportItemResult> => {
      const outcome = await postMemories({ kind: "json", memories: [memory] }, store);
      const result = outcome.results[0];
      if (!result) throw new Error("The server answered without a result for the memory.");
      return result;
    },
    onSuccess: (result) => {
      if (result.status === "created") refreshMemories(client);
    },
  });
}

/** Deletes one memory of `store`: it leaves every loaded list at once, then lists and counts refetch. */
export function useDeleteMemory(store: string) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (id: string) =>
      fetchJson<{ deleted: string }>(`/api/memories/${encodeURIComponent(id)}${storeQuery(store)}`, { method: "DELETE" }),
    onSuccess: ({ deleted }) => {
      client.setQueriesData<InfiniteData<MemoryListPage, string | null>>({ queryKey: memoryKeys.lists() }, (data) => {
        if (!data) return data;
        const present = data.pages.some((page) => page.items.some((m) => m.id === deleted));
        if (!present) return data;
        return {
          ...data,
          pages: data.pages.map((page) => ({
            ...page,
            items: page.items.filter((m) => m.id !== deleted),
            total: Math.max(0, page.total - 1),
          })),
        };
      });
      refreshMemories(client);
    },
  });
}

/** Embeds again every memory of `store` whose vector is missing or from another model than the app's. */
export function useReembedMemories(store: string) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: () => fetchJson<{ reembedded: number }>(`/api/memories/reembed${storeQuery(store)}`, { method: "POST" }),
    onSuccess: () => refreshMemories(client),
  });
}
