"use client";

import { errorMessage } from "@/lib/queries/fetch-json";
import { useReembedMemories, type MemoryStats } from "@/lib/queries/use-memories";
import type { UseQueryResult } from "@tanstack/react-query";
import { plural } from "@/lib/format";

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
    <div className="stat stat-types">
      <dt>By type</dt>
      <dd>
        {types.length === 0 ? (
          <span className="muted">none yet</span>
        ) : (
          <ul className="type-counts" aria-label="Memories by type (choose one to filter)">
            {types.map(([type, count]) => (
              <li key={type}>
                <button
                  type="button"
                  className="type-count"
                  aria-pressed={type === activeType}
                  onClick={() => onType(type === activeType ? "" : type)}
                >
                  <span>{type}</span> <span className="type-count-n">{count.toLocaleString("en-US")}</span>
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
    <dl className="memory-stats">
      <div className="stat">
        <dt>Memories</dt>
        <dd className="stat-value" data-testid="memory-total">
          {stats.total.toLocaleString("en-US")}
        </dd>
      </div>
      {scopes.length > 0 ? (
        <div className="stat">
          <dt>Scope</dt>
          <dd className="stat-scopes" data-testid="memory-scopes">
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
}: {
  stats: UseQueryResult<MemoryStats>;
  activeType: string;
  onType: (type: string) => void;
  /** The same failure is already reported (with a retry) by the list below: say so instead of repeating it. */
  errorShownBelow?: boolean;
}) {
  const reembed = useReembedMemories();

  if (stats.isPending) {
    return (
      <p className="memory-stats-placeholder" role="status">
        Loading counts…
      </p>
    );
  }
  if (stats.isError && errorShownBelow) {
    return <p className="memory-stats-placeholder">Counts unavailable (the store could not be read; see below).</p>;
  }
  if (stats.isError) {
    return (
      <div className="inline-alert" role="alert">
        <p>Could not load the store’s counts: {errorMessage(stats.error)}</p>
        <button type="button" className="button button-small" onClick={() => void stats.refetch()}>
          Try again
        </button>
      </div>
    );
  }

  const data = stats.data;
  if (data.remote) return <RemoteStats stats={{ ...data, remote: data.remote }} activeType={activeType} onType={onType} />;

  const { total, by_type: byType, embedding_model: model, stale_vectors: stale } = data;

  return (
    <>
      <dl className="memory-stats">
        <div className="stat">
          <dt>Memories</dt>
          <dd className="stat-value" data-testid="memory-total">
            {total.toLocaleString("en-US")}
          </dd>
        </div>
        <div className="stat">
          <dt>Embedding model</dt>
          <dd>
            <code className="stat-model" data-testid="embedding-model">
              {model}
            </code>
          </dd>
        </div>
        <TypeCounts byType={byType} activeType={activeType} onType={onType} />
      </dl>

      {stale > 0 ? (
        <div className="inline-alert inline-alert-warning" role="region" aria-label="Stale vectors">
          <p>
            {plural(stale, "memory has", "memories have")} no vector from <code>{model}</code> (they were embedded with another
            model, or not at all). Semantic and hybrid recall refuse to run until they are embedded again; keyword search still
            works. Re-embedding reads each summary once and can take a while on a large store.
          </p>
          <div className="inline-alert-actions">
            <button
              type="button"
              className="button button-small button-primary"
              disabled={reembed.isPending}
              onClick={() => reembed.mutate()}
            >
              {reembed.isPending ? "Re-embedding…" : `Re-embed ${plural(stale, "memory", "memories")}`}
            </button>
            <span role="status">
              {reembed.isSuccess ? `Re-embedded ${plural(reembed.data.reembedded, "memory", "memories")}.` : null}
            </span>
          </div>
          {reembed.isError ? <p role="alert">Re-embedding failed: {errorMessage(reembed.error)}</p> : null}
        </div>
      ) : reembed.isSuccess ? (
        <p className="inline-note" role="status">
          Re-embedded {plural(reembed.data.reembedded, "memory", "memories")} with <code>{model}</code>.
        </p>
      ) : null}
    </>
  );
}
