import { apiRoutes } from "@/lib/api/server/route";
import { getEmbeddedStore } from "@/lib/stores/server/embedded";
import { StoreQueryInputSchema } from "@/lib/stores/store-schemas";

export const dynamic = "force-dynamic";

export const { GET, POST, PUT, PATCH, DELETE } = apiRoutes({
  /** Embeds again every memory of the store `?store=` (without one, the default store) whose vector is missing or from another model than the app's. */
  POST: {
    scope: "full",
    query: StoreQueryInputSchema,
    handler: async ({ query }) => (await getEmbeddedStore(query.store)).reembed(),
  },
});
