/**
 * SQL fragments every Insights statement shares: the filters, the spans of a range, the counter
 * lists, and the level a recall was judged with. See index.ts for where the numbers come from.
 */
import { Prisma } from "@prisma/client";
import { historyWhereSql } from "@/lib/recall-log/server/history-sql";
import { RECALL_SOURCES } from "@/lib/recall-log/sources";
import type { Span } from "../../range";
import { COUNTER_KEYS } from "../../rates";
import type { InsightsQuery } from "../../schema";

export const col = (alias: string, name: string) => Prisma.raw(`${alias}."${name}"`);

/**
 * ` AND store = … AND level = ANY(…) …` for the filters that are set. The conditions are
 * History's own (`historyWhereSql`, lib/recall-log/history-sql.ts), so a drill-down lists exactly
 * what was counted; they apply to "recalls" and to both rollups alike, which carry the filtered
 * columns under the same names ("" where the recall has null, which no filter value equals).
 */
export function filtersSql(q: InsightsQuery, alias: string): Prisma.Sql {
  const filters = {
    store: q.store,
    selector_model: q.selector_model,
    verdict: q.verdict,
    level: q.level,
    profile_level: q.profile_level,
    profile: q.profile,
  };
  const source = sourcesSql(q, alias);
  if (Object.values(filters).every((v) => v === undefined)) return source;
  return Prisma.sql` AND ${historyWhereSql(filters, alias)}${source}`;
}

/**
 * ` AND source = ANY(…)` unless every source is counted. History filters by one source; Insights
 * by a set (by default every one but evaluation runs), so this condition is its own. Both rollups
 * carry "source" (prisma/migrations/*_insights_source).
 */
function sourcesSql(q: InsightsQuery, alias: string): Prisma.Sql {
  const sources = q.sources;
  if (sources === undefined || RECALL_SOURCES.every((s) => sources.includes(s))) return Prisma.empty;
  return Prisma.sql` AND ${col(alias, "source")} = ANY(${[...sources]}::text[])`;
}

export function spanSql(column: Prisma.Sql, span: Span | null): Prisma.Sql {
  if (span === null) return Prisma.sql`false`;
  return Prisma.sql`(${column} >= ${span.from}::timestamptz AND ${column} < ${span.to}::timestamptz)`;
}

export function spansSql(column: Prisma.Sql, spans: readonly Span[]): Prisma.Sql {
  if (spans.length === 0) return Prisma.sql`false`;
  return Prisma.sql`(${Prisma.join(
    spans.map((s) => spanSql(column, s)),
    " OR ",
  )})`;
}

export const counters = (alias: string) => Prisma.raw(COUNTER_KEYS.map((key) => `${alias}."${key}"`).join(", "));
export const counterSums = Prisma.raw(COUNTER_KEYS.map((key) => `sum("${key}")::float8 AS "${key}"`).join(", "));
export const countsFromFunction = Prisma.raw(["1", ...COUNTER_KEYS.slice(1).map((key) => `c."${key}"`)].join(", "));

/**
 * The level a recall was judged with: its profile's level when a threshold profile judged it,
 * else the reference level ("" for none). On "recalls" (nulls) or a rollup ("" for null).
 */
export function judgedLevelSql(alias: string, table: "recalls" | "rollup"): Prisma.Sql {
  return table === "recalls"
    ? Prisma.raw(
        `CASE WHEN ${alias}."profile_name" IS NULL THEN coalesce(${alias}."level", '') ELSE coalesce(${alias}."profile_level", '') END`,
      )
    : Prisma.raw(`CASE WHEN ${alias}."profile_name" = '' THEN ${alias}."level" ELSE ${alias}."profile_level" END`);
}

/**
 * `GROUPING(c1, …, cn)` for the grouping set that keeps `kept`: bit i (from the left, highest
 * first) is 1 when column i is aggregated away, as PostgreSQL computes it.
 */
export function groupingMask(columns: readonly string[], kept: readonly string[]): number {
  return columns.reduce((mask, column, i) => (kept.includes(column) ? mask : mask | (1 << (columns.length - 1 - i))), 0);
}
