import { apiRoute, methodNotAllowed } from "@/lib/api/route";
import { getPrisma } from "@/lib/db";
import { storeProfileNames } from "@/lib/profiles";
import { listStores, remoteStoreHealth, rerankAvailability } from "@/lib/stores/registry";

export const dynamic = "force-dynamic";

/** The stores the console can recall from, with the reachability of each remote one, its threshold profile and whether it can rerank. */
export const GET = apiRoute({}, async () => {
  const stores = listStores();
  const [health, profiles] = await Promise.all([
    remoteStoreHealth(),
    storeProfileNames(
      await getPrisma(),
      stores.map((s) => s.name),
    ),
  ]);
  return {
    stores: stores.map((store) => ({
      ...store,
      health: store.kind === "remote" ? health[store.name] : { ok: true },
      profile: profiles[store.name],
      rerank: rerankAvailability(store),
    })),
  };
});

// Other methods answer 405 in the envelope.
export const POST = methodNotAllowed(["GET"]);
export const PUT = methodNotAllowed(["GET"]);
export const PATCH = methodNotAllowed(["GET"]);
export const DELETE = methodNotAllowed(["GET"]);
