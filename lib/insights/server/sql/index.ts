/**
 * Insights computed in SQL (`GET /api/insights`): nothing here loads recalls into Node; the
 * database answers sums per bucket and group, ranked memory ids, and two short lists.
 *
 * Where the numbers come from (the triggers and functions: prisma/sql/insights-rollup-triggers.sql):
 * - `recall_rollup`: counters per 15-minute UTC bucket × store × applied × model × reason ×
 *   prompt version × reference level × threshold profile × the profile's level, kept
 *   current by statement triggers on "recalls". Fifteen minutes divides every UTC offset in use,
 *   so a bucket of any IANA zone (`date_trunc(unit, t AT TIME ZONE tz)`) is an exact sum of them;
 * - `recall_memory_rollup`: dropped/kept per memory × hour × store × model × the levels;
 * - the recalls themselves for the slivers of the range shorter than one rollup bucket (its two
 *   ends), through the same SQL functions the triggers use (`recall_insight_counts`,
 *   `recall_memory_entries`), so any from/to is exact;
 * - the disagreement lists from "recalls" through two partial indexes; the labeled recalls
 *   through theirs.
 *
 * One file per seam: fragments.ts (filters — History's own, lib/recall-log/history-sql.ts —
 * spans, counters), groups.ts (buckets and GROUPING SETS), lists.ts (most dropped,
 * disagreements, labels), shape.ts (rows → answer); the judges' mixes in ../judges.ts.
 *
 * `{ rollups: false }` reads everything from the recalls (same functions, no rollup): the tests
 * use it to check the rollups against the source.
 */
import type { PrismaClient } from "@prisma/client";
import { isUnknownTimeZone, UnknownTimeZoneError } from "./errors";
import { bucketsSql, groupsSql, type BucketRow, type GroupRow } from "./groups";
import {
  disagreementsSql,
  labelAgreementSql,
  labelsSql,
  mostDroppedSql,
  shapeLabels,
  type DisagreementRow,
  type DroppedRow,
  type LabelAgreementRow,
  type LabelRow,
} from "./lists";
import { shapeInsights } from "./shape";
import { INSIGHT_LIST_SIZE, type InsightsQuery, type InsightsResponse } from "../../schema";

export { getDistributions } from "./distributions";
export { UnknownTimeZoneError } from "./errors";
export { seriesMarkers, shapeInsights } from "./shape";

export interface InsightsOptions {
  /** Read the rollups (default). False: everything from the recalls, for checking. */
  rollups?: boolean;
  listSize?: number;
}

/** The statements of one answer (exported for the benchmark's EXPLAIN). */
export function insightsStatements(q: InsightsQuery, options: InsightsOptions = {}) {
  const listSize = options.listSize ?? INSIGHT_LIST_SIZE;
  const useRollups = options.rollups ?? true;
  return {
    buckets: bucketsSql(q),
    groups: groupsSql(q, useRollups),
    mostDropped: mostDroppedSql(q, useRollups, listSize),
    disagreements: disagreementsSql(q, listSize),
    labels: labelsSql(q),
    labelAgreement: labelAgreementSql(q),
  };
}

export async function getInsights(
  prisma: PrismaClient,
  q: InsightsQuery,
  options: InsightsOptions = {},
): Promise<InsightsResponse> {
  const sql = insightsStatements(q, options);
  try {
    // Independent statements: PostgreSQL runs them side by side on the pool (PGlite in turn).
    const [buckets, groups, dropped, lists, labels, labelAgreement] = await Promise.all([
      prisma.$queryRaw<BucketRow[]>(sql.buckets),
      prisma.$queryRaw<GroupRow[]>(sql.groups),
      prisma.$queryRaw<DroppedRow[]>(sql.mostDropped),
      prisma.$queryRaw<DisagreementRow[]>(sql.disagreements),
      prisma.$queryRaw<LabelRow[]>(sql.labels),
      prisma.$queryRaw<LabelAgreementRow[]>(sql.labelAgreement),
    ]);
    return { ...shapeInsights(q, buckets, groups, dropped, lists, labelAgreement), labels: shapeLabels(labels[0]) };
  } catch (error) {
    if (isUnknownTimeZone(error)) throw new UnknownTimeZoneError(q.tz);
    throw error;
  }
}
