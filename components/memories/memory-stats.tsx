"use client";

import type { UseQueryResult } from "@tanstack/react-query";
import { Button } from "@/components/ui/button";
import { Notice } from "@/components/ui/notice";
import { LoadingState } from "@/components/ui/states";
import { plural } from "@/lib/format";
import { errorMessage } from "@/lib/queries/fetch-json";
import { useReembedMemories, type MemoryStats } from "@/lib/queries/use-memories";
import styles from "./memories.module.css";

function TypeCounts({
  byType,
  activeType,
  onType,
}: {
  byType: Record<string, number>;
  activeType: string;
  onType: (type: string) => void;
}) {
  const types = Object.entries(byType);
  return (
    <div className={`${styles.stat} ${styles.statTypes}`}>
      <dt>By type</dt>
      <dd>
        {types.length === 0 ? (
          <span className={styles.muted}>none yet</span>
        ) : (
          <ul className={styles.typeCounts} aria-label="Memories by type (choose one to filter)">
            {types.map(([type, count]) => (
              <li key={type}>
                <button
                  type="button"
                  className={styles.typeCount}
                  aria-pressed={type === activeType}
                  onClick={() => onType(type === activeType ? "" : type)}
                >
                  <span>{type}</span> <span className={styles.typeCountN}>{count.toLocaleString("en-US")}</span>
                </button>
              </li>
            ))}
          </ul>
        )}
      </dd>
    </div>
  );
}

/** A remote store at a glance, as its service counts: memories, working/persistent, types. */
function RemoteStats({
  stats,
  activeType,
  onType,
}: {
  stats: MemoryStats & { remote: NonNullable<MemoryStats["remote"]> };
  activeType: string;
  onType: (type: string) => void;
}) {
  const { working_count: working, persistent_count: persistent } = stats.remote;
  const scopes = [
    persistent !== null ? `${persistent.toLocaleString("en-US")} persistent` : null,
    working !== null ? `${working.toLocaleString("en-US")} working` : null,
  ].filter(Boolean);
  return (
    <dl className={styles.stats}>
      <div className={styles.stat}>
        <dt>Memories</dt>
        <dd className={styles.statValue} data-testid="memory-total">
          {stats.total.toLocaleString("en-US")}
        </dd>
      </div>
      {scopes.length > 0 ? (
        <div className={styles.stat}>
          <dt>Scope</dt>
          <dd className={styles.statScopes} data-testid="memory-scopes">
            {scopes.join(" · ")}
          </dd>
        </div>
      ) : null}
      <TypeCounts byType={stats.by_type} activeType={activeType} onType={onType} />
    </dl>
  );
}

/** The store at a glance: how many memories, of which types, embedded with which model. */
export function MemoryStatsPanel({
  stats,
  activeType,
  onType,
  errorShownBelow = false,
  store,
}: {
  stats: UseQueryResult<MemoryStats>;
  activeType: string;
  onType: (type: string) => void;
  /** The same failure is already reported (with a retry) by the list below: say so instead of repeating it. */
  errorShownBelow?: boolean;
  /** The store shown ("" for the default store): what Re-embed works on. */
  store: string;
}) {
  const reembed = useReembedMemories(store);

  if (stats.isPending) {
    return <LoadingState className={styles.placeholder}>Loading counts…</LoadingState>;
  }
  if (stats.isError && errorShownBelow) {
    return <p className={styles.placeholder}>Counts unavailable (the store could not be read; see below).</p>;
  }
  if (stats.isError) {
    return (
      <Notice
        tone="error"
        className={styles.overviewNotice}
        action={
          <Button size="small" onClick={() => void stats.refetch()}>
            Try again
          </Button>
        }
      >
        Could not load the store’s counts: {errorMessage(stats.error)}
      </Notice>
    );
  }

  const data = stats.data;
  if (data.remote) return <RemoteStats stats={{ ...data, remote: data.remote }} activeType={activeType} onType={onType} />;

  const { total, by_type: byType, embedding_model: model, stale_vectors: stale } = data;

  return (
    <>
      <dl className={styles.stats}>
        <div className={styles.stat}>
          <dt>Memories</dt>
          <dd className={styles.statValue} data-testid="memory-total">
            {total.toLocaleString("en-US")}
          </dd>
        </div>
        <div className={styles.stat}>
          <dt>Embedding model</dt>
          <dd>
            <code className={styles.statModel} data-testid="embedding-model">
              {model}
            </code>
          </dd>
        </div>
        <TypeCounts byType={byType} activeType={activeType} onType={onType} />
      </dl>

      {stale > 0 ? (
        <section className={styles.overviewNotice} aria-label="Stale vectors">
          <Notice
            tone="warning"
            action={
              <Button size="small" variant="primary" disabled={reembed.isPending} onClick={() => reembed.mutate()}>
                {reembed.isPending ? "Re-embedding…" : `Re-embed ${plural(stale, "memory", "memories")}`}
              </Button>
            }
          >
            <p>
              {plural(stale, "memory has", "memories have")} no vector from <code>{model}</code> (they were embedded with another
              model, or not at all). Semantic and hybrid recall refuse to run until they are embedded again; keyword search still
              works. Re-embedding reads each summary once and can take a while on a large store.
            </p>
            <p>{reembed.isSuccess ? `Re-embedded ${plural(reembed.data.reembedded, "memory", "memories")}.` : null}</p>
            {reembed.isError ? <p role="alert">Re-embedding failed: {errorMessage(reembed.error)}</p> : null}
          </Notice>
        </section>
      ) : reembed.isSuccess ? (
        <p className={`${styles.overviewNotice} ${styles.formStatus}`} role="status">
          Re-embedded {plural(reembed.data.reembedded, "memory", "memories")} with <code>{model}</code>.
        </p>
      ) : null}
    </>
  );
}
