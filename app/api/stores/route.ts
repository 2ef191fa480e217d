import { apiRoute } from "@/lib/api/route";
import { listStores, remoteStoreHealth } from "@/lib/stores/registry";

export const dynamic = "force-dynamic";

/** The stores the console can recall from, with the reachability of each remote one. */
export const GET = apiRoute({}, async () => {
  const health = await remoteStoreHealth();
  return { stores: listStores().map((store) => ({ ...store, health: store.kind === "remote" ? health[store.name] : { ok: true } })) };
});
