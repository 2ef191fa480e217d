"use client";

import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import type { DatasetDetail, DatasetSummary } from "@/lib/eval/dataset-schemas";
import {
  isFinished,
  type EvalRunBodyInput,
  type EvalRunReport,
  type EvalRunStatus,
  type EvalRunSummary,
} from "@/lib/eval/run-schemas";
import { fetchJson, jsonRequest } from "./fetch-json";

/** Hooks for the evaluation API: labeled sets, runs (polled while they run), cancel. */

export const evalKeys = {
  datasets: ["datasets"] as const,
  dataset: (id: string) => ["datasets", id] as const,
  runs: ["eval-runs"] as const,
  run: (id: string) => ["eval-runs", id] as const,
};

/** How often a queued or running run is polled. */
const POLL_MS = 1_000;

export function useDatasets() {
  return useQuery({
    queryKey: evalKeys.datasets,
    queryFn: ({ signal }) => fetchJson<{ datasets: DatasetSummary[] }>("/api/datasets", { signal }),
  });
}

export function useDataset(id: string | null) {
  return useQuery({
    queryKey: evalKeys.dataset(id ?? ""),
    enabled: !!id,
    queryFn: ({ signal }) => fetchJson<DatasetDetail>(`/api/datasets/${encodeURIComponent(id!)}`, { signal }),
  });
}

/** `store`: whose memories the relevant ids name (README "HTTP API"); absent, the default store. */
export type DatasetUpload = (
  { name: string; jsonl: string } | { name: string; items: unknown[]; origin?: "upload" | "history" }
) & {
  store?: string;
};

export function useCreateDataset() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (upload: DatasetUpload) =>
      "jsonl" in upload
        ? fetchJson<{ id: string; count: number }>(
            `/api/datasets?name=${encodeURIComponent(upload.name)}${upload.store ? `&store=${encodeURIComponent(upload.store)}` : ""}`,
            {
              method: "POST",
              headers: { "Content-Type": "application/x-ndjson" },
              body: upload.jsonl,
            },
          )
        : fetchJson<{ id: string; count: number }>(
            "/api/datasets",
            jsonRequest("POST", {
              name: upload.name,
              items: upload.items,
              ...(upload.origin ? { origin: upload.origin } : {}),
              ...(upload.store ? { store: upload.store } : {}),
            }),
          ),
    onSuccess: () => client.invalidateQueries({ queryKey: evalKeys.datasets }),
  });
}

export function useEvalRuns() {
  return useQuery({
    queryKey: evalKeys.runs,
    queryFn: ({ signal }) => fetchJson<{ runs: EvalRunSummary[] }>("/api/eval-runs", { signal }),
    refetchInterval: (query) => (query.state.data?.runs.some((r) => !isFinished(r.status)) ? POLL_MS : false),
  });
}

export function useEvalRun(id: string | null) {
  return useQuery({
    queryKey: evalKeys.run(id ?? ""),
    enabled: !!id,
    queryFn: ({ signal }) => fetchJson<EvalRunReport>(`/api/eval-runs/${encodeURIComponent(id!)}`, { signal }),
    refetchInterval: (query) => (query.state.data && !isFinished(query.state.data.status) ? POLL_MS : false),
  });
}

export function useStartEvalRun() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (body: EvalRunBodyInput) =>
      fetchJson<{ id: string; status: EvalRunStatus }>("/api/eval-runs", jsonRequest("POST", body)),
    onSuccess: () => client.invalidateQueries({ queryKey: evalKeys.runs }),
  });
}

export function useCancelEvalRun(id: string) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: () =>
      fetchJson<{ id: string; status: EvalRunStatus }>(`/api/eval-runs/${encodeURIComponent(id)}/cancel`, { method: "POST" }),
    onSettled: () => {
      void client.invalidateQueries({ queryKey: evalKeys.run(id) });
      void client.invalidateQueries({ queryKey: evalKeys.runs });
    },
  });
}
