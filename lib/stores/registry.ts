import "server-only";
import { readRerankConfig } from "@/lib/rerank/config";
import { getEmbeddedStore } from "./embedded/index";
import { getRemoteStores } from "./remote";
import { StoreError, type MemoryStore } from "./types";

/** A store the console can recall from. */
export interface StoreInfo {
  name: string;
  kind: "embedded" | "remote";
  label: string;
  description: string;
}

export const EMBEDDED_STORE_INFO: StoreInfo = {
  name: "embedded",
  kind: "embedded",
  label: "Embedded",
  description: "Memories in this app's database, embedded with USE-lite; the whole candidate pool is visible.",
};

/** The embedded store, then the remote stores configured by environment (REMOTE_STORES, REMOTE_STORE_*). */
export function listStores(): StoreInfo[] {
  return [EMBEDDED_STORE_INFO, ...getRemoteStores().map((store) => store.info())];
}

export async function resolveStore(name: string): Promise<MemoryStore> {
  if (name === EMBEDDED_STORE_INFO.name) return getEmbeddedStore();
  const remote = getRemoteStores().find((store) => store.name === name);
  if (remote) return remote;
  throw new StoreError(
    422,
    "unknown_store",
    `There is no store named "${name}"; the configured stores are: ${listStores()
      .map((s) => s.name)
      .join(", ")}.`,
    {
      stores: listStores().map((s) => s.name),
    },
  );
}

/**
 * Whether `use_rerank` can do anything on a store, for the console's Rerank box: the embedded
 * store reranks through the configured reranker (docs/ARCHITECTURE.md "Explaining a ranking"),
 * a remote store passes the flag to its memory service, which decides.
 */
export interface RerankAvailability {
  available: boolean;
  /** Who reranks: this app's configured reranker, the remote memory service, or nobody. */
  by: "reranker" | "service" | null;
  model?: string;
}

export function rerankAvailability(store: StoreInfo): RerankAvailability {
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
