/**
 * How many recalls a History filter selects (`GET /api/recalls/count`), and how they split by
 * the store's verdict, by reference level and by profile level.
 *
 * Exact where cheap: the matching rows are counted up to `COUNT_EXACT_CAP` (a LIMIT inside the
 * count, so a million matches cost what ten thousand do). Beyond it the total is the database
 * planner's row estimate for the same WHERE (EXPLAIN), never below the cap, and the answer says
 * so (`exact: false`). The split is over the same rows: all of them when exact, else the newest
 * `COUNT_EXACT_CAP` (`grouped` says how many).
 */
import { Prisma, type PrismaClient } from "@prisma/client";
import type { HistoryFilters } from "../history";
import { historyWhereSql } from "./history-sql";

export const COUNT_EXACT_CAP = 10_000;

export interface HistoryCount {
  /** The count: exact, or the planner's estimate when more than the cap match. */
  total: number;
  exact: boolean;
  /** Recalls the split below was counted over. */
  grouped: number;
  /**
   * Per level of the store's verdict: the profile's level where a profile judged the recall, else
   * the reference level (`unknown`: a failed recall or no confidence block).
   */
  by_verdict: Record<string, number>;
  /** Per reference level (`unknown`: a failed recall or no confidence block). */
  by_level: Record<string, number>;
  /** Per profile level (`reference`: judged by the reference profile, no profile level). */
  by_profile_level: Record<string, number>;
  cap: number;
}

interface GroupRow {
  level: string | null;
  profile_level: string | null;
  /** Of the newest `cap`. */
  n: number | bigint;
  /** Of the newest `cap + 1` (one more says the count is past the cap). */
  m: number | bigint;
}

export async function countRecalls(prisma: PrismaClient, filters: HistoryFilters, cap = COUNT_EXACT_CAP): Promise<HistoryCount> {
  const where = historyWhereSql(filters, "r");
  const rows = await prisma.$queryRaw<GroupRow[]>(Prisma.sql`
    SELECT level, profile_level, (count(*) FILTER (WHERE rn <= ${cap}))::int AS n, count(*)::int AS m
    FROM (
      SELECT r."level", r."profile_level", row_number() OVER (ORDER BY r."created_at" DESC, r."id" DESC) AS rn
      FROM "recalls" AS r
      WHERE ${where}
      ORDER BY r."created_at" DESC, r."id" DESC
      LIMIT ${cap + 1}
    ) AS newest
    GROUP BY level, profile_level`);
  const counted = rows.reduce((sum, row) => sum + Number(row.m), 0);
  const exact = counted <= cap;
  const total = exact ? counted : Math.max(cap + 1, await plannerEstimate(prisma, where));
  return { total, exact, ...split(rows), cap };
}

/** The split over the newest `cap` rows. */
function split(rows: readonly GroupRow[]): Pick<HistoryCount, "grouped" | "by_verdict" | "by_level" | "by_profile_level"> {
  const byVerdict: Record<string, number> = {};
  const byLevel: Record<string, number> = {};
  const byProfile: Record<string, number> = {};
  let grouped = 0;
  for (const row of rows) {
    const n = Number(row.n);
    if (n === 0) continue;
    grouped += n;
    // A profile's level is logged with its name, so a null profile level is the reference's judgement.
    const verdict = row.profile_level ?? row.level ?? "unknown";
    byVerdict[verdict] = (byVerdict[verdict] ?? 0) + n;
    byLevel[row.level ?? "unknown"] = (byLevel[row.level ?? "unknown"] ?? 0) + n;
    byProfile[row.profile_level ?? "reference"] = (byProfile[row.profile_level ?? "reference"] ?? 0) + n;
  }
  return { grouped, by_verdict: byVerdict, by_level: byLevel, by_profile_level: byProfile };
}

/** The planner's row estimate for the filter (EXPLAIN without running it). */
async function plannerEstimate(prisma: PrismaClient, where: Prisma.Sql): Promise<number> {
  const plan = await prisma.$queryRaw<{ "QUERY PLAN": unknown }[]>(
    Prisma.sql`EXPLAIN (FORMAT JSON) SELECT 1 FROM "recalls" AS r WHERE ${where}`,
  );
  const rows = planRows(plan[0]?.["QUERY PLAN"]);
  return rows === null ? 0 : Math.round(rows);
}

/** "Plan Rows" of the top node of an EXPLAIN (FORMAT JSON) answer (text or parsed), else null. */
export function planRows(value: unknown): number | null {
  let parsed = value;
  if (typeof parsed === "string") {
    try {
      parsed = JSON.parse(parsed);
    } catch {
      return null;
    }
  }
  const top = Array.isArray(parsed) ? (parsed[0] as { Plan?: { "Plan Rows"?: unknown } } | undefined) : undefined;
  const rows = top?.Plan?.["Plan Rows"];
  return typeof rows === "number" && Number.isFinite(rows) ? rows : null;
}

export interface HistoryFacets {
  /** Stores configured here or seen in the log, configured ones first. */
  stores: { name: string; configured: boolean }[];
  /** Selector models seen in the log. */
  selector_models: string[];
}

/**
 * The stores and selector models History's pickers offer. Read from the Insights rollup (one row
 * per 15 minutes × store × model, so small at any history size) rather than by a DISTINCT over
 * the recalls.
 */
export async function historyFacets(prisma: PrismaClient, configured: readonly string[]): Promise<HistoryFacets> {
  const [stores, models] = await Promise.all([
    prisma.$queryRaw<{ store: string }[]>(Prisma.sql`SELECT DISTINCT "store" FROM "recall_rollup" ORDER BY 1`),
    prisma.$queryRaw<{ model: string }[]>(
      Prisma.sql`SELECT DISTINCT "selector_model" AS model FROM "recall_rollup" WHERE "selector_model" <> '' ORDER BY 1`,
    ),
  ]);
  const known = new Set(configured);
  return {
    stores: [
      ...configured.map((name) => ({ name, configured: true })),
      ...stores.filter((s) => !known.has(s.store)).map((s) => ({ name: s.store, configured: false })),
    ],
    selector_models: models.map((m) => m.model),
  };
}
