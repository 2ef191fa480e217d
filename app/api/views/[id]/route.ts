import { z } from "zod";
import { ApiError } from "@/lib/api/errors";
import { apiRoute, methodNotAllowed } from "@/lib/api/route";
import { getPrisma } from "@/lib/db";
import { deleteSavedView, findSavedView } from "@/lib/saved-views/store";

export const dynamic = "force-dynamic";

const Params = z.object({ id: z.uuid("a view id is a UUID") });

/** One saved view (its `href` opens it). */
export const GET = apiRoute({ params: Params }, async ({ params }) => {
  const view = await findSavedView(await getPrisma(), params.id);
  if (!view) throw ApiError.notFound(`Saved view ${params.id}`);
  return view;
});

/** Deletes a view: `{ deleted: id }`, or 404 when there is none. */
export const DELETE = apiRoute({ params: Params }, async ({ params }) => {
  if (!(await deleteSavedView(await getPrisma(), params.id))) throw ApiError.notFound(`Saved view ${params.id}`);
  return { deleted: params.id };
});

// Other methods answer 405 in the envelope.
export const POST = methodNotAllowed(["GET", "DELETE"]);
export const PUT = methodNotAllowed(["GET", "DELETE"]);
export const PATCH = methodNotAllowed(["GET", "DELETE"]);
