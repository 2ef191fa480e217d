import {
  keepPreviousData,
  useInfiniteQuery,
  useMutation,
  useQuery,
  useQueryClient,
  type InfiniteData,
  type QueryClient,
} from "@tanstack/react-query";
import type { ImportItemResult, MemoryInput, MemoryView } from "@/lib/stores/memory-schemas";
import { fetchJson } from "./fetch-json";

/** Hooks for the embedded store's memories API (DESIGN §7): list, stats, add/import, delete, re-embed. */

export interface MemoryListFilters {
  /** Matches the summary, case-insensitive; "" for none. */
  q: string;
  /** Exact type; "" for all. */
  type: string;
  /** Exact tag; "" for all. */
  tag: string;
}

export interface MemoryListPage {
  items: MemoryView[];
  next_cursor: string | null;
  /** How many memories match the filters (not just this page). */
  total: number;
}

export interface MemoryStats {
  total: number;
  by_type: Record<string, number>;
  embedding_model: string;
  stale_vectors: number;
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
  stats: () => [...memoryKeys.all, "stats"] as const,
};

export function memoryListUrl(filters: MemoryListFilters, cursor: string | null, limit = MEMORY_PAGE_SIZE): string {
  const params = new URLSearchParams();
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
    placeholderData: keepPreviousData,
  });
}

export function useMemoryStats() {
  return useQuery({
    queryKey: memoryKeys.stats(),
    queryFn: ({ signal }) => fetchJson<MemoryStats>("/api/memories/stats", { signal }),
  });
}

function postMemories(body: ImportBody): Promise<ImportOutcome> {
  return fetchJson<ImportOutcome>("/api/memories", {
    method: "POST",
    headers: { "Content-Type": body.kind === "jsonl" ? "application/x-ndjson" : "application/json" },
    body: body.kind === "jsonl" ? body.text : JSON.stringify({ memories: body.memories }),
  });
}

function refreshMemories(client: QueryClient) {
  void client.invalidateQueries({ queryKey: memoryKeys.all });
}

/** Imports a batch (a file); lists and counts refresh when anything was created. */
export function useImportMemories() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: postMemories,
    onSuccess: (outcome) => {
      if (outcome.created > 0) refreshMemories(client);
    },
  });
}

/** Adds one memory; resolves with its per-item result (created, or rejected with the server's errors). */
export function useAddMemory() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: async (memory: MemoryInput): Promise<ImportItemResult> => {
      const outcome = await postMemories({ kind: "json", memories: [memory] });
      const result = outcome.results[0];
      if (!result) throw new Error("The server answered without a result for the memory.");
      return result;
    },
    onSuccess: (result) => {
      if (result.status === "created") refreshMemories(client);
    },
  });
}

/** Deletes one memory: it leaves every loaded list at once, then lists and counts refetch. */
export function useDeleteMemory() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (id: string) => fetchJson<{ deleted: string }>(`/api/memories/${encodeURIComponent(id)}`, { method: "DELETE" }),
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

/** Embeds again every memory whose vector is missing or from another model than the app's. */
export function useReembedMemories() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: () => fetchJson<{ reembedded: number }>("/api/memories/reembed", { method: "POST" }),
    onSuccess: () => refreshMemories(client),
  });
}
