import { NextResponse } from "next/server";
import { apiRoute, methodNotAllowed } from "@/lib/api/route";
import { getPrisma } from "@/lib/db";
import { SavedViewInputSchema, SavedViewListQuerySchema } from "@/lib/saved-views/schema";
import { listSavedViews, saveView } from "@/lib/saved-views/store";

export const dynamic = "force-dynamic";

/** Saved views, by name (`?page=history|insights` for one page's): `{ views }`. */
export const GET = apiRoute({ query: SavedViewListQuerySchema }, async ({ query }) => ({
  views: await listSavedViews(await getPrisma(), query.page),
}));

/** Saves `{page, name, params}`: 201 with the view when new, 200 when it replaced that name's filters. */
export const POST = apiRoute({ body: SavedViewInputSchema, maxBodyBytes: 16_384 }, async ({ body }) => {
  const { view, created } = await saveView(await getPrisma(), body);
  return NextResponse.json({ view, created }, { status: created ? 201 : 200 });
});

// Other methods answer 405 in the envelope.
export const PUT = methodNotAllowed(["GET", "POST"]);
export const PATCH = methodNotAllowed(["GET", "POST"]);
export const DELETE = methodNotAllowed(["GET", "POST"]);
