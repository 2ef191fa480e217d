import { ApiError } from "@/lib/api/errors";
import { apiRoutes } from "@/lib/api/server/route";
import { MemoryParamsSchema } from "@/lib/stores/memory-schemas";
import { getEmbeddedStore } from "@/lib/stores/server/embedded";
import { StoreQueryInputSchema } from "@/lib/stores/store-schemas";

export const dynamic = "force-dynamic";

export const { GET, POST, PUT, PATCH, DELETE } = apiRoutes({
  /** One memory of the embedded store `?store=` (without one, the default store). */
  GET: {
    scope: "read",
    params: MemoryParamsSchema,
    query: StoreQueryInputSchema,
    handler: async ({ params, query }) => {
      const memory = await (await getEmbeddedStore(query.store)).memories.get(params.id);
      if (!memory) throw ApiError.notFound(`Memory ${params.id}`);
      return memory;
    },
  },
  DELETE: {
    scope: "full",
    params: MemoryParamsSchema,
    query: StoreQueryInputSchema,
    handler: async ({ params, query }) => {
      const deleted = await (await getEmbeddedStore(query.store)).delete(params.id);
      if (!deleted) throw ApiError.notFound(`Memory ${params.id}`);
      return { deleted: params.id };
    },
  },
});
