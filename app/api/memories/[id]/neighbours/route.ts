import { ApiError } from "@/lib/api/errors";
import { apiRoutes } from "@/lib/api/server/route";
import { MemoryNeighboursQuerySchema, MemoryParamsSchema, type MemoryNeighbours } from "@/lib/stores/memory-schemas";
import { getEmbeddedStore } from "@/lib/stores/server/embedded";

export const dynamic = "force-dynamic";

export const { GET, POST, PUT, PATCH, DELETE } = apiRoutes({
  /** The embedded store's (`?store=`) memories closest to this one by raw cosine (the exact scan recalls use). */
  GET: {
    scope: "read",
    params: MemoryParamsSchema,
    query: MemoryNeighboursQuerySchema,
    handler: async ({ params, query }): Promise<MemoryNeighbours> => {
      const found = await (await getEmbeddedStore(query.store)).nearest(params.id, query.limit);
      if (!found) throw ApiError.notFound(`Memory ${params.id}`);
      return { memory_id: params.id, ...found };
    },
  },
});
