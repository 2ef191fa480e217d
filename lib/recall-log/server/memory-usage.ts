/**
 * A memory's part in the recall log: how often it was a candidate, on the page, dropped by the
 * selector or labeled relevant, and the recalls themselves newest first (the memory page,
 * `GET /api/memories/{id}/recalls`).
 *
 * It reads `recall_candidates` (indexed by memory id), so it sees the recalls whose store exposed
 * its candidate list — the embedded store's; a remote service's or an ingested answer without a
 * pool lists only its page, which is not indexed by memory and is not searched here.
 */
import { Prisma, type PrismaClient } from "@prisma/client";
import { keysetPage, type KeysetPosition } from "@/lib/pagination/keyset";
import {
  decodeMemoryRecallsCursor,
  type MemoryRecallCounts,
  type MemoryRecallFilter,
  type MemoryRecallRow,
  type MemoryRecallsPage,
  type MemoryRecallsQuery,
} from "../memory-usage-schema";

/** A page row as SQL reads it: the recall's keyset position and the label as text, the rest as answered. */
type ListRow = Omit<MemoryRecallRow, "recall_id" | "created_at" | "relevant"> & KeysetPosition & { relevant: string | null };

function filterSql(show: MemoryRecallFilter, memoryId: string): Prisma.Sql {
  switch (show) {
    case "returned":
      return Prisma.sql`AND c."returned"`;
    case "dropped":
      return Prisma.sql`AND c."dropped"`;
    case "relevant":
      return Prisma.sql`AND (r."label_results" ->> ${memoryId}) = 'true'`;
    default:
      return Prisma.empty;
  }
}

/** One keyset page of the recalls `memoryId` appeared in (filtered by `show`), with the counts over all of them. */
export async function memoryRecalls(
  prisma: PrismaClient,
  memoryId: string,
  query: MemoryRecallsQuery,
): Promise<MemoryRecallsPage> {
  // The schema refused any cursor it cannot decode.
  const after = query.cursor ? decodeMemoryRecallsCursor(query.cursor) : null;
  // The keyset condition as a row comparison on the recall's (created_at, id), newest first.
  const inStore = query.store ? Prisma.sql`AND r."store" = ${query.store}` : Prisma.empty;
  const keyset = after
    ? Prisma.sql`AND r."created_at" <= ${after.createdAt} AND (r."created_at" < ${after.createdAt} OR r."id" < ${after.id}::uuid)`
    : Prisma.empty;
  const [rows, counts] = await Promise.all([
    prisma.$queryRaw<ListRow[]>`
      SELECT r."id"::text AS "id", r."created_at" AS "createdAt", r."source", r."store", r."query", r."level",
             c."rank", c."in_pool", c."returned", c."dropped", c."raw_cosine", c."hybrid_score",
             (r."label_results" ->> ${memoryId}) AS "relevant"
      FROM "recall_candidates" c JOIN "recalls" r ON r."id" = c."recall_id"
      WHERE c."memory_id" = ${memoryId} ${inStore} ${filterSql(query.show, memoryId)} ${keyset}
      ORDER BY r."created_at" DESC, r."id" DESC
      LIMIT ${query.limit + 1}`,
    prisma.$queryRaw<MemoryRecallCounts[]>`
      SELECT count(*)::int AS "appeared",
             count(*) FILTER (WHERE c."in_pool")::int AS "in_pool",
             count(*) FILTER (WHERE c."returned")::int AS "returned",
             count(*) FILTER (WHERE c."dropped")::int AS "dropped",
             count(*) FILTER (WHERE (r."label_results" ->> ${memoryId}) = 'true')::int AS "labeled_relevant",
             count(*) FILTER (WHERE (r."label_results" ->> ${memoryId}) = 'false')::int AS "labeled_irrelevant"
      FROM "recall_candidates" c JOIN "recalls" r ON r."id" = c."recall_id"
      WHERE c."memory_id" = ${memoryId} ${inStore}`,
  ]);
  const { page, nextCursor } = keysetPage(rows, query.limit);
  const total: MemoryRecallCounts = counts[0] ?? {
    appeared: 0,
    in_pool: 0,
    returned: 0,
    dropped: 0,
    labeled_relevant: 0,
    labeled_irrelevant: 0,
  };
  return { memory_id: memoryId, counts: total, items: page.map(toRow), next_cursor: nextCursor };
}

function toRow({ id, createdAt, relevant, ...rest }: ListRow): MemoryRecallRow {
  return {
    recall_id: id,
    created_at: createdAt.toISOString(),
    ...rest,
    relevant: relevant === "true" ? true : relevant === "false" ? false : null,
  };
}

/** Whether any logged recall holds this memory among its candidates (a deleted memory's page still has something to show). */
export async function memoryWasRecalled(prisma: PrismaClient, memoryId: string, store?: string): Promise<boolean> {
  const row = await prisma.recallCandidate.findFirst({
    where: { memoryId, ...(store ? { recall: { store } } : {}) },
    select: { recallId: true },
  });
  return row !== null;
}
