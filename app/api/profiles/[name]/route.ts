import { apiRoutes } from "@/lib/api/server/route";
import { getPrisma } from "@/lib/db/server";
import { ProfileParamsSchema } from "@/lib/profiles/schemas";
import { getProfile } from "@/lib/profiles/server";

export const dynamic = "force-dynamic";

export const { GET, POST, PUT, PATCH, DELETE } = apiRoutes({
  /** One profile, built-in or saved; 404 for an unknown name. */
  GET: { scope: "read", params: ProfileParamsSchema, handler: async ({ params }) => getProfile(await getPrisma(), params.name) },
});
