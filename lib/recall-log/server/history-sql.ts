/**
 * The History filters as raw SQL over "recalls": the same conditions as `historyWhere`
 * (history-list.ts), for the readers that cannot go through Prisma's row mapping — the count and its
 * planner estimate (history-count.ts) and the streamed exports (export.ts), which read 1M rows.
 * tests/recall-log/history.test.ts holds the two to the same rows for every filter, on both
 * databases.
 *
 * Server-only in use (it builds Prisma.Sql) but imports only Prisma's runtime helpers.
 */
import { Prisma } from "@prisma/client";
import type { KeysetPosition } from "@/lib/pagination/keyset";
import { SELECTOR_REASON_KINDS, SELECTOR_REASONS } from "@/lib/recall/selector-reasons";
import { PRESENT_LABEL_OF, type HistoryFilters } from "../history";
import { escapeLike } from "./history-list";

/**
 * `alias."column" … AND …` for the filters that are set (and the keyset position, when given),
 * or `true` when none is. `alias` is the table's alias in the caller's FROM (null: bare column names).
 */
export function historyWhereSql(
  filters: HistoryFilters & { cursor?: KeysetPosition | undefined },
  alias: string | null = "r",
): Prisma.Sql {
  const c = (name: string) => Prisma.raw(alias === null ? `"${name}"` : `${alias}."${name}"`);
  const and: Prisma.Sql[] = [];
  const f = filters;
  if (f.store !== undefined) and.push(Prisma.sql`${c("store")} = ${f.store}`);
  if (f.verdict !== undefined && f.verdict.length > 0) {
    // The store's verdict: the profile's level where a profile judged the recall, else the
    // reference level. "" stands for no profile in Insights' rollups, NULL in "recalls".
    and.push(
      Prisma.sql`(CASE WHEN coalesce(${c("profile_name")}, '') = '' THEN ${c("level")} ELSE ${c("profile_level")} END) = ANY(${[...f.verdict]}::text[])`,
    );
  }
  if (f.level !== undefined && f.level.length > 0) and.push(Prisma.sql`${c("level")} = ANY(${[...f.level]}::text[])`);
  if (f.profile_level !== undefined && f.profile_level.length > 0) {
    and.push(Prisma.sql`${c("profile_level")} = ANY(${[...f.profile_level]}::text[])`);
  }
  if (f.profile !== undefined) and.push(Prisma.sql`${c("profile_name")} = ${f.profile}`);
  if (f.mode !== undefined) and.push(Prisma.sql`${c("search_mode")} = ${f.mode}`);
  if (f.selector_applied !== undefined) and.push(Prisma.sql`${c("selector_applied")} = ${f.selector_applied}`);
  if (f.has_dropped === true) and.push(Prisma.sql`${c("selector_dropped")} > 0`);
  if (f.has_dropped === false) and.push(Prisma.sql`(${c("selector_dropped")} IS NULL OR ${c("selector_dropped")} <= 0)`);
  if (f.status !== undefined) and.push(Prisma.sql`${c("status")} = ${f.status}`);
  if (f.source !== undefined) and.push(Prisma.sql`${c("source")} = ${f.source}`);
  if (f.trace_id !== undefined) and.push(Prisma.sql`${c("trace_id")} = ${f.trace_id}`);
  if (f.selector_model !== undefined) and.push(Prisma.sql`${c("selector_model")} = ${f.selector_model}`);
  // Array containment (@>), which the GIN index on dropped_memory_ids serves.
  if (f.dropped_memory !== undefined) and.push(Prisma.sql`${c("dropped_memory_ids")} @> ARRAY[${f.dropped_memory}]::text[]`);
  if (f.selector_reason !== undefined) {
    and.push(Prisma.sql`NOT ${c("selector_applied")} AND ${c("selector_reason")} = ${f.selector_reason}`);
  }
  if (f.selector_kind !== undefined) {
    const reasons = SELECTOR_REASONS.filter((r) => SELECTOR_REASON_KINDS[r] === f.selector_kind);
    and.push(
      Prisma.sql`NOT ${c("selector_applied")} AND ${c("status")} = 'ok' AND ${c("selector_reason")} = ANY(${reasons}::text[])`,
    );
  }
  if (f.top_dropped !== undefined) and.push(Prisma.sql`${c("top_dropped")} = ${f.top_dropped}`);
  // labeled_at / label_present: the partial indexes of *_recall_labels hold exactly the labeled rows.
  if (f.label === "labeled") and.push(Prisma.sql`${c("labeled_at")} IS NOT NULL`);
  else if (f.label === "unlabeled") and.push(Prisma.sql`${c("labeled_at")} IS NULL`);
  else if (f.label !== undefined) and.push(Prisma.sql`${c("label_present")} = ${PRESENT_LABEL_OF[f.label]}`);
  if (f.q !== undefined) and.push(Prisma.sql`${c("query")} ILIKE ${`%${escapeLike(f.q)}%`}`);
  if (f.from !== undefined) and.push(Prisma.sql`${c("created_at")} >= ${f.from}::timestamptz`);
  if (f.to !== undefined) and.push(Prisma.sql`${c("created_at")} < ${f.to}::timestamptz`);
  if (f.cursor) {
    // The row comparison the (created_at DESC, id DESC) index serves (lib/pagination/keyset.ts).
    and.push(Prisma.sql`(${c("created_at")}, ${c("id")}) < (${f.cursor.createdAt}::timestamptz, ${f.cursor.id}::uuid)`);
  }
  return and.length === 0 ? Prisma.sql`true` : Prisma.join(and, " AND ");
}
