import { ApiError } from "@/lib/api/errors";
import { apiRoutes } from "@/lib/api/server/route";
import { getPrisma } from "@/lib/db/server";
import { SavedViewParamsSchema } from "@/lib/saved-views/schema";
import { deleteSavedView, findSavedView } from "@/lib/saved-views/server/store";

export const dynamic = "force-dynamic";

export const { GET, POST, PUT, PATCH, DELETE } = apiRoutes({
  /** One saved view (its `href` opens it). */
  GET: {
    scope: "read",
    params: SavedViewParamsSchema,
    handler: async ({ params }) => {
      const view = await findSavedView(await getPrisma(), params.id);
      if (!view) throw ApiError.notFound(`Saved view ${params.id}`);
      return view;
    },
  },
  /** Deletes a view: `{ deleted: id }`, or 404 when there is none. */
  DELETE: {
    scope: "full",
    params: SavedViewParamsSchema,
    handler: async ({ params }) => {
      if (!(await deleteSavedView(await getPrisma(), params.id))) throw ApiError.notFound(`Saved view ${params.id}`);
      return { deleted: params.id };
    },
  },
});
