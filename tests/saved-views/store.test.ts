import { PrismaClient } from "@prisma/client";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { SavedViewInputSchema } from "@/lib/saved-views/schema";
import { deleteSavedView, findSavedView, listSavedViews, saveView } from "@/lib/saved-views/server/store";
import { DATABASE_KINDS, migratedDatabase, type MigratedDatabase } from "../support/databases";

/** Saved views in the database, on both kinds: save, replace by name, list per page, open, delete. */
describe.each(DATABASE_KINDS)("saved views on %s", (kind) => {
  let database: MigratedDatabase | undefined;
  let prisma: PrismaClient;

  beforeAll(async () => {
    database = await migratedDatabase(kind);
    prisma = database.prisma;
  });
  afterAll(async () => {
    await database?.close();
  });

  const input = (page: string, name: string, params: string) => SavedViewInputSchema.parse({ page, name, params });

  it("saves, replaces a name's filters, lists per page by name, opens and deletes", async () => {
    const a = await saveView(prisma, input("history", "Weak on prod", "?store=prod&level=low,none"));
    expect(a.created).toBe(true);
    expect(a.view).toMatchObject({ page: "history", name: "Weak on prod", params: "store=prod&level=low,none" });
    expect(a.view.href).toBe("/recalls?store=prod&level=low,none");
    // The same name on the other page is another view.
    const b = await saveView(prisma, input("insights", "Weak on prod", "range=7d&store=prod"));
    expect(b.created).toBe(true);
    expect(b.view.href).toBe("/insights?range=7d&store=prod");
    await saveView(prisma, input("history", "All failures", "status=error"));

    // The same name on the same page replaces its filters, keeping its id (its link stays valid).
    const again = await saveView(prisma, input("history", "Weak on prod", "store=prod&level=none"));
    expect(again.created).toBe(false);
    expect(again.view.id).toBe(a.view.id);
    expect(again.view.params).toBe("store=prod&level=none");

    expect((await listSavedViews(prisma, "history")).map((v) => v.name)).toEqual(["All failures", "Weak on prod"]);
    expect((await listSavedViews(prisma, "insights")).map((v) => v.id)).toEqual([b.view.id]);
    expect(await listSavedViews(prisma)).toHaveLength(3);

    expect((await findSavedView(prisma, a.view.id))?.params).toBe("store=prod&level=none");
    expect(await deleteSavedView(prisma, a.view.id)).toBe(true);
    expect(await deleteSavedView(prisma, a.view.id)).toBe(false);
    expect(await findSavedView(prisma, a.view.id)).toBeNull();
  });

  it("two saves under one new name at once make one view", async () => {
    const results = await Promise.allSettled(
      Array.from({ length: 4 }, (_, i) => saveView(prisma, input("history", "Raced", `q=${i}`))),
    );
    expect(results.some((r) => r.status === "fulfilled")).toBe(true);
    expect((await listSavedViews(prisma, "history")).filter((v) => v.name === "Raced")).toHaveLength(1);
  });
});
