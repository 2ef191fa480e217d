import { ApiError } from "@/lib/api/errors";
import { apiRoutes } from "@/lib/api/server/route";
import { getPrisma } from "@/lib/db/server";
import { assignStoreProfile } from "@/lib/profiles/server";
import { storeNames } from "@/lib/stores/server/registry";
import { StoreProfileBodySchema, StoreProfileParamsSchema } from "@/lib/stores/store-schemas";

export const dynamic = "force-dynamic";

export const { GET, POST, PUT, PATCH, DELETE } = apiRoutes({
  /** Which threshold profile a store's levels are judged with: `{profile}` → `{store, profile}`. */
  PUT: {
    scope: "full",
    params: StoreProfileParamsSchema,
    body: StoreProfileBodySchema,
    handler: async ({ params, body }) => {
      if (!(await storeNames()).includes(params.name)) throw ApiError.notFound(`Store "${params.name}"`);
      const profile = await assignStoreProfile(await getPrisma(), params.name, body.profile);
      return { store: params.name, profile: profile.name };
    },
  },
});
