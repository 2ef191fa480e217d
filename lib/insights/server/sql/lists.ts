/**
 * The lists and the label counts of an answer: most-dropped memories (rollups), the disagreement
 * lists and the labeled recalls (from "recalls" through partial indexes). See index.ts.
 */
import { Prisma } from "@prisma/client";
import { col, filtersSql, judgedLevelSql, spanSql, spansSql } from "./fragments";
import { MEMORY_ROLLUP_STEP_MS, splitRange } from "../../range";
import { ratio } from "../../rates";
import type { DisagreementItem, InsightsQuery, InsightsResponse } from "../../schema";

// ---------------------------------------------------------------------------------------------
// Most-dropped memories: rank every (store, memory) dropped in the range, then count how often
// the top ones were kept (hours in which they were not dropped included).

export interface DroppedRow {
  store: string;
  memory_id: string;
  dropped: number;
  kept: number;
  summary: string | null;
}

export function mostDroppedSql(q: InsightsQuery, useRollups: boolean, limit: number): Prisma.Sql {
  const { whole, edges } = splitRange(q.from, q.to, MEMORY_ROLLUP_STEP_MS, useRollups);
  const entries = Prisma.sql`recall_memory_entries(r."status", r."selector_applied", r."dropped_memory_ids", r."results")`;
  return Prisma.sql`
    WITH ranked AS (
      SELECT store, memory_id, sum(dropped) AS dropped
      FROM (
        SELECT m."store", m."memory_id", m."dropped"
        FROM "recall_memory_rollup" AS m
        WHERE ${spanSql(col("m", "bucket"), whole)} AND m."dropped" > 0${filtersSql(q, "m")}
        UNION ALL
        SELECT r."store", e.memory_id, e.dropped
        FROM "recalls" AS r CROSS JOIN LATERAL ${entries} AS e
        WHERE ${spansSql(col("r", "created_at"), edges)} AND e.dropped > 0${filtersSql(q, "r")}
      ) AS d
      GROUP BY store, memory_id
      ORDER BY sum(dropped) DESC, store, memory_id
      LIMIT ${limit}
    ), kept AS (
      SELECT m."store", m."memory_id", m."kept"
      FROM "recall_memory_rollup" AS m
      JOIN ranked AS t ON t.store = m."store" AND t.memory_id = m."memory_id"
      WHERE ${spanSql(col("m", "bucket"), whole)} AND m."kept" > 0${filtersSql(q, "m")}
      UNION ALL
      SELECT r."store", e.memory_id, e.kept
      FROM "recalls" AS r CROSS JOIN LATERAL ${entries} AS e
      JOIN ranked AS t ON t.store = r."store" AND t.memory_id = e.memory_id
      WHERE ${spansSql(col("r", "created_at"), edges)} AND e.kept > 0${filtersSql(q, "r")}
    )
    SELECT t.store, t.memory_id, t.dropped::float8 AS dropped,
           coalesce((SELECT sum(k."kept") FROM kept AS k WHERE k."store" = t.store AND k."memory_id" = t.memory_id), 0)::float8 AS kept,
           coalesce(s."summary", mem."summary") AS summary
    FROM ranked AS t
    LEFT JOIN "recall_memory_summaries" AS s ON s."store" = t.store AND s."memory_id" = t.memory_id
    LEFT JOIN "memories" AS mem ON mem."store" = t.store AND mem."id" = t.memory_id
    ORDER BY t.dropped DESC, t.store, t.memory_id`;
}

// ---------------------------------------------------------------------------------------------
// Disagreements, newest first. The conditions are word for word the partial indexes'
// predicates (recalls_top_dropped_idx, recalls_weak_kept_all_idx), so the planner uses them.

/** A listed recall as the database answers it: the item, with its kind and the time as a Date. */
export type DisagreementRow = Omit<DisagreementItem, "created_at"> & {
  kind: "top_dropped" | "weak_kept_all";
  created_at: Date;
};

export function disagreementsSql(q: InsightsQuery, limit: number): Prisma.Sql {
  const columns = Prisma.sql`r."id"::text AS id, r."created_at", r."store", r."query", r."level", r."top_score", r."selector_model",
    r."selector_kept" AS kept, r."selector_dropped" AS dropped,
    r."top_memory_id",
    (SELECT e.value ->> 'summary' FROM jsonb_array_elements(CASE WHEN jsonb_typeof(r."results") = 'array' THEN r."results" ELSE '[]'::jsonb END) AS e(value)
     WHERE e.value ->> 'memory_id' = r."top_memory_id" LIMIT 1) AS top_summary`;
  const range = Prisma.sql`r."created_at" >= ${q.from}::timestamptz AND r."created_at" < ${q.to}::timestamptz${filtersSql(q, "r")}`;
  return Prisma.sql`
    (SELECT 'top_dropped' AS kind, ${columns}
     FROM "recalls" AS r
     WHERE top_dropped AND selector_applied AND ${range}
     ORDER BY r."created_at" DESC, r."id" DESC
     LIMIT ${limit})
    UNION ALL
    (SELECT 'weak_kept_all' AS kind, ${columns}
     FROM "recalls" AS r
     WHERE level IN ('low', 'none') AND selector_applied AND selector_dropped = 0 AND ${range}
     ORDER BY r."created_at" DESC, r."id" DESC
     LIMIT ${limit})`;
}

