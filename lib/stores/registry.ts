import "server-only";
import { getEmbeddedStore } from "./index";
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

export function listStores(): StoreInfo[] {
  return [EMBEDDED_STORE_INFO];
}

export async function resolveStore(name: string): Promise<MemoryStore> {
  if (name === EMBEDDED_STORE_INFO.name) return getEmbeddedStore();
  throw new StoreError(422, "unknown_store", `There is no store named "${name}"; the configured stores are: ${listStores().map((s) => s.name).join(", ")}.`, {
    stores: listStores().map((s) => s.name),
  });
}
