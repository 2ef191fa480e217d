"use client";

import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import type { RecallBodyInput } from "@/lib/recall-log/schemas";
import type { LoggedRecall, WhyNotHereAnswer } from "@/lib/recall-log/types";
import type { SelectorOption } from "@/lib/selectors";
import type { RerankAvailability, StoreInfo } from "@/lib/stores/server/registry";
import { fetchJson, jsonRequest } from "./fetch-json";

/** An entry of `GET /api/stores`: the registry's store info plus its health, its threshold profile and whether it can rerank. */
export type StoreOption = StoreInfo & {
  health: { ok: boolean; message?: string };
  profile?: string;
  rerank?: RerankAvailability;
};

export type { SelectorOption };

export const recallKeys = {
  one: (id: string) => ["recall", id] as const,
  why: (id: string, memoryId: string) => ["recall", id, "why", memoryId] as const,
  stores: ["stores"] as const,
  selectors: ["selectors"] as const,
};

export function useRecall(id: string | null) {
  return useQuery({
    queryKey: recallKeys.one(id ?? ""),
    queryFn: ({ signal }) => fetchJson<LoggedRecall>(`/api/recalls/${encodeURIComponent(id!)}`, { signal }),
    enabled: id !== null,
    // A logged recall never changes.
    staleTime: Infinity,
    retry: false,
  });
}

export function useStores() {
  return useQuery({
    queryKey: recallKeys.stores,
    queryFn: ({ signal }) => fetchJson<{ stores: StoreOption[] }>("/api/stores", { signal }).then((r) => r.stores),
    staleTime: 5 * 60_000,
  });
}

export function useSelectors() {
  return useQuery({
    queryKey: recallKeys.selectors,
    queryFn: ({ signal }) => fetchJson<{ selectors: SelectorOption[] }>("/api/selectors", { signal }).then((r) => r.selectors),
    staleTime: 5 * 60_000,
  });
}

/** Runs a recall; the logged result goes straight into the cache under its id. */
export function useRunRecall() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (body: RecallBodyInput) => fetchJson<LoggedRecall>("/api/recall", jsonRequest("POST", body)),
    onSuccess: (view) => client.setQueryData(recallKeys.one(view.id), view),
  });
}

/** Where one memory stood in a logged recall and why it is not on the page (`GET /api/recalls/{id}/why`). */
export function useWhyNotHere(recallId: string, memoryId: string | null) {
  return useQuery({
    queryKey: recallKeys.why(recallId, memoryId ?? ""),
    queryFn: ({ signal }) =>
      fetchJson<WhyNotHereAnswer>(`/api/recalls/${encodeURIComponent(recallId)}/why?memory_id=${encodeURIComponent(memoryId!)}`, {
        signal,
      }),
    enabled: memoryId !== null && memoryId !== "",
    // The recall never changes; the memory might be deleted or re-embedded later, so not forever.
    staleTime: 60_000,
    retry: false,
  });
}
