import { z } from "zod";
import { ApiError } from "@/lib/api/errors";
import { apiRoutes } from "@/lib/api/route";
import { getEmbeddedStore } from "@/lib/stores/embedded";
import { StoreQuerySchema } from "@/lib/stores/store-schemas";
import { withInputRules } from "@/lib/validation/input-rules";

export const dynamic = "force-dynamic";

const Params = z.object({ id: z.string().min(1).max(200) });

const Query = withInputRules(StoreQuerySchema);

export const { GET, POST, PUT, PATCH, DELETE } = apiRoutes({
  /** One memory of the embedded store `?store=` (without one, the default store). */
  GET: {
    scope: "read",
    params: Params,
    query: Query,
    handler: async ({ params, query }) => {
      const memory = await (await getEmbeddedStore(query.store)).memories.get(params.id);
      if (!memory) throw ApiError.notFound(`Memory ${params.id}`);
      return memory;
    },
  },
  DELETE: {
    scope: "full",
    params: Params,
    query: Query,
    handler: async ({ params, query }) => {
      const deleted = await (await getEmbeddedStore(query.store)).delete(params.id);
      if (!deleted) throw ApiError.notFound(`Memory ${params.id}`);
      return { deleted: params.id };
    },
  },
});
