"use client";

import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import type { DatasetDetail, DatasetSummary } from "@/lib/eval/dataset-schemas";
import type { CreateStoreBody } from "@/lib/stores/store-schemas";
import { fetchJson, jsonRequest } from "./fetch-json";
import { memoryKeys } from "./use-memories";
import { recallKeys, type StoreOption } from "./use-recall";

/**
 * Hooks for the embedded stores themselves (README "HTTP API": `POST /api/stores`,
 * `DELETE /api/stores/{name}`) and for what Evaluate asks of one store: its labeled sets and the
 * relevant ids of a set it does not hold. The store list itself is `useStores` (use-recall.ts).
 */

/** What `GET /api/datasets/{id}?store=` adds: the set's relevant ids that store does not hold. */
export interface MissingIds {
  checked: boolean;
  count: number | null;
  ids: string[];
}

/** Under `["datasets"]`, so an upload (use-eval.ts invalidates that prefix) refreshes them too. */
export const storeSetKeys = {
  sets: (store: string) => ["datasets", { store }] as const,
  missing: (id: string, store: string) => ["datasets", id, { store }] as const,
};

/**
 * Creates an empty embedded store: it joins the pickers at once (a page switching to it never
 * shows it as unknown), then the list refetches. Fails with the envelope's words (409 taken, 422 a bad name).
 */
export function useCreateStore() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (body: CreateStoreBody) => fetchJson<StoreOption>("/api/stores", jsonRequest("POST", body)),
    onSuccess: (store) => {
      client.setQueryData<StoreOption[]>(recallKeys.stores, (stores) =>
        stores && !stores.some((s) => s.name === store.name) ? [...stores, store] : stores,
      );
      void client.invalidateQueries({ queryKey: recallKeys.stores });
    },
  });
}

/** Deletes an embedded store with its memories (its recalls stay in History); the pickers and lists refetch. */
export function useDeleteStore() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (name: string) =>
      fetchJson<{ deleted: string; memories: number }>(`/api/stores/${encodeURIComponent(name)}`, { method: "DELETE" }),
    onSuccess: ({ deleted }) => {
      client.setQueryData<StoreOption[]>(recallKeys.stores, (stores) => stores?.filter((s) => s.name !== deleted));
      void client.invalidateQueries({ queryKey: recallKeys.stores });
      void client.invalidateQueries({ queryKey: memoryKeys.all });
      void client.invalidateQueries({ queryKey: ["datasets"] });
    },
  });
}

/** The labeled sets of one store (newest first); nothing is asked until the store is known. */
export function useStoreDatasets(store: string) {
  return useQuery({
    queryKey: storeSetKeys.sets(store),
    enabled: store !== "",
    queryFn: ({ signal }) =>
      fetchJson<{ datasets: DatasetSummary[] }>(`/api/datasets?store=${encodeURIComponent(store)}`, { signal }),
  });
}

/** Which of a set's relevant ids `store` does not hold, asked before a run. */
export function useSetMissingIds(id: string, store: string) {
  return useQuery({
    queryKey: storeSetKeys.missing(id, store),
    enabled: id !== "" && store !== "",
    queryFn: ({ signal }) =>
      fetchJson<DatasetDetail & { missing?: MissingIds }>(
        `/api/datasets/${encodeURIComponent(id)}?store=${encodeURIComponent(store)}`,
        { signal },
      ).then((set) => set.missing ?? null),
    retry: false,
  });
}
