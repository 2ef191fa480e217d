import { z } from "zod";
import { ApiError } from "@/lib/api/errors";
import { apiRoutes } from "@/lib/api/route";
import { getEmbeddedStore } from "@/lib/stores/embedded";
import { StoreQuerySchema } from "@/lib/stores/store-schemas";
import { withInputRules } from "@/lib/validation/input-rules";
import type { MemoryNeighbours } from "@/lib/stores/memory-schemas";

export const dynamic = "force-dynamic";

const Params = z.object({ id: z.string().min(1).max(200) });
const Query = withInputRules(StoreQuerySchema.extend({ limit: z.coerce.number().int().min(1).max(50).default(10) }));

export const { GET, POST, PUT, PATCH, DELETE } = apiRoutes({
  /** The embedded store's (`?store=`) memories closest to this one by raw cosine (the exact scan recalls use). */
  GET: {
    scope: "read",
    params: Params,
    query: Query,
    handler: async ({ params, query }): Promise<MemoryNeighbours> => {
      const found = await (await getEmbeddedStore(query.store)).nearest(params.id, query.limit);
      if (!found) throw ApiError.notFound(`Memory ${params.id}`);
      return { memory_id: params.id, ...found };
    },
  },
});
