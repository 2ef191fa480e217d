/**
 * Insights computed in SQL (`GET /api/insights`): nothing here loads recalls into Node; the
 * database answers sums per bucket and group, ranked memory ids, and two short lists.
 *
 * Where the numbers come from (prisma/migrations/*_insights_triggers):
 * - `recall_rollup`: counters per 15-minute UTC bucket × store × applied × model × reason, kept
 *   current by statement triggers on "recalls". Fifteen minutes divides every UTC offset in use,
 *   so a bucket of any IANA zone (`date_trunc(unit, t AT TIME ZONE tz)`) is an exact sum of them;
 * - `recall_memory_rollup`: dropped/kept per memory × hour × store × model;
 * - the recalls themselves for the slivers of the range shorter than one rollup bucket (its two
 *   ends), through the same SQL functions the triggers use (`recall_insight_counts`,
 *   `recall_memory_entries`), so any from/to is exact;
 * - the disagreement lists from "recalls" through two partial indexes.
 *
 * `{ rollups: false }` reads everything from the recalls (same functions, no rollup): the tests
 * use it to check the rollups against the source.
 */
import { Prisma, type PrismaClient } from "@prisma/client";
import { selectorReasonKind } from "@/lib/recall/selector-reasons";
import { MEMORY_ROLLUP_STEP_MS, ROLLUP_STEP_MS, splitRange, type Span } from "./range";
import { COUNTER_KEYS, ratio, sumsFromRow, toStats, ZERO_SUMS, type CounterSums } from "./rates";
import {
  INSIGHT_LIST_SIZE,
  MAX_INSIGHT_BUCKETS,
  type DisagreementItem,
  type DroppedMemory,
  type InsightsQuery,
  type InsightsResponse,
  type InsightSeriesPoint,
  type ModelInsight,
  type ReasonInsight,
  type SeriesMarker,
  type StoreInsight,
} from "./schema";

/** The embedded store's name (lib/stores/registry.ts): its own memories table knows summaries. */
const EMBEDDED_STORE = "embedded";

export interface InsightsOptions {
  /** Read the rollups (default). False: everything from the recalls, for checking. */
  rollups?: boolean;
  listSize?: number;
}

/** A time zone PostgreSQL does not know (its tz database may lag the browser's). */
export class UnknownTimeZoneError extends Error {
  override readonly name = "UnknownTimeZoneError";
  constructor(readonly tz: string) {
    super(`The database does not know the time zone "${tz}"; pick another name for the same zone, or UTC.`);
  }
}

/** The four statements of one answer (exported for the benchmark's EXPLAIN). */
export function insightsStatements(q: InsightsQuery, options: InsightsOptions = {}) {
  const listSize = options.listSize ?? INSIGHT_LIST_SIZE;
  const useRollups = options.rollups ?? true;
  return {
    buckets: bucketsSql(q),
    groups: groupsSql(q, useRollups),
    mostDropped: mostDroppedSql(q, useRollups, listSize),
    disagreements: disagreementsSql(q, listSize),
    labels: labelsSql(q),
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
    const [buckets, groups, dropped, lists, labels] = await Promise.all([
      prisma.$queryRaw<BucketRow[]>(sql.buckets),
      prisma.$queryRaw<GroupRow[]>(sql.groups),
      prisma.$queryRaw<DroppedRow[]>(sql.mostDropped),
      prisma.$queryRaw<DisagreementRow[]>(sql.disagreements),
      prisma.$queryRaw<LabelRow[]>(sql.labels),
    ]);
    return { ...shapeInsights(q, buckets, groups, dropped, lists), labels: shapeLabels(labels[0]) };
  } catch (error) {
    if (isUnknownTimeZone(error)) throw new UnknownTimeZoneError(q.tz);
    throw error;
  }
}

/** PostgreSQL's `time zone "…" not recognized`, wherever the driver adapter put its message. */
function isUnknownTimeZone(error: unknown): boolean {
  const cause = (error as { meta?: { driverAdapterError?: { cause?: { message?: unknown } } } } | null)?.meta?.driverAdapterError
    ?.cause;
  const texts = [error instanceof Error ? error.message : String(error), typeof cause?.message === "string" ? cause.message : ""];
  return texts.some((text) => /time zone .* not recognized/i.test(text));
}

