import { NextResponse } from "next/server";
import { apiRoutes } from "@/lib/api/route";
import { getPrisma } from "@/lib/db";
import { storeProfileNames } from "@/lib/profiles";
import { createEmbeddedStore, listStores, remoteStoreHealth, rerankAvailability } from "@/lib/stores/registry";
import { CreateStoreInputSchema } from "@/lib/stores/store-schemas";

export const dynamic = "force-dynamic";

export const { GET, POST, PUT, PATCH, DELETE } = apiRoutes({
  /**
   * Every store, embedded and remote alike: `kind`, `memories` (embedded), `embedding_model`, the
   * threshold `profile`, the reachability of a remote one and whether it can rerank.
   */
  GET: {
    scope: "read",
    handler: async () => {
      const stores = await listStores();
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
