import { z } from "zod";
import { ApiError } from "@/lib/api/errors";
import { apiRoute, methodNotAllowed } from "@/lib/api/route";
import { getPrisma } from "@/lib/db";
import { explainMemory } from "@/lib/recall-log/why";

export const dynamic = "force-dynamic";

const Params = z.object({ id: z.uuid("a recall id is a UUID") });
const Query = z.object({ memory_id: z.string().min(1, "memory_id is required").max(200) });

/** Where one memory stood in this recall and the rule that kept it off the page (README "HTTP API"). */
export const GET = apiRoute({ params: Params, query: Query }, async ({ params, query }) => {
  const outcome = await explainMemory(await getPrisma(), params.id, query.memory_id);
  if (outcome.kind === "no_recall") throw ApiError.notFound(`Recall ${params.id}`);
  if (outcome.kind === "unknown_memory") {
    throw new ApiError(404, "not_found", `"${query.memory_id}" is not a memory of the store "${outcome.store}".`, {
      memory_id: query.memory_id,
      store: outcome.store,
    });
  }
  return outcome.answer;
});

// Other methods answer 405 in the envelope.
export const POST = methodNotAllowed(["GET"]);
export const PUT = methodNotAllowed(["GET"]);
export const PATCH = methodNotAllowed(["GET"]);
export const DELETE = methodNotAllowed(["GET"]);
