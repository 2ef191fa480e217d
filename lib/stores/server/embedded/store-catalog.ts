import type { PrismaClient } from "@prisma/client";
import { DEMO_STORE, FIRST_STORE, type CreateStoreBody } from "../../store-schemas";
import { StoreError } from "../../types";

/** The `embedded_stores` rows: which embedded stores exist (lib/stores/server/embedded/README.md "Embedded stores"). */
export interface EmbeddedStoreRow {
  name: string;
  description: string | null;
  embeddingModel: string | null;
  createdAt: Date;
}

export class StoreCatalog {
  constructor(private readonly prisma: PrismaClient) {}

  list(): Promise<EmbeddedStoreRow[]> {
    return this.prisma.embeddedStoreRecord.findMany({ orderBy: [{ createdAt: "asc" }, { name: "asc" }] });
  }

  async find(name: string): Promise<EmbeddedStoreRow | null> {
    return this.prisma.embeddedStoreRecord.findUnique({ where: { name } });
  }

  /** Memory counts per store, one grouped query. */
  async counts(): Promise<Map<string, number>> {
    const rows = await this.prisma.$queryRaw<{ store: string; n: number }[]>`
      SELECT "store", count(*)::int AS "n" FROM "memories" GROUP BY "store"`;
    return new Map(rows.map((r) => [r.store, r.n]));
  }

  /** @throws StoreError 409 `store_exists` when the name is taken. */
  async create(body: CreateStoreBody, embeddingModel: string): Promise<EmbeddedStoreRow> {
    const created = await this.prisma.embeddedStoreRecord.createManyAndReturn({
      data: [{ name: body.name, description: body.description ?? null, embeddingModel }],
      skipDuplicates: true,
    });
    if (created.length === 0)
      throw new StoreError(409, "store_exists", `There is already a store named "${body.name}".`, { name: body.name });
    // The name is a live store again: its older recalls are no longer "deleted store".
    await this.prisma.deletedStore.deleteMany({ where: { name: body.name } });
    return created[0]!;
  }

  /** Creates the store unless it exists (first starts, the default store on its first write). */
  async ensure(name: string, embeddingModel: string, description: string | null = null): Promise<boolean> {
    const { count } = await this.prisma.embeddedStoreRecord.createMany({
      data: [{ name, description, embeddingModel }],
      skipDuplicates: true,
    });
    if (count > 0) await this.prisma.deletedStore.deleteMany({ where: { name } });
    return count > 0;
  }

  /**
   * Deletes the store; its memories go with it (the foreign key cascades), its profile assignment
   * and its last audit too, and a tombstone remembers it so History can mark its recalls "deleted store".
   */
  async delete(name: string): Promise<{ deleted: boolean; memories: number }> {
    return this.prisma.$transaction(async (tx) => {
      const memories = await tx.memory.count({ where: { store: name } });
      const removed = await tx.embeddedStoreRecord.deleteMany({ where: { name } });
      if (removed.count === 0) return { deleted: false, memories: 0 };
      await tx.storeProfile.deleteMany({ where: { store: name } });
      await tx.storeAudit.deleteMany({ where: { store: name } });
      await tx.deletedStore.upsert({
        where: { name },
        create: { name, memories },
        update: { memories, deletedAt: new Date() },
      });
      return { deleted: true, memories };
    });
  }

  /** Which of these store names belong to deleted embedded stores. */
  async deletedAmong(names: readonly string[]): Promise<string[]> {
    if (names.length === 0) return [];
    const rows = await this.prisma.deletedStore.findMany({ where: { name: { in: [...names] } }, select: { name: true } });
    return rows.map((r) => r.name);
  }

  /**
   * The store a write naming none goes to, and the console's first choice: `demo` when it exists,
   * else the oldest store, else `embedded` (created by that first write).
   */
  async defaultStore(): Promise<string> {
    const rows = await this.list();
    return (rows.find((r) => r.name === DEMO_STORE) ?? rows[0])?.name ?? FIRST_STORE;
  }
}
