"use client";

import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { Button } from "@/components/ui/button";
import { formatPercent } from "@/lib/format";
import { fetchJson, jsonRequest, errorMessage } from "@/lib/queries/fetch-json";
import styles from "./profiles.module.css";

/** A store's calibration without labels as `GET /api/profiles/calibrations` states it. */
interface Calibration {
  state: "none" | "calibrating" | "ready";
  method: "label_free" | "shipped" | null;
  examples: { probes: number; memories: number } | null;
  updated_at: string | null;
  estimate: { balanced_accuracy: number | null; auc: number | null; probes_worth_reading: number | null } | null;
  progress?: { done: number; total: number } | null;
  error?: string | null;
}

const KEY = ["profiles", "calibrations"] as const;

/**
 * Each store's calibration without labels on the Profiles page (lib/profiles/README.md "Calibration
 * without labels"): its state, progress while it runs (polled), what it learnt from, and a button to run
 * it again. The query lives here: no other page reads it.
 */
export function useCalibrations() {
  return useQuery({
    queryKey: KEY,
    queryFn: ({ signal }) =>
      fetchJson<{ probe_recalls: number; calibrations: Record<string, Calibration> }>("/api/profiles/calibrations", { signal }),
    refetchInterval: (query) =>
      Object.values(query.state.data?.calibrations ?? {}).some((c) => c.state === "calibrating") ? 2_000 : false,
  });
}

export function StoreCalibration({ store, remote }: { store: string; remote: boolean }) {
  const client = useQueryClient();
  const calibrations = useCalibrations();
  const start = useMutation({
    mutationFn: (confirm?: number) =>
      fetchJson("/api/profiles/calibrations", jsonRequest("POST", { store, ...(confirm ? { confirm_recalls: confirm } : {}) })),
    onSettled: () => client.invalidateQueries({ queryKey: KEY }),
  });
  const c = calibrations.data?.calibrations[store];
  const probes = calibrations.data?.probe_recalls ?? 0;
  if (!c) return null;
  const words =
    c.state === "calibrating"
      ? `calibrating without labels${c.progress ? ` (${c.progress.done} / ${c.progress.total} recalls)` : ""}…`
      : c.state === "ready"
        ? c.method === "shipped"
          ? "calibrated by the shipped fit (this is the store it was fitted on)"
          : `calibrated without labels from ${c.examples?.probes ?? 0} probe and ${c.examples?.memories ?? 0} memory-made queries` +
            (c.estimate ? `; label-free estimate: balanced accuracy ${formatPercent(c.estimate.balanced_accuracy, 0)}` : "")
        : "not calibrated yet (the shipped fit's background stands in)";
  return (
    <p className={styles.muted} data-testid={`store-calibration-${store}`}>
      {words}
      {c.error ? ` — the last attempt failed: ${c.error}` : ""}{" "}
      {c.state !== "calibrating" ? (
        <Button
          size="small"
          variant="ghost"
          disabled={start.isPending}
          onClick={() => start.mutate(remote ? probes : undefined)}
          title={remote ? `Sends ${probes} recalls to the memory service` : `Runs ${probes} probe recalls here`}
        >
          {remote ? `Calibrate (${probes} recalls to the service)` : "Calibrate again"}
        </Button>
      ) : null}
      {start.error ? ` ${errorMessage(start.error)}` : ""}
    </p>
  );
}
