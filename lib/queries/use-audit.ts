"use client";

import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import type { AuditStartInput, AuditStatus } from "@/lib/audit/types";
import type { RecallBodyInput } from "@/lib/recall-log/schemas";
import type { LoggedRecall } from "@/lib/recall-log/types";
import { fetchJson, jsonRequest } from "./fetch-json";

/** The reachability audit of a store (README "HTTP API": `/api/stores/{name}/audit`). */
export const auditKeys = { status: (store: string) => ["audit", store] as const };

const auditUrl = (store: string) => `/api/stores/${encodeURIComponent(store)}/audit`;

/**
 * State, progress and the last result; polled every second while an audit runs. A poll asks
 * without the result (`?result=0`) and keeps the one it has; the result is fetched again only
 * when the kept one changed (`result_finished_at`), so a running audit's polls stay small.
 */
export function useAuditStatus(store: string | null) {
  const client = useQueryClient();
  return useQuery({
    queryKey: auditKeys.status(store ?? ""),
    queryFn: async ({ signal }) => {
      const known = client.getQueryData<AuditStatus>(auditKeys.status(store!));
      if (known) {
        const status = await fetchJson<AuditStatus>(`${auditUrl(store!)}?result=0`, { signal });
        if (status.result_finished_at === null) return status;
        if (status.result_finished_at === known.result_finished_at && known.result) return { ...status, result: known.result };
      }
      return fetchJson<AuditStatus>(auditUrl(store!), { signal });
    },
    enabled: store !== null && store !== "",
    refetchInterval: (query) => (query.state.data?.state === "running" ? 1_000 : false),
    retry: false,
  });
}

export function useStartAudit(store: string) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (body: AuditStartInput) => fetchJson<AuditStatus>(auditUrl(store), jsonRequest("POST", body)),
    onSuccess: (status) => client.setQueryData(auditKeys.status(store), status),
  });
}

export function useCancelAudit(store: string) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: () => fetchJson<AuditStatus>(auditUrl(store), { method: "DELETE" }),
    onSuccess: (status) => client.setQueryData(auditKeys.status(store), status),
  });
}

/** Runs a probe again as a logged recall (the console's `POST /api/recall`), to open it with "why?". */
export function useReproduceProbe() {
  return useMutation({
    mutationFn: (body: RecallBodyInput) => fetchJson<LoggedRecall>("/api/recall", jsonRequest("POST", body)),
  });
}

/** The CSV export of the last result. */
export function auditCsvUrl(store: string): string {
  return `${auditUrl(store)}?format=csv`;
}
