import type { Memory, Prisma, PrismaClient } from "@prisma/client";
import { decodeKeysetCursor, keysetAfter, keysetPage, type KeysetPosition } from "@/lib/pagination/keyset";
import { textProblem } from "@/lib/validation/input-rules";
import type { MemoryListPage, MemoryListQuery, MemoryView } from "../../memory-schemas";
import { StoreError } from "../../types";

/**
 * The Memories page's repository: reads and deletes of `memories` rows as the API shows them.
 * The embedded store owns writes that touch its index (add, delete, reembed) and uses this for
 * the database side; nothing here knows about vectors or the index.
 */
export class MemoryRepository {
  constructor(
    private readonly prisma: PrismaClient,
    /** The embedded store whose rows these are. */
    private readonly store: string,
  ) {}

  async get(id: string): Promise<MemoryView | null> {
    const row = await this.prisma.memory.findUnique({ where: { store_id: { store: this.store, id } } });
    return row ? toView(row) : null;
  }

  /**
   * Newest first, keyset-paginated (lib/pagination/keyset.ts); `q` matches the summary or the id
   * (case-insensitive substring), so a copied id finds its memory.
   */
  async list(query: MemoryListQuery): Promise<MemoryListPage> {
    const q = query.q?.trim();
    const where: Prisma.MemoryWhereInput = {
      store: this.store,
      ...(q ? { OR: [{ summary: { contains: q, mode: "insensitive" } }, { id: { contains: q, mode: "insensitive" } }] } : {}),
      ...(query.type ? { type: query.type } : {}),
      ...(query.tag ? { tags: { has: query.tag } } : {}),
    };
    const after = query.cursor ? decodeCursor(query.cursor) : null;
    const rows = await this.prisma.memory.findMany({
      where: after ? { AND: [where, ...keysetAfter(after)] } : where,
      orderBy: [{ createdAt: "desc" }, { id: "desc" }],
      take: query.limit + 1,
      omit: { embedding: true },
    });
    const total = await this.prisma.memory.count({ where });
    const { page, nextCursor } = keysetPage(rows, query.limit);
    return { items: page.map(toView), next_cursor: nextCursor, total };
  }

  /** Which of these ids are memories of the store (the rest were deleted, or never here). */
  async existing(ids: readonly string[]): Promise<Set<string>> {
    if (ids.length === 0) return new Set();
    const rows = await this.prisma.memory.findMany({ where: { store: this.store, id: { in: [...ids] } }, select: { id: true } });
    return new Set(rows.map((row) => row.id));
  }

  /** Memory counts per type, largest first, and the total. */
  async countByType(): Promise<{ total: number; by_type: Record<string, number> }> {
    const groups = await this.prisma.memory.groupBy({ by: ["type"], where: { store: this.store }, _count: { _all: true } });
    const by_type = Object.fromEntries(groups.map((g) => [g.type, g._count._all]).sort((a, b) => Number(b[1]) - Number(a[1])));
    return { total: groups.reduce((sum, g) => sum + g._count._all, 0), by_type };
  }

  /** Deletes the row; false when there was none. */
  async deleteById(id: string): Promise<boolean> {
    const { count } = await this.prisma.memory.deleteMany({ where: { store: this.store, id } });
    return count > 0;
  }
}

/** `embedding` is never answered, so reads may omit it. */
function toView(row: Omit<Memory, "embedding">): MemoryView {
  return {
    id: row.id,
    summary: row.summary,
    content: row.content,
    type: row.type,
    tags: row.tags,
    importance: row.importance,
    created_at: row.createdAt.toISOString(),
    updated_at: row.updatedAt?.toISOString() ?? null,
    embedding_model: row.embeddingModel,
  };
}

/** @throws StoreError 422 invalid_cursor for anything `keysetPage` did not write. */
function decodeCursor(cursor: string): KeysetPosition {
  const position = decodeKeysetCursor(cursor, (id) => id.length > 0 && id.length <= 200 && textProblem(id) === null);
  if (!position) throw new StoreError(422, "invalid_cursor", "The cursor is not one this API issued; start again without it.");
  return position;
}
