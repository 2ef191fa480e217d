import { ApiError } from "@/lib/api/errors";
import { apiRoutes } from "@/lib/api/server/route";
import { ApiKeyParamsSchema } from "@/lib/auth/schemas";
import { revokeApiKey } from "@/lib/auth/server/keys";
import { getPrisma } from "@/lib/db/server";

export const dynamic = "force-dynamic";

export const { GET, POST, PUT, PATCH, DELETE } = apiRoutes({
  /** Revokes a key: it is refused from the next request on, and stays listed as revoked. */
  DELETE: {
    scope: "person",
    params: ApiKeyParamsSchema,
    handler: async ({ params }) => {
      const outcome = await revokeApiKey(await getPrisma(), params.id);
      if (!outcome.ok) throw ApiError.notFound(`API key ${params.id}`);
      return { revoked: outcome.item };
    },
  },
});
