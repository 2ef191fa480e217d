import { NextResponse } from "next/server";
import { apiRoutes } from "@/lib/api/server/route";
import { getPrisma } from "@/lib/db/server";
import { storeProfileNames, storesCalibration } from "@/lib/profiles/server";
import {
  createEmbeddedStore,
  listStores,
  remoteStoreHealth,
  rerankAvailability,
  resolveStore,
} from "@/lib/stores/server/registry";
import { CreateStoreInputSchema } from "@/lib/stores/store-schemas";

export const dynamic = "force-dynamic";

export const { GET, POST, PUT, PATCH, DELETE } = apiRoutes({
  /**
   * Every store, embedded and remote alike: `kind`, `memories` (embedded), `embedding_model`, the
   * threshold `profile`, the reachability of a remote one, whether it can rerank, and its
   * `calibration` without labels (lib/profiles/README.md "Calibration without labels"; an embedded store
   * that needs one starts it in the background).
   */
  GET: {
    scope: "read",
    handler: async () => {
      const stores = await listStores();
      const prisma = await getPrisma();
      const [health, profiles] = await Promise.all([
        remoteStoreHealth(),
        storeProfileNames(
          prisma,
          stores.map((s) => s.name),
        ),
      ]);
      const calibration = await storesCalibration(prisma, stores, profiles, resolveStore);
      return {
        stores: stores.map((store) => ({
          ...store,
          health: store.kind === "remote" ? health[store.name] : { ok: true },
          profile: profiles[store.name],
          rerank: rerankAvailability(store),
          calibration: calibration[store.name],
        })),
      };
    },
  },
  /** `{name, description?}` → 201 with the new, empty embedded store; 409 when the name is taken. */
  POST: {
    scope: "full",
    body: CreateStoreInputSchema,
    handler: async ({ body }) => {
      const store = await createEmbeddedStore(body);
      const profiles = await storeProfileNames(await getPrisma(), [store.name]);
      return NextResponse.json(
        { ...store, health: { ok: true }, profile: profiles[store.name], rerank: rerankAvailability(store) },
        { status: 201 },
      );
    },
  },
});
