import { ndjsonResponse } from "@/lib/api/server/ndjson";
import { apiRoutes } from "@/lib/api/server/route";
import { getPrisma } from "@/lib/db/server";
import { WhatIfBodySchema } from "@/lib/profiles/schemas";
import { whatIfOf } from "@/lib/profiles/server/what-if";

export const dynamic = "force-dynamic";

/**
 * Levels of logged recalls recomputed under a profile — saved, edited live (`thresholds` over
 * the named profile's constants, or over the reference's without one), and `pool_size` over the
 * profile's — streamed as JSON Lines: `{type:"start", total}`, `{type:"progress", done, total}`
 * after each batch, then `{type:"result", total, before, after, flip_matrix, flips, truncated,
 * cancelled}`. Closing the request cancels it.
 */
export const { GET, POST, PUT, PATCH, DELETE } = apiRoutes({
  POST: {
    scope: "full",
    body: WhatIfBodySchema,
    handler: async ({ body, request }) => ndjsonResponse(await whatIfOf(await getPrisma(), body, request.signal), "what-if"),
  },
});
