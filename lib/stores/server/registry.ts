import "server-only";
import { readRerankConfig } from "@/lib/rerank/config";
import type { EmbeddedStore } from "./embedded/embedded-store";
import { getEmbeddedStore, getEmbeddedStores } from "./embedded/index";
import type { EmbeddedStoreRow } from "./embedded/store-catalog";
import { unknownStore } from "./embedded/stores";
import { getRemoteStores } from "./remote";
import type { CreateStoreBody } from "../store-schemas";
import { StoreError, type MemoryStore } from "../types";

/** A store the console can recall from, embedded or remote. */
export interface StoreInfo {
  name: string;
  kind: "embedded" | "remote";
  label: string;
  description: string;
  /** Memories it holds (embedded stores; a remote service does not say). */
  memories?: number;
  /** The embedder its memories were embedded with (embedded stores). */
  embedding_model?: string | null;
  /** The store writes naming none go to, and the console opens with (embedded only). */
  default?: boolean;
}

const EMBEDDED_DESCRIPTION = "Memories in this app's database, embedded here; the whole candidate pool is visible.";

/** The embedded stores (oldest first, with their sizes), then the remote stores configured by environment. */
export async function listStores(): Promise<StoreInfo[]> {
  const stores = await getEmbeddedStores();
  const [rows, counts, defaultName] = await Promise.all([
    stores.catalog.list(),
    stores.catalog.counts(),
    stores.catalog.defaultStore(),
  ]);
  const embedded = rows.map((row) => embeddedStoreInfo(row, counts.get(row.name) ?? 0, row.name === defaultName));
  return [...embedded, ...getRemoteStores().map((store) => store.info())];
}

/** An `embedded_stores` row as the store pickers show it. */
function embeddedStoreInfo(row: EmbeddedStoreRow, memories: number, isDefault: boolean): StoreInfo {
  return {
    name: row.name,
    kind: "embedded",
    label: row.name,
    description: row.description ?? EMBEDDED_DESCRIPTION,
    memories,
    embedding_model: row.embeddingModel,
    default: isDefault,
  };
}

/** Every store name there is now: the embedded stores' and the configured remote ones'. */
export async function storeNames(): Promise<string[]> {
  const rows = await (await getEmbeddedStores()).catalog.list();
  return [...rows.map((r) => r.name), ...getRemoteStores().map((s) => s.name)];
}

/**
 * The store named `name`: a configured remote store, else an embedded store (opened on first use).
 * @throws StoreError 404 `unknown_store` when there is neither.
 */
export async function resolveStore(name: string): Promise<MemoryStore> {
  const remote = getRemoteStores().find((store) => store.name === name);
  if (remote) return remote;
  try {
    return await getEmbeddedStore(name);
  } catch (error) {
    if (error instanceof StoreError && error.code === "unknown_store") throw unknownStore(name, await storeNames());
    throw error;
  }
}

/**
 * Whether a resolved store is an embedded one. By its `kind`, never `instanceof`: Next may load
 * the class in more than one bundle, and a store made in one is not an instance of the other's.
 */
export function isEmbeddedStore(store: MemoryStore): store is EmbeddedStore {
  return store.kind === "embedded";
}

/** Whether a name is a configured remote store's (an embedded store may not take it). */
export function isRemoteStoreName(name: string): boolean {
  return getRemoteStores().some((store) => store.name === name);
}

/**
 * Whether `use_rerank` can do anything on a store, for the console's Rerank box: an embedded
 * store reranks through the configured reranker (lib/recall/README.md "Explaining a ranking"),
 * a remote store passes the flag to its memory service, which decides.
 */
export interface RerankAvailability {
  available: boolean;
  /** Who reranks: this app's configured reranker, the remote memory service, or nobody. */
  by: "reranker" | "service" | null;
  model?: string;
}

export function rerankAvailability(store: Pick<StoreInfo, "kind">): RerankAvailability {
  if (store.kind === "remote") return { available: true, by: "service" };
  const config = readRerankConfig(process.env);
  return config ? { available: true, by: "reranker", model: config.model } : { available: false, by: null };
}

/** Reachability of each remote store, checked in parallel with a short timeout (for the store picker). */
export async function remoteStoreHealth(): Promise<Record<string, { ok: boolean; message?: string }>> {
  const entries = await Promise.all(
    getRemoteStores().map(async (store) => {
      const health = await store.health({ timeoutMs: 2_000 });
      return [store.name, health.ok ? { ok: true } : { ok: false, message: health.message }] as const;
    }),
  );
  return Object.fromEntries(entries);
}

/**
 * A new, empty embedded store. @throws StoreError 409 `store_exists` when an embedded or a remote
 * store already has the name.
 */
export async function createEmbeddedStore(body: CreateStoreBody): Promise<StoreInfo> {
  if (isRemoteStoreName(body.name))
    throw new StoreError(409, "store_exists", `"${body.name}" is the name of a configured remote store.`, { name: body.name });
  const stores = await getEmbeddedStores();
  const row = await stores.create(body);
  return embeddedStoreInfo(row, 0, (await stores.catalog.defaultStore()) === row.name);
}

/**
 * Deletes an embedded store with its memories (its logged recalls stay, naming a deleted store).
 * @throws StoreError 404 for an unknown store, 422 for a remote one (configured by environment).
 */
export async function deleteEmbeddedStore(name: string): Promise<{ deleted: string; memories: number }> {
  if (isRemoteStoreName(name))
    throw new StoreError(422, "remote_store", `"${name}" is a remote store, configured by environment; remove it there.`, {
      store: name,
    });
  const result = await (await getEmbeddedStores()).delete(name);
  if (!result.deleted) throw unknownStore(name, await storeNames());
  return { deleted: name, memories: result.memories };
}

/** Which of these store names (a History page's) were embedded stores that have been deleted. */
export async function deletedStoresAmong(names: readonly string[]): Promise<string[]> {
  return (await getEmbeddedStores()).catalog.deletedAmong([...new Set(names)]);
}

/** The default embedded store's name (StoreCatalog.defaultStore): what a request naming no store means. */
export async function defaultStoreName(): Promise<string> {
  return (await getEmbeddedStores()).catalog.defaultStore();
}

/**
 * The store a write names: in the query, in the body, or the same name in both. Two different
 * names are refused rather than one silently winning (docs/ARCHITECTURE.md "Bad input").
 */
export function storeNamedOnce(inQuery: string | undefined, inBody: string | undefined): string | undefined {
  if (inQuery && inBody && inQuery !== inBody)
    throw new StoreError(422, "validation_failed", `The query names store "${inQuery}" and the body "${inBody}"; name one.`, {
      query: inQuery,
      body: inBody,
    });
  return inQuery ?? inBody;
}
