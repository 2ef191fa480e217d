import { apiRoute, methodNotAllowed } from "@/lib/api/route";
import { availableSelectors } from "@/lib/selectors";

export const dynamic = "force-dynamic";

/** The selector choices for the console: off, score gap, and the LLM when configured (with a hint when not). */
export const GET = apiRoute({}, async () => ({ selectors: availableSelectors(process.env) }));

// Other methods answer 405 in the envelope.
export const POST = methodNotAllowed(["GET"]);
export const PUT = methodNotAllowed(["GET"]);
export const PATCH = methodNotAllowed(["GET"]);
export const DELETE = methodNotAllowed(["GET"]);
