import { ApiError } from "@/lib/api/errors";
import { apiRoutes } from "@/lib/api/server/route";
import { getPrisma } from "@/lib/db/server";
import { LabelsPatchSchema } from "@/lib/recall-log/labels";
import { RecallParamsSchema } from "@/lib/recall-log/schemas";
import { saveRecallLabels } from "@/lib/recall-log/server/labels-store";

export const dynamic = "force-dynamic";

export const { GET, POST, PUT, PATCH, DELETE } = apiRoutes({
  /**
   * Saves relevance labels on a logged recall: `{present?, results?: {memory_id: true|false|null},
   * labeler?}`; only what is sent changes. Answers the recall's labels as stored.
   */
  PUT: {
    scope: "full",
    params: RecallParamsSchema,
    body: LabelsPatchSchema,
    maxBodyBytes: 200_000,
    handler: async ({ params, body }) => {
      const outcome = await saveRecallLabels(await getPrisma(), params.id, body);
      if (outcome.ok) return { id: params.id, labels: outcome.labels };
      if (outcome.reason === "not_found") throw ApiError.notFound(`Recall ${params.id}`);
      const { unknown } = outcome;
      const shown = unknown
        .slice(0, 5)
        .map((u) => JSON.stringify(u))
        .join(", ");
      throw new ApiError(
        422,
        "unknown_memory_ids",
        `${unknown.length === 1 ? "1 labeled memory id is" : `${unknown.length} labeled memory ids are`} neither a result nor a candidate of this recall: ${shown}${unknown.length > 5 ? ", …" : ""}. Label only memories the recall returned or ranked; nothing was saved.`,
        { unknown_ids: unknown.slice(0, 100), unknown_count: unknown.length },
      );
    },
  },
});
