import { Prisma, type PrismaClient } from "@prisma/client";
import { randomUUID } from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import { parseItems, type DatasetDetail, type DatasetItemInput, type DatasetSummary } from "../dataset-schemas";

/**
 * Labeled query sets in the database (lib/eval/README.md "Evaluation"). A set is written in
 * one transaction, so an upload is stored whole or not at all.
 */

export type DatasetOrigin = DatasetSummary["origin"];

/** A set already has this name (names are unique: `datasets_name_key`). */
export class DuplicateSetNameError extends Error {
  override readonly name = "DuplicateSetNameError";
  constructor(
    readonly setName: string,
    readonly existingId: string | null,
  ) {
    super(`A set named "${setName}" already exists; choose another name.`);
  }
}

/**
 * PostgreSQL's unique_violation as it reaches us: Prisma's P2002 through `@prisma/adapter-pg`,
 * the database's own error (code 23505) as the cause of the PGlite adapter's DriverAdapterError.
 */
function isUniqueViolation(error: unknown): boolean {
  if (error instanceof Prisma.PrismaClientKnownRequestError && error.code === "P2002") return true;
  const cause = (error as { cause?: { code?: unknown } } | null)?.cause;
  return typeof cause === "object" && cause !== null && cause.code === "23505";
}

/**
 * Creates a set from checked items; the caller validated them (parseItems / parseJsonLines).
 * A name already taken is a {@link DuplicateSetNameError}: the unique index decides, so two
 * uploads racing for one name store one set.
 */
export async function createDataset(
  prisma: PrismaClient,
  input: { store: string; name: string; items: readonly DatasetItemInput[]; origin?: DatasetOrigin },
): Promise<{ id: string; count: number }> {
  const id = randomUUID();
  const name = input.name.trim();
  try {
    await insertDataset(prisma, id, name, input);
  } catch (error) {
    if (!isUniqueViolation(error)) throw error;
    const existing = await prisma.dataset.findUnique({
      where: { store_name: { store: input.store, name } },
      select: { id: true },
    });
    throw new DuplicateSetNameError(name, existing?.id ?? null);
  }
  return { id, count: input.items.length };
}

async function insertDataset(
  prisma: PrismaClient,
  id: string,
  name: string,
  input: { store: string; items: readonly DatasetItemInput[]; origin?: DatasetOrigin },
): Promise<void> {
  await prisma.$transaction([
    prisma.dataset.create({
      data: { id, store: input.store, name, origin: input.origin ?? "upload", itemCount: input.items.length },
    }),
    prisma.datasetItem.createMany({
      data: input.items.map((item, position) => ({
        datasetId: id,
        position,
        itemId: item.id ?? null,
        query: item.query,
        relevant: item.relevant,
        kind: item.kind ?? null,
        tags: item.tags ?? [],
      })),
    }),
  ]);
}

interface KindRow {
  dataset_id: string;
  kind: string | null;
  n: number;
  absent: number;
}

async function kindCounts(
  prisma: PrismaClient,
  ids: readonly string[],
): Promise<Map<string, { kinds: Record<string, number>; absent: number }>> {
  const out = new Map<string, { kinds: Record<string, number>; absent: number }>();
  if (ids.length === 0) return out;
  const rows = await prisma.$queryRaw<KindRow[]>`
    SELECT "dataset_id"::text AS dataset_id, "kind", count(*)::int AS n,
           count(*) FILTER (WHERE cardinality(coalesce("relevant", '{}')) = 0)::int AS absent
    FROM "dataset_items" WHERE "dataset_id" IN (${Prisma.join(ids.map((id) => Prisma.sql`${id}::uuid`))})
    GROUP BY 1, 2`;
  for (const row of rows) {
    const entry = out.get(row.dataset_id) ?? { kinds: {}, absent: 0 };
    entry.kinds[row.kind ?? ""] = row.n;
    entry.absent += row.absent;
    out.set(row.dataset_id, entry);
  }
  return out;
}

type DatasetRow = { id: string; store: string; name: string; createdAt: Date; origin: string; itemCount: number };

function summary(row: DatasetRow, counts: { kinds: Record<string, number>; absent: number } | undefined): DatasetSummary {
  return {
    id: row.id,
    store: row.store,
    name: row.name,
    created_at: row.createdAt.toISOString(),
    origin: row.origin === "demo" || row.origin === "history" ? row.origin : "upload",
    count: row.itemCount,
    kinds: counts?.kinds ?? {},
    absent: counts?.absent ?? 0,
  };
}

/** The sets, newest first: of one store, or of every store. */
export async function listDatasets(prisma: PrismaClient, store?: string): Promise<DatasetSummary[]> {
  const rows = await prisma.dataset.findMany({ where: store ? { store } : {}, orderBy: { createdAt: "desc" }, take: 500 });
  const counts = await kindCounts(
    prisma,
    rows.map((r) => r.id),
  );
  return rows.map((row) => summary(row, counts.get(row.id)));
}

export async function findDataset(prisma: PrismaClient, id: string): Promise<DatasetDetail | null> {
  const row = await prisma.dataset.findUnique({ where: { id }, include: { items: { orderBy: { position: "asc" } } } });
  if (!row) return null;
  const counts = await kindCounts(prisma, [id]);
  return {
    ...summary(row, counts.get(id)),
    items: row.items.map((item) => ({
      position: item.position,
      id: item.itemId,
      query: item.query,
      relevant: item.relevant ?? [],
      kind: item.kind,
      tags: item.tags ?? [],
    })),
  };
}

const DEMO_DATASET_KEY = "demo_dataset_loaded";
export const DEMO_QUERIES_PATH = path.join(/* turbopackIgnore: true */ process.cwd(), "data", "demo", "queries.json");

/**
 * First start: the demo corpus's labeled queries (data/demo/queries.json) become a set of the
 * store `store` (the demo store), once.
 * A set someone deleted stays deleted (the app_state key remembers it was loaded).
 */
export async function ensureDemoDataset(
  prisma: PrismaClient,
  store: string,
  file: string = DEMO_QUERIES_PATH,
): Promise<{ id: string; count: number } | null> {
  if (await prisma.appState.findUnique({ where: { key: DEMO_DATASET_KEY } })) return null;
  if (!fs.existsSync(/* turbopackIgnore: true */ file)) return null;
  const parsed = parseItems(JSON.parse(fs.readFileSync(/* turbopackIgnore: true */ file, "utf8")) as unknown[]);
  if (!parsed.ok)
    throw new Error(`data/demo/queries.json is not a valid labeled set: ${JSON.stringify(parsed.errors.slice(0, 3))}`);
  // Claim the key first: two instances starting together against one PostgreSQL load it once.
  const claimed = await prisma.appState.createMany({
    data: [{ key: DEMO_DATASET_KEY, value: { at: new Date().toISOString() } }],
    skipDuplicates: true,
  });
  if (claimed.count === 0) return null;
  const created = await createDataset(prisma, { store, name: "Demo corpus queries", items: parsed.items, origin: "demo" });
  await prisma.appState.update({
    where: { key: DEMO_DATASET_KEY },
    data: { value: { at: new Date().toISOString(), id: created.id } },
  });
  return created;
}
