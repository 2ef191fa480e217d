/**
 * When the log's recalls were made (`GET /api/insights/extent`): the first and the last, both
 * read from the (created_at, id) index, so the Insights page can open on a range that fits the
 * data instead of a fixed 30 days.
 */
import { Prisma, type PrismaClient } from "@prisma/client";

export interface LogExtent {
  /** ISO; null when the log is empty. */
  first: string | null;
  last: string | null;
}

export async function logExtent(prisma: PrismaClient): Promise<LogExtent> {
  const [row] = await prisma.$queryRaw<{ first: Date | string | null; last: Date | string | null }[]>(
    Prisma.sql`SELECT min("created_at") AS first, max("created_at") AS last FROM "recalls"`,
  );
  const iso = (v: Date | string | null | undefined) => (v === null || v === undefined ? null : new Date(v).toISOString());
  return { first: iso(row?.first), last: iso(row?.last) };
}
