import "server-only";
import type { PrismaClient } from "@prisma/client";
import { listStores, remoteStoreHealth, rerankAvailability, resolveStore, type StoreInfo } from "@/lib/stores/server/registry";
import { storeProfileNames, storesCalibration } from "./index";

/** One store as the list shows it, from what the registry and the profiles know of it. */
function storeView(store: StoreInfo, health: { ok: boolean; message?: string } | undefined, profile: string | undefined) {
  return { ...store, health, profile, rerank: rerankAvailability(store) };
}

/**
 * Every store as the store list shows it: what the registry knows, a remote one's reachability,
 * whether it can rerank, its threshold profile and its calibration without labels (an embedded
 * store that needs one starts it in the background; lib/profiles/README.md "Calibration without labels").
 * It lives with the profiles because stores sit below them and cannot name them.
 */
export async function storeOverview(prisma: PrismaClient) {
  const stores = await listStores();
  const names = stores.map((s) => s.name);
  const [health, profiles] = await Promise.all([remoteStoreHealth(), storeProfileNames(prisma, names)]);
  const calibration = await storesCalibration(prisma, stores, profiles, resolveStore);
  return stores.map((store) => ({
    ...storeView(store, store.kind === "remote" ? health[store.name] : { ok: true }, profiles[store.name]),
    calibration: calibration[store.name],
  }));
}

/** A store just created, as the store list will show it (no calibration yet: it has no memories). */
export async function newStoreView(prisma: PrismaClient, store: StoreInfo) {
  const profiles = await storeProfileNames(prisma, [store.name]);
  return storeView(store, { ok: true }, profiles[store.name]);
}
