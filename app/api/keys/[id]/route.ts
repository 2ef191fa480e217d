import { z } from "zod";
import { ApiError } from "@/lib/api/errors";
import { apiRoute, methodNotAllowed } from "@/lib/api/route";
import { requirePerson } from "@/lib/auth/authorize";
import { revokeApiKey } from "@/lib/auth/keys";
import { getPrisma } from "@/lib/db";

export const dynamic = "force-dynamic";

const Params = z.object({ id: z.uuid() });

/** Revokes a key: it is refused from the next request on, and stays listed as revoked. */
export const DELETE = apiRoute({ params: Params }, async ({ params, principal }) => {
  requirePerson(principal);
  const outcome = await revokeApiKey(await getPrisma(), params.id);
  if (!outcome.ok) throw ApiError.notFound(`API key ${params.id}`);
  return { revoked: outcome.item };
});

// Other methods answer 405 in the envelope.
export const GET = methodNotAllowed(["DELETE"]);
export const POST = methodNotAllowed(["DELETE"]);
export const PUT = methodNotAllowed(["DELETE"]);
export const PATCH = methodNotAllowed(["DELETE"]);
