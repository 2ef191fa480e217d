import { apiRoute, methodNotAllowed } from "@/lib/api/route";
import { getEmbeddedStore } from "@/lib/stores";
import { MemoryLookupQuerySchema, type MemoryLookup } from "@/lib/stores/memory-schemas";

export const dynamic = "force-dynamic";

/**
 * Which of these ids (`?ids=a,b,c`) the embedded store still holds: how an old recall marks the
 * memories deleted since it ran.
 */
export const GET = apiRoute({ query: MemoryLookupQuerySchema }, async ({ query }): Promise<MemoryLookup> => {
  const found = await (await getEmbeddedStore()).memories.existing(query.ids);
  return { found: query.ids.filter((id) => found.has(id)), missing: query.ids.filter((id) => !found.has(id)) };
});

// Other methods answer 405 in the envelope.
export const POST = methodNotAllowed(["GET"]);
export const PUT = methodNotAllowed(["GET"]);
export const PATCH = methodNotAllowed(["GET"]);
export const DELETE = methodNotAllowed(["GET"]);
