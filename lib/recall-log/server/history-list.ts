/**
 * One page of the recall history (`GET /api/recalls`): the filters (history.ts) as Prisma's WHERE,
 * and the flattened columns of a row as a `HistoryItem`. The exports (export.ts) map their raw-SQL
 * rows through the same `toHistoryItem`.
 *
 * Paging is keyset on (created_at DESC, id DESC): the cursor is the last row's pair and the next
 * page is every row strictly after it in that order, so rows sharing a timestamp are neither
 * repeated nor skipped, and a deep page costs what the first one does.
 *
 * Server code in use, but Prisma is a type-only import (the client is an argument).
 */
import type { Prisma, PrismaClient } from "@prisma/client";
import { keysetAfter, keysetPage } from "@/lib/pagination/keyset";
import { SELECTOR_REASON_KINDS, SELECTOR_REASONS } from "@/lib/recall/selector-reasons";
import {
  PRESENT_LABEL_OF,
  type HistoryCursor,
  type HistoryFilters,
  type HistoryItem,
  type HistoryPage,
  type HistoryQuery,
} from "../history";
import { labelsFromColumns, relevantIds } from "../labels";
import { recallSource } from "../sources";

export const HISTORY_SELECT = {
  id: true,
  createdAt: true,
  source: true,
  traceId: true,
  store: true,
  query: true,
  k: true,
  searchMode: true,
  status: true,
  level: true,
  topScore: true,
  prominence: true,
  basis: true,
  degraded: true,
  profileName: true,
  profileLevel: true,
  returnedCount: true,
  selectorApplied: true,
  selectorModel: true,
  selectorKept: true,
  selectorDropped: true,
  selectorReason: true,
  topDropped: true,
  latencyMs: true,
  hasCandidates: true,
  labelPresent: true,
  labelResults: true,
  labeler: true,
  labeledAt: true,
} as const satisfies Prisma.RecallSelect;

export type HistoryRow = Prisma.RecallGetPayload<{ select: typeof HISTORY_SELECT }>;

/** The WHERE clause of a history page; the cursor part is the keyset condition of lib/pagination. */
export function historyWhere(query: HistoryFilters & { cursor?: HistoryCursor | undefined }): Prisma.RecallWhereInput {
  const and: Prisma.RecallWhereInput[] = [];
  if (query.store !== undefined) and.push({ store: query.store });
  if (query.verdict !== undefined && query.verdict.length > 0) {
    // The store's verdict: its profile's level where a profile judged the recall, else the
    // reference level (judgedLevelSql in lib/insights/server/sql/fragments.ts, the same rule).
    const levels = [...query.verdict];
    and.push({
      OR: [
        { profileName: null, level: { in: levels } },
        { profileName: { not: null }, profileLevel: { in: levels } },
      ],
    });
  }
  if (query.level !== undefined && query.level.length > 0) {
    and.push({ level: query.level.length === 1 ? query.level[0] : { in: [...query.level] } });
  }
  if (query.profile_level !== undefined && query.profile_level.length > 0) {
    and.push({ profileLevel: query.profile_level.length === 1 ? query.profile_level[0] : { in: [...query.profile_level] } });
  }
  if (query.profile !== undefined) and.push({ profileName: query.profile });
  if (query.mode !== undefined) and.push({ searchMode: query.mode });
  if (query.selector_applied !== undefined) and.push({ selectorApplied: query.selector_applied });
  if (query.has_dropped === true) and.push({ selectorDropped: { gt: 0 } });
  if (query.has_dropped === false) and.push({ OR: [{ selectorDropped: null }, { selectorDropped: { lte: 0 } }] });
  if (query.status !== undefined) and.push({ status: query.status });
  if (query.source !== undefined) and.push({ source: query.source });
  if (query.trace_id !== undefined) and.push({ traceId: query.trace_id });
  if (query.selector_model !== undefined) and.push({ selectorModel: query.selector_model });
  // Array containment (@>), which the GIN index on dropped_memory_ids serves.
  if (query.dropped_memory !== undefined) and.push({ droppedMemoryIds: { has: query.dropped_memory } });
  if (query.selector_reason !== undefined) and.push({ selectorApplied: false, selectorReason: query.selector_reason });
  if (query.selector_kind !== undefined) {
    const reasons = SELECTOR_REASONS.filter((r) => SELECTOR_REASON_KINDS[r] === query.selector_kind);
    and.push({ selectorApplied: false, status: "ok", selectorReason: { in: reasons } });
  }
  if (query.top_dropped !== undefined) and.push({ topDropped: query.top_dropped });
  // Prisma passes `contains` to ILIKE as is: % and _ (and the escape character) are made literal.
  // labeled_at / label_present are set only on labeled rows: the partial indexes of
  // *_recall_labels hold exactly those, in (created_at, id) order.
  if (query.label === "labeled") and.push({ labeledAt: { not: null } });
  else if (query.label === "unlabeled") and.push({ labeledAt: null });
  else if (query.label !== undefined) and.push({ labelPresent: PRESENT_LABEL_OF[query.label] });
  if (query.q !== undefined) and.push({ query: { contains: escapeLike(query.q), mode: "insensitive" } });
  if (query.from !== undefined || query.to !== undefined) {
    and.push({
      createdAt: { ...(query.from ? { gte: query.from } : {}), ...(query.to ? { lt: query.to } : {}) },
    });
  }
  if (query.cursor) and.push(...keysetAfter(query.cursor));
  return and.length === 0 ? {} : and.length === 1 ? and[0]! : { AND: and };
}

