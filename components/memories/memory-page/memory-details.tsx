"use client";

import Link from "next/link";
import { CopyButton } from "@/components/ui/copy-button";
import { useMemoryStats } from "@/lib/queries/use-memories";
import type { MemoryView } from "@/lib/stores/memory-schemas";
import styles from "./memory-page.module.css";

const dateFormat = new Intl.DateTimeFormat(undefined, { dateStyle: "medium", timeStyle: "short" });

function When({ iso }: { iso: string | null }) {
  if (!iso) return <span className={styles.muted}>never</span>;
  const date = new Date(iso);
  return (
    <time dateTime={iso} title={iso}>
      {Number.isNaN(date.getTime()) ? iso : dateFormat.format(date)}
    </time>
  );
}

/** What the memory says and what it is: text, type, tags, importance, vector model, dates. */
export function MemoryDetails({ memory, store }: { memory: MemoryView; store: string | null }) {
  // The store's current model: a vector from another one is never compared with queries.
  const stats = useMemoryStats(store ?? "");
  const currentModel = stats.data?.embedding_model ?? null;
  const stale = currentModel !== null && memory.embedding_model !== currentModel;
  return (
    <section className={`panel ${styles.details}`} aria-labelledby="memory-summary" data-testid="memory-details">
      <div className={styles.idLine}>
        <code className={styles.id}>{memory.id}</code>
        <CopyButton value={memory.id} label="memory id" />
      </div>
      <h2 id="memory-summary" className={styles.summary}>
        {memory.summary}
      </h2>
      {memory.content ? (
        <p className={styles.content}>{memory.content}</p>
      ) : (
        <p className={styles.muted}>No content beyond the summary.</p>
      )}
      <dl className={styles.facts}>
        <div>
          <dt>Type</dt>
          <dd>
            <Link href={`/memories?type=${encodeURIComponent(memory.type)}`} className={styles.chip}>
              {memory.type}
            </Link>
          </dd>
        </div>
        <div>
          <dt>Tags</dt>
          <dd>
            {memory.tags.length === 0 ? (
              <span className={styles.muted}>none</span>
            ) : (
              <ul className={styles.chips} aria-label="Tags">
                {memory.tags.map((tag) => (
                  <li key={tag}>
                    <Link href={`/memories?tag=${encodeURIComponent(tag)}`} className={styles.chip}>
                      {tag}
                    </Link>
                  </li>
                ))}
              </ul>
            )}
          </dd>
        </div>
        <div>
          <dt>Importance</dt>
          <dd>{memory.importance.toFixed(2)} (0–1)</dd>
        </div>
        <div>
          <dt>Vector model</dt>
          <dd data-testid="memory-model">
            {memory.embedding_model ? <code>{memory.embedding_model}</code> : <span className={styles.muted}>no vector</span>}
            {stale ? (
              <span className={styles.warning}>
                {" "}
                — the store embeds with <code>{currentModel}</code>: run <code>npm run reembed</code>
              </span>
            ) : null}
          </dd>
        </div>
        <div>
          <dt>Created</dt>
          <dd>
            <When iso={memory.created_at} />
          </dd>
        </div>
        <div>
          <dt>Updated</dt>
          <dd>
            <When iso={memory.updated_at} />
          </dd>
        </div>
      </dl>
    </section>
  );
}
