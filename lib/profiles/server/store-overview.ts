import "server-only";
import type { PrismaClient } from "@prisma/client";
import { ApiError } from "@/lib/api/errors";
import { listStores, remoteStoreHealth, rerankAvailability, resolveStore, type StoreInfo } from "@/lib/stores/server/registry";
import { storeProfile, storeProfileNames, storesCalibration } from "./index";
import { probeQueries } from "./probes";
import { startCalibration } from "./store-calibration";

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

/** Every store's calibration without labels and how many probe recalls one runs (`GET /api/profiles/calibrations`). */
export async function calibrationOverview(prisma: PrismaClient) {
  const stores = await listStores();
  const profiles = await storeProfileNames(
    prisma,
    stores.map((s) => s.name),
  );
  return { probe_recalls: probeQueries().length, calibrations: await storesCalibration(prisma, stores, profiles, resolveStore) };
}

/**
 * Starts a store's calibration on request. A remote store is calibrated only once the caller
 * names the number of recalls it will send to the service (409 `confirmation_required` until then).
 */
export async function calibrateOnRequest(prisma: PrismaClient, name: string, confirmRecalls: number | undefined) {
  const store = await resolveStore(name);
  const recalls = probeQueries().length;
  if (store.kind === "remote" && confirmRecalls !== recalls) {
    throw new ApiError(
      409,
      "confirmation_required",
      `Calibrating "${store.name}" sends ${recalls} recalls to its memory service (each one a query embedded and searched there). Send confirm_recalls: ${recalls} to start.`,
      { recalls },
    );
  }
  const info = (await listStores()).find((s) => s.name === store.name);
  const profile = await storeProfile(prisma, store.name);
  const calibration = await startCalibration(prisma, store, info?.memories ?? 0, profile.model ?? null);
  return { store: store.name, recalls, calibration };
}
