import { z } from "zod";
import { apiRoute, methodNotAllowed } from "@/lib/api/route";
import { getPrisma } from "@/lib/db";
import { assignStoreProfile } from "@/lib/profiles";
import { storeNames } from "@/lib/stores/registry";
import { ApiError } from "@/lib/api/errors";
import { withInputRules } from "@/lib/validation/input-rules";

export const dynamic = "force-dynamic";

const Params = z.object({ name: z.string().min(1).max(100) });
const Body = withInputRules(z.strictObject({ profile: z.string().min(1).max(64) }));

/** Which threshold profile a store's levels are judged with: `{profile}` → `{store, profile}`. */
export const PUT = apiRoute({ params: Params, body: Body }, async ({ params, body }) => {
  if (!(await storeNames()).includes(params.name)) throw ApiError.notFound(`Store "${params.name}"`);
  const profile = await assignStoreProfile(await getPrisma(), params.name, body.profile);
  return { store: params.name, profile: profile.name };
});

// Other methods answer 405 in the envelope.
export const GET = methodNotAllowed(["PUT"]);
export const POST = methodNotAllowed(["PUT"]);
export const PATCH = methodNotAllowed(["PUT"]);
export const DELETE = methodNotAllowed(["PUT"]);
