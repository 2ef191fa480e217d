import { z } from "zod";
import { apiRoute, methodNotAllowed } from "@/lib/api/route";
import { deleteEmbeddedStore } from "@/lib/stores/registry";
import { StoreNameSchema } from "@/lib/stores/store-schemas";

export const dynamic = "force-dynamic";

const Params = z.object({ name: StoreNameSchema });

/**
 * Deletes an embedded store and its memories: `{deleted, memories}`. The recall log keeps the
 * store's recalls (History marks them "deleted store"); 404 for an unknown store.
 */
export const DELETE = apiRoute({ params: Params }, async ({ params }) => deleteEmbeddedStore(params.name));

// Other methods answer 405 in the envelope.
export const GET = methodNotAllowed(["DELETE"]);
export const POST = methodNotAllowed(["DELETE"]);
export const PUT = methodNotAllowed(["DELETE"]);
export const PATCH = methodNotAllowed(["DELETE"]);
