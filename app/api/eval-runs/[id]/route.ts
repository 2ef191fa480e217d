import { z } from "zod";
import { ApiError } from "@/lib/api/errors";
import { apiRoute, methodNotAllowed } from "@/lib/api/route";
import { getPrisma } from "@/lib/db";
import { evalRunReport } from "@/lib/eval/runs";

export const dynamic = "force-dynamic";

const Params = z.object({ id: z.uuid("a run id is a UUID") });

/** A run: status, progress, settings, metrics over the queries done so far, and its items. */
export const GET = apiRoute({ params: Params }, async ({ params }) => {
  const report = await evalRunReport(await getPrisma(), params.id);
  if (!report) throw ApiError.notFound(`Evaluation run ${params.id}`);
  return report;
});

// Other methods answer 405 in the envelope.
export const POST = methodNotAllowed(["GET"]);
export const PUT = methodNotAllowed(["GET"]);
export const PATCH = methodNotAllowed(["GET"]);
export const DELETE = methodNotAllowed(["GET"]);
