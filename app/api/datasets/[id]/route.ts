import { z } from "zod";
import { ApiError } from "@/lib/api/errors";
import { apiRoute, methodNotAllowed } from "@/lib/api/route";
import { getPrisma } from "@/lib/db";
import { findDataset } from "@/lib/eval/datasets";

export const dynamic = "force-dynamic";

const Params = z.object({ id: z.uuid("a set id is a UUID") });

/** One labeled query set with its items. */
export const GET = apiRoute({ params: Params }, async ({ params }) => {
  const dataset = await findDataset(await getPrisma(), params.id);
  if (!dataset) throw ApiError.notFound(`Set ${params.id}`);
  return dataset;
});

// Other methods answer 405 in the envelope.
export const POST = methodNotAllowed(["GET"]);
export const PUT = methodNotAllowed(["GET"]);
export const PATCH = methodNotAllowed(["GET"]);
export const DELETE = methodNotAllowed(["GET"]);