// ---------------------------------------------------------------------------------------------
// With relevance labels (lib/recall-log/labels.ts): of the labeled recalls the selector ran on,
// how many dropped a memory labeled relevant, and how many kept only memories labeled not
// relevant. Read from the recalls through the partial index of labeled rows (a person labels a
// few hundred, not a million), so it is exact and needs no rollup.

export interface LabelRow {
  labeled: number | string | null;
  dropped_relevant: number | string | null;
  kept_only_irrelevant: number | string | null;
}

export function labelsSql(q: InsightsQuery): Prisma.Sql {
  return Prisma.sql`
    SELECT count(*)::float8 AS labeled,
           count(*) FILTER (WHERE x.dropped_relevant)::float8 AS dropped_relevant,
           count(*) FILTER (WHERE x.kept_any AND NOT x.kept_unlabeled_or_relevant)::float8 AS kept_only_irrelevant
    FROM (
      SELECT
        EXISTS (SELECT 1 FROM unnest(r."dropped_memory_ids") AS d(id) WHERE r."label_results" ->> d.id = 'true')
          OR EXISTS (SELECT 1 FROM jsonb_array_elements(p.page) AS e(value)
                     WHERE e.value -> 'dropped' = 'true'::jsonb AND r."label_results" ->> (e.value ->> 'memory_id') = 'true') AS dropped_relevant,
        EXISTS (SELECT 1 FROM jsonb_array_elements(p.page) AS e(value) WHERE ${keptRow}) AS kept_any,
        EXISTS (SELECT 1 FROM jsonb_array_elements(p.page) AS e(value)
                WHERE ${keptRow} AND (r."label_results" ->> (e.value ->> 'memory_id')) IS DISTINCT FROM 'false') AS kept_unlabeled_or_relevant
      FROM "recalls" AS r
      CROSS JOIN LATERAL (SELECT CASE WHEN jsonb_typeof(r."results") = 'array' THEN r."results" ELSE '[]'::jsonb END AS page) AS p
      WHERE r."labeled_at" IS NOT NULL AND r."created_at" >= ${q.from}::timestamptz AND r."created_at" < ${q.to}::timestamptz
        AND r."status" <> 'error' AND r."selector_applied"
        AND jsonb_typeof(r."label_results") = 'object' AND r."label_results" <> '{}'::jsonb${filtersSql(q, "r")}
    ) AS x`;
}

/** A row of the logged page the agent got (not marked dropped, not listed as dropped). */
const keptRow = Prisma.sql`(e.value -> 'dropped') IS DISTINCT FROM 'true'::jsonb AND NOT coalesce((e.value ->> 'memory_id') = ANY (r."dropped_memory_ids"), false)`;

export function shapeLabels(row: LabelRow | undefined): InsightsResponse["labels"] {
  const labeled = Number(row?.labeled ?? 0);
  const droppedRelevant = Number(row?.dropped_relevant ?? 0);
  const keptOnlyIrrelevant = Number(row?.kept_only_irrelevant ?? 0);
  return {
    labeled,
    dropped_relevant: droppedRelevant,
    dropped_relevant_rate: ratio(droppedRelevant, labeled),
    kept_only_irrelevant: keptOnlyIrrelevant,
    kept_only_irrelevant_rate: ratio(keptOnlyIrrelevant, labeled),
  };
}

// ---------------------------------------------------------------------------------------------
// The level against the labels: of the labeled recalls that say whether something relevant was
// present (yes or no), how each judge's level read them — the reference level of every one, and
// each profile's level of the recalls it judged. Labeled rows only, so no rollup is needed.

export interface LabelAgreementRow {
  /** GROUPING(level, profile_name, judged_level): 3 = by reference level, 4 = by judge. */
  g: number;
  level: string | null;
  profile_name: string | null;
  judged_level: string | null;
  present: string;
  n: number | string;
}

export const LABEL_BY_LEVEL = 3;
export const LABEL_BY_JUDGE = 4;

export function labelAgreementSql(q: InsightsQuery): Prisma.Sql {
  return Prisma.sql`
    SELECT GROUPING(x.level, x.profile_name, x.judged_level) AS g, x.level, x.profile_name, x.judged_level, x.present,
           count(*)::float8 AS n
    FROM (
      SELECT coalesce(r."level", '') AS level, coalesce(r."profile_name", '') AS profile_name,
             ${judgedLevelSql("r", "recalls")} AS judged_level, r."label_present" AS present
      FROM "recalls" AS r
      WHERE r."labeled_at" IS NOT NULL AND r."label_present" IN ('yes', 'no') AND r."status" <> 'error'
        AND r."created_at" >= ${q.from}::timestamptz AND r."created_at" < ${q.to}::timestamptz${filtersSql(q, "r")}
    ) AS x
    GROUP BY GROUPING SETS ((x.level, x.present), (x.profile_name, x.judged_level, x.present))`;
}
