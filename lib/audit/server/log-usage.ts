/**
 * The recall log's part of the audit (lib/audit/README.md "Reachability audit"): how often each
 * memory was a candidate, on the page and removed by the selector in the store's logged recalls
 * over the window. Reads `recall_candidates` joined with the store's recalls; evaluation runs'
 * recalls are test traffic and are left out, as Insights leaves them out.
 */
import "server-only";
import type { PrismaClient } from "@prisma/client";
import type { LogUsage } from "../types";

const RECALL_LINKS = 5;

export async function logUsage(
  prisma: PrismaClient,
  store: string,
  since: Date,
): Promise<{ recalls: number; usage: Map<string, LogUsage> }> {
  const [counted] = await prisma.$queryRaw<{ n: number }[]>`
    SELECT count(*)::int AS "n" FROM "recalls" r
    WHERE r."store" = ${store} AND r."created_at" >= ${since} AND r."status" = 'ok' AND r."source" <> 'eval'
      AND EXISTS (SELECT 1 FROM "recall_candidates" c WHERE c."recall_id" = r."id")`;
  const rows = await prisma.$queryRaw<
    { memory_id: string; candidate: number; returned: number; dropped: number; last_seen: Date; recall_ids: string[] }[]
  >`
    SELECT c."memory_id",
           count(DISTINCT c."recall_id")::int AS "candidate",
           count(DISTINCT c."recall_id") FILTER (WHERE c."returned")::int AS "returned",
           count(DISTINCT c."recall_id") FILTER (WHERE c."dropped")::int AS "dropped",
           max(r."created_at") AS "last_seen",
           (array_agg(r."id"::text ORDER BY r."created_at" DESC, r."id" DESC))[1:${RECALL_LINKS}] AS "recall_ids"
    FROM "recall_candidates" c JOIN "recalls" r ON r."id" = c."recall_id"
    WHERE r."store" = ${store} AND r."created_at" >= ${since} AND r."status" = 'ok' AND r."source" <> 'eval'
    GROUP BY c."memory_id"`;
  return {
    recalls: counted?.n ?? 0,
    usage: new Map(
      rows.map((row) => [
        row.memory_id,
        {
          candidate: row.candidate,
          returned: row.returned,
          dropped: row.dropped,
          last_seen: row.last_seen.toISOString(),
          recall_ids: row.recall_ids,
        },
      ]),
    ),
  };
}
