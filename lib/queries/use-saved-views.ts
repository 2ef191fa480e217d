import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import type { SavedView, SavedViewPage } from "@/lib/saved-views/schema";
import { fetchJson, jsonRequest } from "./fetch-json";

/** Saved views of a page (`/api/views`, README "HTTP API"). */
export const savedViewKeys = {
  all: ["saved-views"] as const,
  page: (page: SavedViewPage) => [...savedViewKeys.all, page] as const,
};

export function useSavedViews(page: SavedViewPage) {
  return useQuery({
    queryKey: savedViewKeys.page(page),
    queryFn: ({ signal }) => fetchJson<{ views: SavedView[] }>(`/api/views?page=${page}`, { signal }).then((a) => a.views),
    staleTime: 30_000,
  });
}

export function useSaveView(page: SavedViewPage) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (body: { name: string; params: string }) =>
      fetchJson<{ view: SavedView; created: boolean }>("/api/views", jsonRequest("POST", { page, ...body })),
    onSuccess: () => client.invalidateQueries({ queryKey: savedViewKeys.page(page) }),
  });
}

export function useDeleteView(page: SavedViewPage) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (id: string) => fetchJson<{ deleted: string }>(`/api/views/${encodeURIComponent(id)}`, { method: "DELETE" }),
    onSuccess: () => client.invalidateQueries({ queryKey: savedViewKeys.page(page) }),
  });
}
