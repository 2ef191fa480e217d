import { ApiError } from "@/lib/api/errors";
import { apiRoutes } from "@/lib/api/server/route";
import { getPrisma } from "@/lib/db/server";
import { RecallParamsSchema, RecallWhyQuerySchema } from "@/lib/recall-log/schemas";
import { explainMemory } from "@/lib/recall-log/server/why";

export const dynamic = "force-dynamic";

export const { GET, POST, PUT, PATCH, DELETE } = apiRoutes({
  /** Where one memory stood in this recall and the rule that kept it off the page (README "HTTP API"). */
  GET: {
    scope: "read",
    params: RecallParamsSchema,
    query: RecallWhyQuerySchema,
    handler: async ({ params, query }) => {
      const outcome = await explainMemory(await getPrisma(), params.id, query.memory_id);
      if (outcome.kind === "no_recall") throw ApiError.notFound(`Recall ${params.id}`);
      if (outcome.kind === "unknown_memory") {
        throw new ApiError(404, "not_found", `"${query.memory_id}" is not a memory of the store "${outcome.store}".`, {
          memory_id: query.memory_id,
          store: outcome.store,
        });
      }
      return outcome.answer;
    },
  },
});
