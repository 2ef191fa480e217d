"use client";

import { useQuery } from "@tanstack/react-query";
import type { CaptureStatus } from "@/lib/capture/otlp/status-schema";
import { fetchJson } from "@/lib/queries/fetch-json";

/** Counters move while spans arrive: read again every 10 s while the page is open. */
const POLL_MS = 10_000;

export function useCaptureStatus() {
  return useQuery({
    queryKey: ["capture-status"],
    queryFn: () => fetchJson<CaptureStatus>("/api/capture/status"),
    refetchInterval: POLL_MS,
  });
}
