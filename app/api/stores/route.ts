import { NextResponse } from "next/server";
import { apiRoutes } from "@/lib/api/server/route";
import { getPrisma } from "@/lib/db/server";
import { newStoreView, storeOverview } from "@/lib/profiles/server/store-overview";
import { createEmbeddedStore } from "@/lib/stores/server/registry";
import { CreateStoreInputSchema } from "@/lib/stores/store-schemas";

export const dynamic = "force-dynamic";

export const { GET, POST, PUT, PATCH, DELETE } = apiRoutes({
  /**
   * Every store, embedded and remote alike: `kind`, `memories` (embedded), `embedding_model`, the
   * threshold `profile`, the reachability of a remote one, whether it can rerank, and its
   * `calibration` without labels (lib/profiles/README.md "Calibration without labels").
   */
  GET: {
    scope: "read",
    handler: async () => ({ stores: await storeOverview(await getPrisma()) }),
  },
  /** `{name, description?}` → 201 with the new, empty embedded store; 409 when the name is taken. */
  POST: {
    scope: "full",
    body: CreateStoreInputSchema,
    handler: async ({ body }) => {
      const store = await createEmbeddedStore(body);
      return NextResponse.json(await newStoreView(await getPrisma(), store), { status: 201 });
    },
  },
});
