"use client";

import { useEffect, useState } from "react";
import { Button } from "@/components/ui/button";
import { Notice } from "@/components/ui/notice";
import type { SelectorOption, StoreOption } from "@/lib/queries/use-recall";

/**
 * A logged recall's store that is not configured here (an ingested recall from an agent's
 * service, a store removed since): said plainly, with the way out.
 */
export function UnconfiguredStoreNotice({
  store,
  fallback,
  onUseEmbedded,
}: {
  store: string;
  /** The store "instead" runs on: the default store ("" while the list loads). */
  fallback: string;
  onUseEmbedded: () => void;
}) {
  const instead = fallback ? `store ${fallback}` : "the default store";
  return (
    <Notice
      tone="warning"
      role="note"
      data-testid="unconfigured-store"
      action={<Button onClick={onUseEmbedded}>Run on {instead} instead</Button>}
    >
      <p>
        <strong>The store “{store}” is not configured here,</strong> so this recall cannot run on it again from this dashboard.
        Add it to <code>REMOTE_STORES</code> (or create an embedded store of that name) to run it there, or run the same query on{" "}
        {instead}.
      </p>
    </Notice>
  );
}

/** The selector the recall asked for is not available here (e.g. the LLM selector without its settings). */
export function UnavailableSelectorNotice({ selector }: { selector: SelectorOption }) {
  return (
    <Notice tone="warning" role="note" data-testid="unavailable-selector">
      <p>
        <strong>This recall asked for the {selector.label} selector, which is not configured here.</strong>{" "}
        {selector.hint ? `${selector.hint} ` : ""}Pick another selector to run it.
      </p>
    </Notice>
  );
}

/** Filters of a logged recall that the console has no field for: left out of a run here, and said so. */
export function UnsupportedFiltersNotice({ keys }: { keys: readonly string[] }) {
  if (keys.length === 0) return null;
  return (
    <Notice tone="warning" role="note" data-testid="unsupported-filters">
      <p>
        This recall also filtered by <code>{keys.join(", ")}</code>, which the console cannot set; running it here leaves{" "}
        {keys.length === 1 ? "that filter" : "those filters"} out.
      </p>
    </Notice>
  );
}

/**
 * A recall through a memory service is not read-only there: it bumps access stats and may promote
 * memories. Said once per store (dismissal remembered in this browser).
 */
export function RemoteStoreNotice({ store }: { store: StoreOption | undefined }) {
  const key = store ? `recall-inspector:remote-notice:${store.name}` : null;
  const [dismissed, setDismissed] = useState<string | null>(null);
  useEffect(() => {
    // eslint-disable-next-line react-hooks/set-state-in-effect -- localStorage exists only in the browser: read during render, the server's HTML and the first client render would differ (a hydration mismatch)
    if (key) setDismissed(window.localStorage.getItem(key) ? key : null);
  }, [key]);
  if (!store || store.kind !== "remote" || dismissed === key) return null;
  return (
    <Notice
      tone="warning"
      role="note"
      data-testid="remote-notice"
      action={
        <Button
          onClick={() => {
            window.localStorage.setItem(key!, "1");
            setDismissed(key);
          }}
        >
          Understood
        </Button>
      }
    >
      <p>
        <strong>{store.label} is a live memory service.</strong> Every recall run here bumps the access counts of the memories it
        returns and may promote working memories to persistent, just as an agent&apos;s recall would. Consider a dedicated context
        for inspection.
        {!store.health.ok ? ` It is not reachable right now: ${store.health.message ?? "unknown error"}` : ""}
      </p>
    </Notice>
  );
}
