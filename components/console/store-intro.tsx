"use client";

import Link from "next/link";
import { isEmptyStore, storeHoldsWords } from "@/components/filters/store-label";
import { Button } from "@/components/ui/button";
import { Notice } from "@/components/ui/notice";
import type { StoreOption } from "@/lib/queries/use-recall";
import { DEMO_STORE } from "@/lib/stores/store-schemas";
import styles from "./console.module.css";
import { EXAMPLE_QUERIES } from "./example-queries";

/**
 * The console before its first recall: what the chosen store holds. The demo corpus's example
 * queries are offered for the store `demo` only; an empty embedded store says it is empty and
 * points at the import, never at demo queries (lib/stores/server/embedded/README.md "Embedded stores").
 */
export function StoreIntro({
  name,
  store,
  onExample,
}: {
  /** The chosen store's name ("" while the store list loads). */
  name: string;
  /** Its entry in `GET /api/stores`; undefined while loading or for a store not configured here. */
  store: StoreOption | undefined;
  onExample: (query: string) => void;
}) {
  if (isEmptyStore(store)) {
    return (
      <section className={`panel ${styles.intro}`} aria-label="Getting started" data-testid="empty-store">
        <h2>Nothing to recall yet</h2>
        <p>
          Store {name} is empty —{" "}
          <Link href={`/memories?store=${encodeURIComponent(name)}`}>import memories on the Memories page</Link>, then ask it
          something it knows and something it does not.
        </p>
      </section>
    );
  }
  const demo = name === DEMO_STORE && store?.kind === "embedded";
  const holds = store ? storeHoldsWords(store) : null;
  return (
    <section className={`panel ${styles.intro}`} aria-label="Getting started">
      <h2>Try a query</h2>
      <p>
        {demo ? (
          <>Store demo holds the demo corpus: the memories of an assistant working for a platform lead at a freight startup.</>
        ) : store?.kind === "remote" ? (
          <>{store.label} is a memory service; its recalls run there.</>
        ) : name && holds ? (
          <>
            Store {name} holds {holds}.
          </>
        ) : null}{" "}
        Ask something it knows, and something it does not, and compare the score distributions.
      </p>
      {demo ? (
        <ul className={styles.examples} aria-label="Example queries (each runs when chosen)">
          {EXAMPLE_QUERIES.map((example) => (
            <li key={example.query}>
              <Button className={styles.example} onClick={() => onExample(example.query)}>
                {example.query}
              </Button>{" "}
              <span className={styles.exampleKind}>{example.kind}</span>
            </li>
          ))}
        </ul>
      ) : null}
    </section>
  );
}

/**
 * The same word under the form while a recall is shown (the intro is not): the chosen store is
 * empty, so a recall there can only answer "no candidates".
 */
export function EmptyStoreNotice({ name, store }: { name: string; store: StoreOption | undefined }) {
  if (!isEmptyStore(store)) return null;
  return (
    <Notice tone="info" role="note" data-testid="empty-store-notice">
      <p>
        Store {name} is empty —{" "}
        <Link href={`/memories?store=${encodeURIComponent(name)}`}>import memories on the Memories page</Link>.
      </p>
    </Notice>
  );
}
