import { z } from "zod";
import { apiRoutes } from "@/lib/api/route";
import { getPrisma } from "@/lib/db";
import { assignStoreProfile } from "@/lib/profiles";
import { storeNames } from "@/lib/stores/registry";
import { ApiError } from "@/lib/api/errors";
import { withInputRules } from "@/lib/validation/input-rules";

export const dynamic = "force-dynamic";

const Params = z.object({ name: z.string().min(1).max(100) });
const Body = withInputRules(z.strictObject({ profile: z.string().min(1).max(64) }));

export const { GET, POST, PUT, PATCH, DELETE } = apiRoutes({
  /** Which threshold profile a store's levels are judged with: `{profile}` → `{store, profile}`. */
  PUT: {
    scope: "full",
    params: Params,
    body: Body,
    handler: async ({ params, body }) => {
      if (!(await storeNames()).includes(params.name)) throw ApiError.notFound(`Store "${params.name}"`);
      const profile = await assignStoreProfile(await getPrisma(), params.name, body.profile);
      return { store: params.name, profile: profile.name };
    },
  },
});
