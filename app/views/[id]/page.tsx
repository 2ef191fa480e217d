import { notFound, redirect } from "next/navigation";
import { getPrisma } from "@/lib/db";
import { findSavedView } from "@/lib/saved-views/store";

export const dynamic = "force-dynamic";

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** `/views/{id}`: a saved view's own link, which opens its page with its filters. */
export default async function SavedViewPage({ params }: { params: Promise<{ id: string }> }) {
  const { id } = await params;
  const view = UUID.test(id) ? await findSavedView(await getPrisma(), id.toLowerCase()) : null;
  if (!view) notFound();
  redirect(view.href);
}
