/**
 * The buckets of a range and the counters summed by bucket, store, model, reason, level and
 * judge, in one pass over the rollups (GROUPING SETS). See index.ts for where the numbers come from.
 */
import { Prisma } from "@prisma/client";
import {
  col,
  counters,
  counterSums,
  countsFromFunction,
  filtersSql,
  groupingMask,
  judgedLevelSql,
  spanSql,
  spansSql,
} from "./fragments";
import { ROLLUP_STEP_MS, splitRange } from "../../range";
import { MAX_INSIGHT_BUCKETS, type InsightsQuery } from "../../schema";

// ---------------------------------------------------------------------------------------------
// Buckets: every bucket of the range in the zone, empty ones included (a gap is a gap, not a
// missing x position). Wall-clock buckets: across a DST change a day has 23 or 25 hours, a local
// hour that does not exist is left out, and a repeated one holds both.

export interface BucketRow {
  local_start: string;
  start: Date;
  end: Date;
}

export function bucketsSql(q: InsightsQuery): Prisma.Sql {
  const step = `1 ${q.bucket}`;
  return Prisma.sql`
    SELECT to_char(b.local, 'YYYY-MM-DD"T"HH24:MI') AS local_start,
           b.local AT TIME ZONE ${q.tz}::text AS "start",
           (b.local + ${step}::interval) AT TIME ZONE ${q.tz}::text AS "end"
    FROM generate_series(
      date_trunc(${q.bucket}::text, ${q.from}::timestamptz AT TIME ZONE ${q.tz}::text),
      date_trunc(${q.bucket}::text, (${q.to}::timestamptz - interval '1 millisecond') AT TIME ZONE ${q.tz}::text),
      ${step}::interval
    ) AS b(local)
    WHERE b.local AT TIME ZONE ${q.tz}::text < (b.local + ${step}::interval) AT TIME ZONE ${q.tz}::text
    ORDER BY b.local
    LIMIT ${MAX_INSIGHT_BUCKETS + 2}`;
}

// ---------------------------------------------------------------------------------------------
// Counters by bucket, store, model, reason, level, judge and in total: one pass, GROUPING SETS.

/** The grouped columns, in the order of the `GROUPING(…)` mask. */
const GROUP_COLUMNS = [
  "local_bucket",
  "store",
  "applied_key",
  "model",
  "reason",
  "prompt",
  "level",
  "profile_name",
  "judged_level",
] as const;
type GroupColumn = (typeof GROUP_COLUMNS)[number];

/** Each grouping set by name: what the shaping reads each row as. */
export const GROUP_SETS = {
  bucket: ["local_bucket"],
  store: ["store"],
  model: ["applied_key", "model"],
  reason: ["applied_key", "reason"],
  /** (model, prompt version) per bucket: where the selector changed. */
  marker: ["local_bucket", "model", "prompt"],
  total: [],
  /** The reference level, for its agreement with the selector. */
  level: ["level"],
  /** The level each judge gave (the reference rules for profile_name "", else that profile). */
  judge: ["profile_name", "judged_level"],
  judgeBucket: ["local_bucket", "profile_name", "judged_level"],
  /** The level each judge gave, per store and per selector model: the store's verdict in their tables. */
  storeJudge: ["store", "profile_name", "judged_level"],
  modelJudge: ["applied_key", "model", "profile_name", "judged_level"],
} as const satisfies Record<string, readonly GroupColumn[]>;
export type GroupSet = keyof typeof GROUP_SETS;

const MASK_TO_SET = new Map<number, GroupSet>(
  (Object.entries(GROUP_SETS) as [GroupSet, readonly GroupColumn[]][]).map(([name, kept]) => [
    groupingMask(GROUP_COLUMNS, kept),
    name,
  ]),
);

/** Which grouping set a row belongs to, from its `g` mask. */
export function groupSetOf(mask: number): GroupSet | undefined {
  return MASK_TO_SET.get(mask);
}

export interface GroupRow extends Record<string, unknown> {
  g: number;
  local_bucket: string | null;
  prompt: string | null;
  store: string | null;
  applied_key: boolean | null;
  model: string | null;
  reason: string | null;
  level: string | null;
  profile_name: string | null;
  judged_level: string | null;
}

export function groupsSql(q: InsightsQuery, useRollups: boolean): Prisma.Sql {
  const { whole, edges } = splitRange(q.from, q.to, ROLLUP_STEP_MS, useRollups);
  const sets = Prisma.raw(
    Object.values(GROUP_SETS)
      .map((kept) => `(${kept.join(", ")})`)
      .join(", "),
  );
  return Prisma.sql`
    WITH cells AS (
      SELECT g."bucket" AS ts, g."store", g."selector_applied" AS applied_key, g."selector_model" AS model,
             g."selector_reason" AS reason, g."selector_prompt_version" AS prompt, g."level", g."profile_name",
             ${judgedLevelSql("g", "rollup")} AS judged_level, ${counters("g")}
      FROM "recall_rollup" AS g
      WHERE ${spanSql(col("g", "bucket"), whole)}${filtersSql(q, "g")}
      UNION ALL
      SELECT r."created_at", r."store", r."selector_applied", coalesce(r."selector_model", ''),
             coalesce(r."selector_reason", ''), coalesce(r."selector_prompt_version", ''), coalesce(r."level", ''),
             coalesce(r."profile_name", ''), ${judgedLevelSql("r", "recalls")}, ${countsFromFunction}
      FROM "recalls" AS r
      CROSS JOIN LATERAL recall_insight_counts(
        r."status", r."level", r."selector_applied", r."selector_reason", r."selector_kept", r."selector_dropped",
        r."dropped_memory_ids", r."top_dropped"
      ) AS c
      WHERE ${spansSql(col("r", "created_at"), edges)}${filtersSql(q, "r")}
    ), keyed AS (
      SELECT to_char(date_trunc(${q.bucket}::text, ts AT TIME ZONE ${q.tz}::text), 'YYYY-MM-DD"T"HH24:MI') AS local_bucket, *
      FROM cells
    )
    SELECT GROUPING(${Prisma.raw(GROUP_COLUMNS.join(", "))}) AS g,
           ${Prisma.raw(GROUP_COLUMNS.join(", "))}, ${counterSums}
    FROM keyed
    GROUP BY GROUPING SETS (${sets})`;
}
