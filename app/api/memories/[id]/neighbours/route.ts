import { z } from "zod";
import { ApiError } from "@/lib/api/errors";
import { apiRoute, methodNotAllowed } from "@/lib/api/route";
import { getEmbeddedStore } from "@/lib/stores/embedded";
import { StoreQuerySchema } from "@/lib/stores/store-schemas";
import { withInputRules } from "@/lib/validation/input-rules";
import type { MemoryNeighbours } from "@/lib/stores/memory-schemas";

export const dynamic = "force-dynamic";

const Params = z.object({ id: z.string().min(1).max(200) });
const Query = withInputRules(StoreQuerySchema.extend({ limit: z.coerce.number().int().min(1).max(50).default(10) }));

/** The embedded store's (`?store=`) memories closest to this one by raw cosine (the exact scan recalls use). */
export const GET = apiRoute({ params: Params, query: Query }, async ({ params, query }): Promise<MemoryNeighbours> => {
  const found = await (await getEmbeddedStore(query.store)).nearest(params.id, query.limit);
  if (!found) throw ApiError.notFound(`Memory ${params.id}`);
  return { memory_id: params.id, ...found };
});

// Other methods answer 405 in the envelope.
export const POST = methodNotAllowed(["GET"]);
export const PUT = methodNotAllowed(["GET"]);
export const PATCH = methodNotAllowed(["GET"]);
export const DELETE = methodNotAllowed(["GET"]);
