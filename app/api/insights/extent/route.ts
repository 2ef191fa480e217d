import { apiRoute, methodNotAllowed } from "@/lib/api/route";
import { getPrisma } from "@/lib/db";
import { logExtent } from "@/lib/insights/extent";

export const dynamic = "force-dynamic";

/** The first and last recall in the log (`{first, last}`, null when empty): Insights' default range fits them. */
export const GET = apiRoute({}, async () => logExtent(await getPrisma()));

// Other methods answer 405 in the envelope.
export const POST = methodNotAllowed(["GET"]);
export const PUT = methodNotAllowed(["GET"]);
export const PATCH = methodNotAllowed(["GET"]);
export const DELETE = methodNotAllowed(["GET"]);
