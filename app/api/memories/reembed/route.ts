import { apiRoute, methodNotAllowed } from "@/lib/api/route";
import { getEmbeddedStore } from "@/lib/stores/embedded";

export const dynamic = "force-dynamic";

/** Embeds again every memory whose vector is missing or from another model than the app's. */
export const POST = apiRoute({}, async () => (await getEmbeddedStore()).reembed());

// Other methods answer 405 in the envelope.
export const GET = methodNotAllowed(["POST"]);
export const PUT = methodNotAllowed(["POST"]);
export const PATCH = methodNotAllowed(["POST"]);
export const DELETE = methodNotAllowed(["POST"]);
