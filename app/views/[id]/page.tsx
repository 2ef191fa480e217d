import { notFound, redirect } from "next/navigation";
import { getPrisma } from "@/lib/db/server";
import { findSavedView } from "@/lib/saved-views/server/store";
import { isUuid } from "@/lib/validation/uuid";

export const dynamic = "force-dynamic";

/** `/views/{id}`: a saved view's own link, which opens its page with its filters. */
export default async function SavedViewPage({ params }: { params: Promise<{ id: string }> }) {
  const { id } = await params;
  const view = isUuid(id) ? await findSavedView(await getPrisma(), id.toLowerCase()) : null;
  if (!view) notFound();
  redirect(view.href);
}
