import { z } from "zod";
import { ApiError } from "@/lib/api/errors";
import { apiRoute, methodNotAllowed } from "@/lib/api/route";
import { getEmbeddedStore } from "@/lib/stores/embedded";

export const dynamic = "force-dynamic";

const Params = z.object({ id: z.string().min(1).max(200) });

export const GET = apiRoute({ params: Params }, async ({ params }) => {
  const memory = await (await getEmbeddedStore()).memories.get(params.id);
  if (!memory) throw ApiError.notFound(`Memory ${params.id}`);
  return memory;
});

export const DELETE = apiRoute({ params: Params }, async ({ params }) => {
  const deleted = await (await getEmbeddedStore()).delete(params.id);
  if (!deleted) throw ApiError.notFound(`Memory ${params.id}`);
  return { deleted: params.id };
});

// Other methods answer 405 in the envelope.
export const POST = methodNotAllowed(["GET", "DELETE"]);
export const PUT = methodNotAllowed(["GET", "DELETE"]);
export const PATCH = methodNotAllowed(["GET", "DELETE"]);
