import { apiRoute, methodNotAllowed } from "@/lib/api/route";
import { getEmbeddedStore } from "@/lib/stores/embedded";
import { StoreQuerySchema } from "@/lib/stores/store-schemas";
import { withInputRules } from "@/lib/validation/input-rules";

export const dynamic = "force-dynamic";

/** Embeds again every memory of the store `?store=` (without one, the default store) whose vector is missing or from another model than the app's. */
export const POST = apiRoute({ query: withInputRules(StoreQuerySchema) }, async ({ query }) =>
  (await getEmbeddedStore(query.store)).reembed(),
);

// Other methods answer 405 in the envelope.
export const GET = methodNotAllowed(["POST"]);
export const PUT = methodNotAllowed(["POST"]);
export const PATCH = methodNotAllowed(["POST"]);
export const DELETE = methodNotAllowed(["POST"]);
