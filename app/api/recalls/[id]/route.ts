import { z } from "zod";
import { ApiError } from "@/lib/api/errors";
import { apiRoute, methodNotAllowed } from "@/lib/api/route";
import { getPrisma } from "@/lib/db";
import { findRecall } from "@/lib/recall-log/repository";

export const dynamic = "force-dynamic";

const Params = z.object({ id: z.uuid("a recall id is a UUID") });

/** One logged recall, complete enough to redraw the console view. */
export const GET = apiRoute({ params: Params }, async ({ params }) => {
  const recall = await findRecall(await getPrisma(), params.id);
  if (!recall) throw ApiError.notFound(`Recall ${params.id}`);
  return recall;
});

// Other methods answer 405 in the envelope.
export const POST = methodNotAllowed(["GET"]);
export const PUT = methodNotAllowed(["GET"]);
export const PATCH = methodNotAllowed(["GET"]);
export const DELETE = methodNotAllowed(["GET"]);