/** Text → an ILIKE pattern fragment matching exactly that text (backslash is Postgres's default escape). */
export function escapeLike(text: string): string {
  return text.replace(/[\\%_]/g, (ch) => `\\${ch}`);
}

/** One page of the history, newest first. */
export async function listRecalls(prisma: PrismaClient, query: HistoryQuery): Promise<HistoryPage> {
  const rows = await prisma.recall.findMany({
    where: historyWhere(query),
    orderBy: [{ createdAt: "desc" }, { id: "desc" }],
    take: query.limit + 1,
    select: HISTORY_SELECT,
  });
  const { page, nextCursor } = keysetPage(rows, query.limit);
  const probabilities = await profileProbabilities(
    prisma,
    page.filter((row) => row.profileName !== null).map((row) => row.id),
  );
  return {
    items: page.map((row) => toHistoryItem({ ...row, profileProbability: probabilities.get(row.id) ?? null })),
    next_cursor: nextCursor,
  };
}

/**
 * The calibrated probability of each of these recalls whose profile has a verdict model, read
 * from the logged `profile_confidence` by one primary-key lookup of the page's ids. Prisma selects
 * a JSON column only whole, and the block (trace, thresholds, signals) is far larger than the one
 * number the table shows.
 */
async function profileProbabilities(prisma: PrismaClient, ids: readonly string[]): Promise<Map<string, number>> {
  if (ids.length === 0) return new Map();
  const rows = await prisma.$queryRaw<{ id: string; probability: number | string }[]>`
    SELECT r."id"::text AS id, (r."profile_confidence" ->> 'probability')::float8 AS probability
    FROM "recalls" AS r
    WHERE r."id" = ANY(${[...ids]}::uuid[]) AND jsonb_typeof(r."profile_confidence" -> 'probability') = 'number'`;
  return new Map(rows.map((row) => [row.id, Number(row.probability)]));
}

/** A row of the page, with the verdict's probability where it was read (the exports leave it out). */
export type HistoryRowWithProbability = HistoryRow & { profileProbability?: number | null };

export function toHistoryItem(row: HistoryRowWithProbability): HistoryItem {
  return {
    id: row.id,
    created_at: row.createdAt.toISOString(),
    source: recallSource(row.source),
    trace_id: row.traceId,
    store: row.store,
    query: row.query,
    k: row.k,
    search_mode: row.searchMode,
    status: row.status === "error" ? "error" : "ok",
    level: row.level,
    top_score: row.topScore,
    prominence: row.prominence,
    basis: row.basis,
    degraded: row.degraded !== null && row.degraded !== undefined,
    profile_name: row.profileName,
    profile_level: row.profileLevel,
    profile_probability: row.profileProbability ?? null,
    returned_count: row.returnedCount,
    selector_applied: row.selectorApplied,
    selector_model: row.selectorModel,
    selector_kept: row.selectorKept,
    selector_dropped: row.selectorDropped,
    selector_reason: row.selectorReason,
    top_dropped: row.topDropped,
    latency_ms: row.latencyMs,
    has_candidates: row.hasCandidates,
    ...historyLabels(row),
  };
}

function historyLabels(
  row: HistoryRow,
): Pick<HistoryItem, "label_present" | "label_relevant" | "label_not_relevant" | "labeler" | "labeled_at"> {
  const labels = labelsFromColumns(row);
  return {
    label_present: labels.present,
    label_relevant: relevantIds(labels.results),
    label_not_relevant: Object.keys(labels.results)
      .filter((id) => labels.results[id] === false)
      .sort(),
    labeler: labels.labeler,
    labeled_at: labels.labeled_at,
  };
}