// ---------------------------------------------------------------------------------------------
// Fragments

const col = (alias: string, name: string) => Prisma.raw(`${alias}."${name}"`);

/** ` AND store = … AND selector_model = …` for the filters that are set. */
function filtersSql(q: InsightsQuery, alias: string): Prisma.Sql {
  const parts: Prisma.Sql[] = [];
  if (q.store !== undefined) parts.push(Prisma.sql`${col(alias, "store")} = ${q.store}`);
  if (q.selector_model !== undefined) parts.push(Prisma.sql`${col(alias, "selector_model")} = ${q.selector_model}`);
  return parts.length === 0 ? Prisma.empty : Prisma.sql` AND ${Prisma.join(parts, " AND ")}`;
}

function spanSql(column: Prisma.Sql, span: Span | null): Prisma.Sql {
  if (span === null) return Prisma.sql`false`;
  return Prisma.sql`(${column} >= ${span.from}::timestamptz AND ${column} < ${span.to}::timestamptz)`;
}

function spansSql(column: Prisma.Sql, spans: readonly Span[]): Prisma.Sql {
  if (spans.length === 0) return Prisma.sql`false`;
  return Prisma.sql`(${Prisma.join(
    spans.map((s) => spanSql(column, s)),
    " OR ",
  )})`;
}

const counters = (alias: string) => Prisma.raw(COUNTER_KEYS.map((key) => `${alias}."${key}"`).join(", "));
const counterSums = Prisma.raw(COUNTER_KEYS.map((key) => `sum("${key}")::float8 AS "${key}"`).join(", "));
const countsFromFunction = Prisma.raw(["1", ...COUNTER_KEYS.slice(1).map((key) => `c."${key}"`)].join(", "));

// ---------------------------------------------------------------------------------------------
// Buckets: every bucket of the range in the zone, empty ones included (a gap is a gap, not a
// missing x position). Wall-clock buckets: across a DST change a day has 23 or 25 hours, a local
// hour that does not exist is left out, and a repeated one holds both.

interface BucketRow {
  local_start: string;
  start: Date;
  end: Date;
}

