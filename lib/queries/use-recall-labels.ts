"use client";

import { useQueryClient } from "@tanstack/react-query";
import { useCallback, useRef, useState } from "react";
import { combinePatches, mergeLabels, type LabelsPatch, type RecallLabels } from "@/lib/recall-log/labels";
import type { LoggedRecall } from "@/lib/recall-log/types";
import { errorMessage, fetchJson, jsonRequest } from "./fetch-json";
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
  // The save queue lives in a ref because the PUT callbacks need its latest value; render never
  // reads it: every change publishes what to show into `shown` (state), which render reads.
  const queue = useRef<SaveQueue>({ confirmed: initial, inFlight: null, queued: null, failed: null });
  const [shown, setShown] = useState<{ labels: RecallLabels; saving: boolean }>({ labels: initial, saving: false });
  const [error, setError] = useState<string | null>(null);

  const publish = useCallback(() => {
    const q = queue.current;
    const now = new Date().toISOString();
    let labels = q.confirmed;
    if (q.inFlight) labels = mergeLabels(labels, q.inFlight, now);
    if (q.queued) labels = mergeLabels(labels, q.queued, now);
    setShown({ labels, saving: q.inFlight !== null || q.queued !== null });
  }, []);

  const flush = useCallback(
    function flushQueue() {
      const q = queue.current;
      if (q.inFlight || !q.queued) return;
      const patch = q.queued;
      q.inFlight = patch;
      q.queued = null;
      fetchJson<{ labels: RecallLabels }>(`/api/recalls/${encodeURIComponent(recallId)}/labels`, jsonRequest("PUT", patch)).then(
        ({ labels }) => {
          q.confirmed = labels;
          q.inFlight = null;
          // The console shows the recall from the query cache: keep it in step.
          client.setQueryData<LoggedRecall>(recallKeys.one(recallId), (old) => (old ? { ...old, labels } : old));
          setError(null);
          publish();
          flushQueue();
        },
        (failure: unknown) => {
          q.failed = q.queued ? combinePatches(patch, q.queued) : patch;
          q.inFlight = null;
          q.queued = null;
          setError(`The label was not saved: ${errorMessage(failure)}`);
          publish();
        },
      );
      publish();
    },
    [client, recallId, publish],
  );

  const save = useCallback(
    (patch: LabelsPatch) => {
      const q = queue.current;
      q.queued = q.queued ? combinePatches(q.queued, patch) : patch;
      publish();
      flush();
    },
    [flush, publish],
  );

  const retry = useCallback(() => {
    const failed = queue.current.failed;
    queue.current.failed = null;
    setError(null);
    if (failed) save(failed);
  }, [save]);

  const dismiss = useCallback(() => {
    queue.current.failed = null;
    setError(null);
  }, []);

  return { labels: shown.labels, saving: shown.saving, error, save, retry, dismiss };
}

interface SaveQueue {
  confirmed: RecallLabels;
  inFlight: LabelsPatch | null;
  queued: LabelsPatch | null;
  failed: LabelsPatch | null;
}
