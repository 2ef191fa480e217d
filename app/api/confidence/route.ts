import { apiRoute, methodNotAllowed } from "@/lib/api/route";
import { computeConfidence } from "@/lib/recall/confidence";
import { ConfidenceRequestSchema } from "@/lib/recall/schemas";

export const dynamic = "force-dynamic";

/** Recomputes a confidence block for a given pool, optionally under another threshold profile. */
export const POST = apiRoute({ body: ConfidenceRequestSchema }, async ({ body }) =>
  computeConfidence({ hybridScores: body.hybrid_scores, semanticRaw: body.semantic_raw }, body.thresholds ?? undefined),
);

// Other methods answer 405 in the envelope.
export const GET = methodNotAllowed(["POST"]);
export const PUT = methodNotAllowed(["POST"]);
export const PATCH = methodNotAllowed(["POST"]);
export const DELETE = methodNotAllowed(["POST"]);
