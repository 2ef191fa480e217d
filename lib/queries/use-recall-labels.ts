"use client";

import { useQueryClient } from "@tanstack/react-query";
import { useCallback, useReducer, useRef, useState } from "react";
import { combinePatches, mergeLabels, type LabelsPatch, type RecallLabels } from "@/lib/recall-log/labels";
import type { LoggedRecall } from "@/lib/recall-log/types";
import { errorMessage, fetchJson } from "./fetch-json";
import { recallKeys } from "./use-recall";

export interface LabelSaver {
  /** What to show: the stored labels with the saves not yet confirmed applied on top. */
  labels: RecallLabels;
  saving: boolean;
  /** Why the last save failed (its change is no longer shown); null when it did not. */
  error: string | null;
  save(patch: LabelsPatch): void;
  retry(): void;
  dismiss(): void;
}

/**
 * Optimistic label saves for one recall: a change shows at once, one PUT is in flight at a time
 * and changes made meanwhile go together in the next (combinePatches), so saves can neither
 * overtake each other nor pile up. A failed save is taken back off the screen and kept for Retry.
 */
export function useRecallLabels(recallId: string, initial: RecallLabels): LabelSaver {
  const client = useQueryClient();
  const state = useRef<{
    confirmed: RecallLabels;
    inFlight: LabelsPatch | null;
    queued: LabelsPatch | null;
    failed: LabelsPatch | null;
  }>({
    confirmed: initial,
    inFlight: null,
    queued: null,
    failed: null,
  });
  const [, rerender] = useReducer((n: number) => n + 1, 0);
  const [error, setError] = useState<string | null>(null);

  const flush = useCallback(() => {
    const s = state.current;
    if (s.inFlight || !s.queued) return;
    const patch = s.queued;
    s.inFlight = patch;
    s.queued = null;
    fetchJson<{ labels: RecallLabels }>(`/api/recalls/${encodeURIComponent(recallId)}/labels`, {
      method: "PUT",
      headers: { "Content-Type": "application/json" },
      body: JSON.stringify(patch),
    }).then(
      ({ labels }) => {
        s.confirmed = labels;
        s.inFlight = null;
        // The console shows the recall from the query cache: keep it in step.
        client.setQueryData<LoggedRecall>(recallKeys.one(recallId), (old) => (old ? { ...old, labels } : old));
        setError(null);
        rerender();
        // eslint-disable-next-line react-hooks/immutability -- mutates a value React does not track; intended
        flush();
      },
      (failure: unknown) => {
        s.failed = s.queued ? combinePatches(patch, s.queued) : patch;
        s.inFlight = null;
        s.queued = null;
        setError(`The label was not saved: ${errorMessage(failure)}`);
        rerender();
      },
    );
    rerender();
  }, [client, recallId]);

  const save = useCallback(
    (patch: LabelsPatch) => {
      const s = state.current;
      s.queued = s.queued ? combinePatches(s.queued, patch) : patch;
      rerender();
      flush();
    },
    [flush],
  );

  const s = state.current;
  const now = new Date().toISOString();
  let labels = s.confirmed;
  // eslint-disable-next-line react-hooks/refs -- reads the latest value through a ref on purpose (stable callbacks, form ids); not a render dependency
  if (s.inFlight) labels = mergeLabels(labels, s.inFlight, now);
  // eslint-disable-next-line react-hooks/refs -- reads the latest value through a ref on purpose (stable callbacks, form ids); not a render dependency
  if (s.queued) labels = mergeLabels(labels, s.queued, now);
  // eslint-disable-next-line react-hooks/refs -- reads the latest value through a ref on purpose (stable callbacks, form ids); not a render dependency
  return {
    // eslint-disable-next-line react-hooks/refs -- reads the latest value through a ref on purpose (stable callbacks, form ids); not a render dependency
    labels,
    // eslint-disable-next-line react-hooks/refs -- reads the latest value through a ref on purpose (stable callbacks, form ids); not a render dependency
    saving: s.inFlight !== null || s.queued !== null,
    error,
    save,
    retry: () => {
      const failed = state.current.failed;
      state.current.failed = null;
      setError(null);
      if (failed) save(failed);
    },
    dismiss: () => {
      state.current.failed = null;
      setError(null);
    },
  };
}
