"use client";

import { usePathname, useRouter, useSearchParams } from "next/navigation";
import { useCallback } from "react";
import { MEMORY_RECALL_FILTERS, type MemoryRecallFilter } from "@/lib/recall-log/memory-usage-schema";
import type { MemoryView } from "@/lib/stores/memory-schemas";
import { MemoryDetails } from "./memory-details";
import { MemoryNeighboursPanel } from "./memory-neighbours";
import styles from "./memory-page.module.css";
import { MemoryRecallsPanel } from "./memory-recalls";

function showFrom(value: string | null): MemoryRecallFilter {
  return (MEMORY_RECALL_FILTERS as readonly string[]).includes(value ?? "") ? (value as MemoryRecallFilter) : "appeared";
}

/**
 * The memory page: the memory itself (or a note that it was deleted), the logged recalls it
 * appeared in — filtered by `?show=` so a filtered list is a link — and its nearest neighbours.
 */
export function MemoryPageView({ id, memory, store }: { id: string; memory: MemoryView | null; store: string | null }) {
  const params = useSearchParams();
  const router = useRouter();
  const pathname = usePathname();
  const show = showFrom(params.get("show"));
  const setShow = useCallback(
    (next: MemoryRecallFilter) => {
      const query = new URLSearchParams(params.toString());
      if (next === "appeared") query.delete("show");
      else query.set("show", next);
      const text = query.toString();
      router.replace(text ? `${pathname}?${text}` : pathname, { scroll: false });
    },
    [params, pathname, router],
  );

  return (
    <div className={styles.page}>
      {memory ? (
        <MemoryDetails memory={memory} store={store} />
      ) : (
        <section className={`panel ${styles.deleted}`} role="note" data-testid="memory-deleted">
          <p>
            <strong>{store ? `The store ${store}` : "The store"} no longer holds this memory</strong> (it was deleted, or the
            store was emptied or deleted). Logged recalls keep what they returned, so its part in them is still listed below.
          </p>
        </section>
      )}
      <MemoryRecallsPanel id={id} show={show} onShow={setShow} store={store} />
      {memory ? <MemoryNeighboursPanel id={id} store={store} /> : null}
    </div>
  );
}
