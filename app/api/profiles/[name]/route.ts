import { z } from "zod";
import { apiRoute, methodNotAllowed } from "@/lib/api/route";
import { getPrisma } from "@/lib/db";
import { getProfile } from "@/lib/profiles";

export const dynamic = "force-dynamic";

const Params = z.object({ name: z.string().min(1).max(64) });

export const GET = apiRoute({ params: Params }, async ({ params }) => getProfile(await getPrisma(), params.name));

// Other methods answer 405 in the envelope.
export const POST = methodNotAllowed(["GET"]);
export const PUT = methodNotAllowed(["GET"]);
export const PATCH = methodNotAllowed(["GET"]);
export const DELETE = methodNotAllowed(["GET"]);
