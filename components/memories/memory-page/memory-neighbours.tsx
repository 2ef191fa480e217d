"use client";

import Link from "next/link";
import { panelTitleClassName } from "@/components/ui/panel";
import { ErrorState, LoadingState } from "@/components/ui/states";
import { formatScore } from "@/lib/format";
import { memoryPageHref, useMemoryNeighbours } from "@/lib/queries/use-memory-page";
import styles from "./memory-page.module.css";

/** The memories closest to this one by raw cosine: likely near-duplicates and what competes with it in a recall. */
export function MemoryNeighboursPanel({ id, store }: { id: string; store: string | null }) {
  const neighbours = useMemoryNeighbours(id, true, store);
  return (
    <section className={`panel ${styles.neighbours}`} aria-labelledby="memory-neighbours-title" data-testid="memory-neighbours">
      <h2 id="memory-neighbours-title" className={panelTitleClassName}>
        Nearest neighbours
      </h2>
      <p className={styles.note}>
        The memories of the embedded store closest to this one (raw cosine of their vectors): near-duplicates, and what competes
        with it for the same queries.
      </p>
      {neighbours.isPending ? (
        <LoadingState>Finding the nearest memories…</LoadingState>
      ) : neighbours.isError ? (
        <ErrorState
          error={neighbours.error}
          title="Could not find the neighbours."
          onRetry={() => void neighbours.refetch()}
          retryLabel="Try again"
        />
      ) : neighbours.data.unavailable ? (
        <p className={styles.empty}>{neighbours.data.unavailable}</p>
      ) : neighbours.data.items.length === 0 ? (
        <p className={styles.empty}>No other memory in the store has a vector to compare with.</p>
      ) : (
        <ol className={styles.neighbourList}>
          {neighbours.data.items.map((n) => (
            <li key={n.id} data-testid="memory-neighbour">
              <span className={styles.neighbourScore} title="Raw cosine">
                {formatScore(n.cosine)}
              </span>
              <span className={styles.neighbourText}>
                <Link href={memoryPageHref(n.id, store)}>{n.summary || n.id}</Link>
                <span className={styles.source}>
                  <code>{n.id}</code> · {n.type}
                </span>
              </span>
            </li>
          ))}
        </ol>
      )}
    </section>
  );
}
