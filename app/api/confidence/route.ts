import { apiRoutes } from "@/lib/api/server/route";
import { computeConfidence } from "@/lib/recall/confidence";
import { ConfidenceRequestSchema } from "@/lib/recall/schemas";

export const dynamic = "force-dynamic";

export const { GET, POST, PUT, PATCH, DELETE } = apiRoutes({
  /** Recomputes a confidence block for a given pool, optionally under another threshold profile. */
  POST: {
    scope: "full",
    body: ConfidenceRequestSchema,
    handler: async ({ body }) =>
      computeConfidence({ hybridScores: body.hybrid_scores, semanticRaw: body.semantic_raw }, body.thresholds ?? undefined),
  },
});