function bucketsSql(q: InsightsQuery): Prisma.Sql {
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
// Counters by bucket, store, model, reason and in total: one pass, GROUPING SETS.

interface GroupRow extends Record<string, unknown> {
  g_bucket: number;
  g_store: number;
  g_model: number;
  g_reason: number;
  g_marker: number;
  local_bucket: string | null;
  prompt: string | null;
  store: string | null;
  applied_key: boolean | null;
  model: string | null;
  reason: string | null;
}

function groupsSql(q: InsightsQuery, useRollups: boolean): Prisma.Sql {
  const { whole, edges } = splitRange(q.from, q.to, ROLLUP_STEP_MS, useRollups);
  return Prisma.sql`
    WITH cells AS (
      SELECT g."bucket" AS ts, g."store", g."selector_applied" AS applied_key, g."selector_model" AS model,
             g."selector_reason" AS reason, g."selector_prompt_version" AS prompt, ${counters("g")}
      FROM "recall_rollup" AS g
      WHERE ${spanSql(col("g", "bucket"), whole)}${filtersSql(q, "g")}
      UNION ALL
      SELECT r."created_at", r."store", r."selector_applied", coalesce(r."selector_model", ''),
             coalesce(r."selector_reason", ''), coalesce(r."selector_prompt_version", ''), ${countsFromFunction}
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
    SELECT GROUPING(local_bucket) AS g_bucket, GROUPING(store) AS g_store,
           GROUPING(applied_key, model) AS g_model, GROUPING(applied_key, reason) AS g_reason,
           GROUPING(local_bucket, model, prompt) AS g_marker,
           local_bucket, store, applied_key, model, reason, prompt, ${counterSums}
    FROM keyed
    GROUP BY GROUPING SETS ((local_bucket), (store), (applied_key, model), (applied_key, reason), (local_bucket, model, prompt), ())`;
}

// ---------------------------------------------------------------------------------------------
// Most-dropped memories: rank every (store, memory) dropped in the range, then count how often
// the top ones were kept (hours in which they were not dropped included).

interface DroppedRow {
  store: string;
  memory_id: string;
  dropped: number;
  kept: number;
  summary: string | null;
}

function mostDroppedSql(q: InsightsQuery, useRollups: boolean, limit: number): Prisma.Sql {
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
    LEFT JOIN "memories" AS mem ON t.store = ${EMBEDDED_STORE} AND mem."id" = t.memory_id
    ORDER BY t.dropped DESC, t.store, t.memory_id`;
}

// ---------------------------------------------------------------------------------------------
// Disagreements, newest first. The conditions are word for word the partial indexes'
// predicates (recalls_top_dropped_idx, recalls_weak_kept_all_idx), so the planner uses them.

interface DisagreementRow {
  kind: "top_dropped" | "weak_kept_all";
  id: string;
  created_at: Date;
  store: string;
  query: string;
  level: string | null;
  top_score: number | null;
  selector_model: string | null;
  kept: number | null;
  dropped: number | null;
  top_memory_id: string | null;
  top_summary: string | null;
}

function disagreementsSql(q: InsightsQuery, limit: number): Prisma.Sql {
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

interface LabelRow {
  labeled: number | string | null;
  dropped_relevant: number | string | null;
  kept_only_irrelevant: number | string | null;
}

function labelsSql(q: InsightsQuery): Prisma.Sql {
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
// Shaping (pure)

function addSums(a: CounterSums, b: CounterSums): CounterSums {
  const out = { ...a };
  for (const key of COUNTER_KEYS) out[key] = a[key] + b[key];
  return out;
}

/**
 * Where the selector changed: each (model, prompt version) tried for the first time after the
 * range's first bucket with a selector at work. A pair already in use in that first bucket is
 * the starting setup, not a change.
 */
export function seriesMarkers(
  series: readonly Pick<InsightSeriesPoint, "local_start" | "start" | "applied" | "selector_failed">[],
  uses: readonly { model: string; prompt: string; local_bucket: string }[],
): SeriesMarker[] {
  const first = series.find((p) => p.applied + p.selector_failed > 0);
  if (!first) return [];
  const ordered = [...uses].sort(
    (a, b) => a.local_bucket.localeCompare(b.local_bucket) || a.model.localeCompare(b.model) || a.prompt.localeCompare(b.prompt),
  );
  const seenModels = new Set<string>();
  const markers: SeriesMarker[] = [];
  for (const u of ordered) {
    const known = seenModels.has(u.model);
    seenModels.add(u.model);
    // What was in use in the first active bucket is the starting setup, not a change.
    if (u.local_bucket <= first.local_start) continue;
    const point = series.find((p) => p.local_start === u.local_bucket);
    const kind = known ? "prompt" : "model";
    markers.push({
      local_start: u.local_bucket,
      start: point?.start ?? u.local_bucket,
      kind,
      selector_model: u.model,
      prompt_version: u.prompt || null,
      label:
        kind === "prompt"
          ? `${u.model}: prompt ${u.prompt || "unversioned"}`
          : `${u.model}${u.prompt ? ` (prompt ${u.prompt})` : ""} first used`,
    });
  }
  return markers;
}

export function shapeInsights(
  q: InsightsQuery,
  buckets: readonly BucketRow[],
  groups: readonly GroupRow[],
  dropped: readonly DroppedRow[],
  lists: readonly DisagreementRow[],
): InsightsResponse {
  const byBucket = new Map<string, CounterSums>();
  const stores: StoreInsight[] = [];
  // Per model, what it ran on (applied) and what it failed on (not applied, kind failed).
  const modelSums = new Map<string, CounterSums>();
  const reasons = new Map<string | null, number>();
  // Per (model, prompt version): the first bucket it was tried in, for the series markers.
  const firstUse = new Map<string, { model: string; prompt: string; local_bucket: string }>();
  let totals: CounterSums = ZERO_SUMS;

  for (const row of groups) {
    const sums = sumsFromRow(row);
    const gBucket = Number(row.g_bucket);
    const gStore = Number(row.g_store);
    const gModel = Number(row.g_model);
    const gReason = Number(row.g_reason);
    const gMarker = Number(row.g_marker);
    if (gMarker === 0 && gBucket === 0 && row.local_bucket !== null && gModel !== 0) {
      if (row.model && sums.applied + sums.selector_failed > 0) {
        const key = `${row.model}\u0000${row.prompt ?? ""}`;
        const seen = firstUse.get(key);
        if (!seen || row.local_bucket < seen.local_bucket)
          firstUse.set(key, { model: row.model, prompt: row.prompt ?? "", local_bucket: row.local_bucket });
      }
    } else if (gBucket === 0 && row.local_bucket !== null) byBucket.set(row.local_bucket, sums);
    else if (gStore === 0 && row.store !== null) stores.push({ store: row.store, ...toStats(sums) });
    else if (gModel === 0) {
      // A model counts where it ran or tried: applied rows, and not-applied rows it failed on.
      const key = row.model ?? "";
      modelSums.set(key, addSums(modelSums.get(key) ?? ZERO_SUMS, sums));
    } else if (gReason === 0) {
      if (row.applied_key === false) {
        const notApplied = sums.recalls - sums.failed - sums.applied;
        if (notApplied > 0) {
          const key = row.reason || null;
          reasons.set(key, (reasons.get(key) ?? 0) + notApplied);
        }
      }
    } else totals = sums;
  }

  const from = q.from.getTime();
  const to = q.to.getTime();
  const series: InsightSeriesPoint[] = buckets.map((b) => {
    const start = new Date(b.start);
    const end = new Date(b.end);
    return {
      start: start.toISOString(),
      end: end.toISOString(),
      local_start: b.local_start,
      partial: start.getTime() < from || end.getTime() > to,
      ...toStats(byBucket.get(b.local_start) ?? ZERO_SUMS),
    };
  });

  const totalStats = toStats(totals);
  const notApplied = totalStats.not_applied;
  const reasonList: ReasonInsight[] = [...reasons.entries()]
    .map(([reason, recalls]) => ({ reason, kind: selectorReasonKind(reason), recalls, share: ratio(recalls, notApplied) ?? 0 }))
    .sort((a, b) => b.recalls - a.recalls || String(a.reason).localeCompare(String(b.reason)));

  stores.sort((a, b) => b.recalls - a.recalls || a.store.localeCompare(b.store));
  const models: ModelInsight[] = [...modelSums.entries()]
    .map(([model, sums]) => ({ selector_model: model || null, ...toStats(sums) }))
    .filter((m) => m.tried > 0);
  models.sort((a, b) => b.tried - a.tried || String(a.selector_model).localeCompare(String(b.selector_model)));

  const items: DroppedMemory[] = dropped.map((row) => {
    const d = Number(row.dropped);
    const k = Number(row.kept);
    return {
      store: row.store,
      memory_id: row.memory_id,
      summary: row.summary ?? null,
      dropped: d,
      kept: k,
      drop_share: ratio(d, d + k),
    };
  });

  const list = (kind: DisagreementRow["kind"]): DisagreementItem[] =>
    lists
      .filter((row) => row.kind === kind)
      .map((row) => ({
        id: row.id,
        created_at: new Date(row.created_at).toISOString(),
        store: row.store,
        query: row.query,
        level: row.level,
        top_score: row.top_score === null ? null : Number(row.top_score),
        selector_model: row.selector_model,
        kept: row.kept === null ? null : Number(row.kept),
        dropped: row.dropped === null ? null : Number(row.dropped),
        top_memory_id: row.top_memory_id,
        top_summary: row.top_summary,
      }));

  return {
    from: q.from.toISOString(),
    to: q.to.toISOString(),
    bucket: q.bucket,
    tz: q.tz,
    filters: { store: q.store ?? null, selector_model: q.selector_model ?? null },
    totals: totalStats,
    series,
    by_store: stores,
    by_model: models,
    not_applied_reasons: reasonList,
    markers: seriesMarkers(series, [...firstUse.values()]),
    most_dropped: { items, unlisted_drops: Math.max(0, totals.dropped - totals.listed_dropped) },
    disagreements: {
      top_dropped: {
        total: totals.high_top_dropped + totals.moderate_top_dropped + totals.low_top_dropped + totals.none_top_dropped,
        items: list("top_dropped"),
      },
      weak_kept_all: { total: totals.weak_kept_all, items: list("weak_kept_all") },
    },
    labels: shapeLabels(undefined),
    limits: { max_buckets: MAX_INSIGHT_BUCKETS, list_size: INSIGHT_LIST_SIZE },
  };
}
