/**
 * Saved views in the database (table `saved_views`, lib/saved-views/README.md "Saved views"). A name
 * is unique per page: saving under a name that exists replaces its filters (and says so).
 */
import type { PrismaClient, SavedView as SavedViewRow } from "@prisma/client";
import { randomUUID } from "node:crypto";
import { savedViewHref, type SavedView, type SavedViewInput, type SavedViewPage } from "../schema";

function toView(row: SavedViewRow): SavedView {
  const page = row.page as SavedViewPage;
  return {
    id: row.id,
    page,
    name: row.name,
    params: row.params,
    href: savedViewHref(page, row.params),
    created_at: row.createdAt.toISOString(),
    updated_at: row.updatedAt.toISOString(),
  };
}

/** Every view (of one page), by name. */
export async function listSavedViews(prisma: PrismaClient, page?: SavedViewPage): Promise<SavedView[]> {
  const rows = await prisma.savedView.findMany({ where: page ? { page } : {}, orderBy: [{ page: "asc" }, { name: "asc" }] });
  return rows.map(toView);
}

export async function findSavedView(prisma: PrismaClient, id: string): Promise<SavedView | null> {
  const row = await prisma.savedView.findUnique({ where: { id } });
  return row ? toView(row) : null;
}

/** Saves a view; an existing name on the same page gets the new filters (`created: false`). */
export async function saveView(prisma: PrismaClient, input: SavedViewInput): Promise<{ view: SavedView; created: boolean }> {
  const existing = await prisma.savedView.findUnique({ where: { page_name: { page: input.page, name: input.name } } });
  // One statement either way, so two saves under one name cannot both insert (the unique index decides).
  const row = await prisma.savedView.upsert({
    where: { page_name: { page: input.page, name: input.name } },
    create: { id: randomUUID(), page: input.page, name: input.name, params: input.params },
    update: { params: input.params },
  });
  return { view: toView(row), created: !existing };
}

/** Deletes a view; false when there was none. */
export async function deleteSavedView(prisma: PrismaClient, id: string): Promise<boolean> {
  const { count } = await prisma.savedView.deleteMany({ where: { id } });
  return count > 0;
}
