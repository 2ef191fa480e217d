import { z } from "zod";
import { ApiError } from "@/lib/api/errors";
import { apiRoutes } from "@/lib/api/route";
import { revokeApiKey } from "@/lib/auth/keys";
import { getPrisma } from "@/lib/db";

export const dynamic = "force-dynamic";

const Params = z.object({ id: z.uuid() });

export const { GET, POST, PUT, PATCH, DELETE } = apiRoutes({
  /** Revokes a key: it is refused from the next request on, and stays listed as revoked. */
  DELETE: {
    scope: "person",
    params: Params,
    handler: async ({ params }) => {
      const outcome = await revokeApiKey(await getPrisma(), params.id);
      if (!outcome.ok) throw ApiError.notFound(`API key ${params.id}`);
      return { revoked: outcome.item };
    },
  },
});
