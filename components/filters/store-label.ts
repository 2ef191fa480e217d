/**
 * How a store is named in every store picker (the console's, Memories', Evaluate's) and which one
 * a page opens with (lib/stores/server/embedded/README.md "Embedded stores"). Pure and client-safe.
 */
/** The parts of a `GET /api/stores` entry these words read. */
export interface StoreLike {
  name: string;
  kind: "embedded" | "remote";
  label: string;
  memories?: number;
  default?: boolean;
  health?: { ok: boolean; message?: string };
}

/** "345 memories", "1 memory", "empty"; null when the count is not known (a remote service does not say). */
export function storeHoldsWords(store: Pick<StoreLike, "memories">): string | null {
  if (store.memories === undefined) return null;
  if (store.memories === 0) return "empty";
  return `${store.memories.toLocaleString("en-US")} ${store.memories === 1 ? "memory" : "memories"}`;
}

/**
 * A picker's option: an embedded store with what it holds ("demo · 345 memories", "a · empty"),
 * a remote one marked remote with its reachability ("mem0 (remote, unreachable)").
 */
export function storeOptionLabel(store: StoreLike): string {
  if (store.kind === "remote") return `${store.label} ${store.health?.ok === false ? "(remote, unreachable)" : "(remote)"}`;
  const holds = storeHoldsWords(store);
  return holds ? `${store.label} · ${holds}` : store.label;
}

/**
 * The store a page opens with: the one the API marks `default` (where writes naming no store go),
 * else the oldest embedded store, else the first; "" while the list is not known.
 */
export function defaultStoreName(stores: readonly Pick<StoreLike, "name" | "kind" | "default">[] | undefined): string {
  if (!stores) return "";
  return (stores.find((s) => s.default) ?? stores.find((s) => s.kind === "embedded") ?? stores[0])?.name ?? "";
}

/** An embedded store known to hold nothing: it says so and offers import, never demo queries. */
export function isEmptyStore(store: Pick<StoreLike, "kind" | "memories"> | undefined): boolean {
  return store?.kind === "embedded" && store.memories === 0;
}

/** How many of a set's relevant ids are listed by name before a run. */
export const MISSING_IDS_SHOWN = 5;

/**
 * Before a run: "12 of the set's relevant ids are not in store a: m1, m2, m3, m4, m5 and 7 more.", or null
 * when all are there (or the store could not be checked, e.g. a remote one).
 */
export function missingIdsLine(
  missing: { checked: boolean; count: number | null; ids: readonly string[] } | undefined,
  store: string,
): string | null {
  if (!missing || !missing.checked || !missing.count) return null;
  const shown = missing.ids.slice(0, MISSING_IDS_SHOWN);
  const rest = missing.count - shown.length;
  const more = rest > 0 ? ` and ${rest.toLocaleString("en-US")} more` : "";
  const subject =
    missing.count === 1
      ? "1 of the set's relevant ids is"
      : `${missing.count.toLocaleString("en-US")} of the set's relevant ids are`;
  return `${subject} not in store ${store}${shown.length ? `: ${shown.join(", ")}${more}` : ""}.`;
}
