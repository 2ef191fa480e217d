"use client";

import Link from "next/link";
import { formatScore } from "@/lib/format";
import { errorMessage } from "@/lib/queries/fetch-json";
import { useMemoryNeighbours } from "@/lib/queries/use-memory-page";
import { Button } from "@/components/ui/button";
import styles from "./memory-page.module.css";

/** The memories closest to this one by raw cosine: likely near-duplicates and what competes with it in a recall. */
export function MemoryNeighboursPanel({ id }: { id: string }) {
  const neighbours = useMemoryNeighbours(id);
  return (
    <section className={`panel ${styles.neighbours}`} aria-labelledby="memory-neighbours-title" data-testid="memory-neighbours">
      <h2 id="memory-neighbours-title" className={styles.panelTitle}>
        Nearest neighbours
      </h2>
      <p className={styles.note}>
        The memories of the embedded store closest to this one (raw cosine of their vectors): near-duplicates, and what competes
        with it for the same queries.
      </p>
      {neighbours.isPending ? (
        <p className={styles.state} role="status">
          Finding the nearest memories…
        </p>
      ) : neighbours.isError ? (
        <div className={styles.stateError} role="alert">
          <p>Could not find the neighbours: {errorMessage(neighbours.error)}</p>
          <Button onClick={() => void neighbours.refetch()} disabled={neighbours.isFetching}>
            {neighbours.isFetching ? "Trying…" : "Try again"}
          </Button>
        </div>
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
                <Link href={`/memories/${encodeURIComponent(n.id)}`}>{n.summary || n.id}</Link>
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
