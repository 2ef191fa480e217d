import { NextResponse } from "next/server";
import { apiRoutes } from "@/lib/api/server/route";
import { getPrisma } from "@/lib/db/server";
import { SavedViewInputSchema, SavedViewListQuerySchema } from "@/lib/saved-views/schema";
import { listSavedViews, saveView } from "@/lib/saved-views/server/store";

export const dynamic = "force-dynamic";

export const { GET, POST, PUT, PATCH, DELETE } = apiRoutes({
  /** Saved views, by name (`?page=history|insights` for one page's): `{ views }`. */
  GET: {
    scope: "read",
    query: SavedViewListQuerySchema,
    handler: async ({ query }) => ({
      views: await listSavedViews(await getPrisma(), query.page),
    }),
  },
  /** Saves `{page, name, params}`: 201 with the view when new, 200 when it replaced that name's filters. */
  POST: {
    scope: "full",
    body: SavedViewInputSchema,
    maxBodyBytes: 16_384,
    handler: async ({ body }) => {
      const { view, created } = await saveView(await getPrisma(), body);
      return NextResponse.json({ view, created }, { status: created ? 201 : 200 });
    },
  },
});
