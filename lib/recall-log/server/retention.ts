import type { PrismaClient } from "@prisma/client";

const DELETE_BATCH = 10_000;

export interface RetentionOutcome {
  keep_days: number;
  /** Recalls created before this instant are (or would be) deleted. */
  cutoff: string;
  deleted: number;
  dry_run: boolean;
}

/**
 * Deletes recalls older than `keepDays` (their candidates go with them), in batches so a large
 * history never holds one long transaction. With `dryRun` it only counts.
 */
export async function applyRetention(
  prisma: PrismaClient,
  { keepDays, dryRun = false, now = new Date() }: { keepDays: number; dryRun?: boolean; now?: Date },
): Promise<RetentionOutcome> {
  if (!Number.isInteger(keepDays) || keepDays < 1) throw new RangeError("keep days must be a whole number of days, at least 1");
  const cutoff = new Date(now.getTime() - keepDays * 86_400_000);
  let deleted = 0;
  if (dryRun) {
    deleted = await prisma.recall.count({ where: { createdAt: { lt: cutoff } } });
  } else {
    for (;;) {
      const n = await prisma.$executeRaw`
        DELETE FROM "recalls" WHERE "id" IN (
          SELECT "id" FROM "recalls" WHERE "created_at" < ${cutoff}::timestamptz LIMIT ${DELETE_BATCH}
        )`;
      deleted += n;
      if (n < DELETE_BATCH) break;
    }
  }
  return { keep_days: keepDays, cutoff: cutoff.toISOString(), deleted, dry_run: dryRun };
}
