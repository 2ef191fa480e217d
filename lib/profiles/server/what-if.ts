import { Prisma, type PrismaClient } from "@prisma/client";
import { ApiError } from "@/lib/api/errors";
import type { StoredCandidate } from "@/lib/calibration/level";
import type { RecallSignals, VerdictModel } from "@/lib/calibration/model";
import { DEFAULT_PROFILE, editProfile } from "@/lib/calibration/profile";
import { WhatIfTally, type WhatIfSummary } from "@/lib/calibration/what-if";
import type { Level } from "@/lib/recall/confidence";
import type { Thresholds } from "@/lib/recall/thresholds";
import { HistoryFiltersSchema, type HistoryFilters } from "@/lib/recall-log/history";
import { historyWhereSql } from "@/lib/recall-log/server/history-sql";
import type { WhatIfBody } from "../schemas";
import { getProfile } from "./index";

/** Recalls read per batch: big enough that 1M is ~200 round trips, small enough to stream progress. */
export const WHAT_IF_BATCH = 5_000;

export type WhatIfEvent =
  | { type: "start"; total: number }
  | { type: "progress"; done: number; total: number }
  | ({ type: "result"; cancelled: boolean } & WhatIfSummary);

/**
 * The History filters as SQL over "recalls" (lib/recall-log/history-sql.ts, every History filter),
 * plus what a what-if needs: a recall that ran and has a level.
 */
export function filtersSql(f: HistoryFilters): Prisma.Sql {
  return Prisma.sql`"status" = 'ok' AND "level" IS NOT NULL AND ${historyWhereSql(f, null)}`;
}

interface BatchRow {
  id: string;
  created_at: Date;
  k: number;
  level: string;
  basis: string | null;
  top_score: number | null;
  prominence: number | null;
  relative_margin: number | null;
  has_candidates: boolean;
  query: string;
  label_present: string | null;
  signals: RecallSignals | null;
}

/**
 * Recomputes the level of every matching logged recall under a profile against the store's verdict
 * as each recall logged it (its profile's level, else the reference level), newest first, in keyset
 * batches over (created_at, id): each batch reads its rows, then the stored pools of the ones that
 * kept one. Failed recalls have no level and are skipped. Yields progress after each batch; stops
 * early (reporting what it saw) when the signal aborts.
 */
export async function* whatIf(
  prisma: PrismaClient,
  profile: { thresholds: Thresholds; pool_size: number | null; model?: VerdictModel | null },
  filters: HistoryFilters,
  options: { signal?: AbortSignal; maxFlips?: number; batch?: number } = {},
): AsyncGenerator<WhatIfEvent> {
  const where = filtersSql(filters);
  const counted = await prisma.$queryRaw<{ count: number }[]>`SELECT count(*)::int AS count FROM "recalls" WHERE ${where}`;
  const total = Number(counted[0]?.count ?? 0);
  yield { type: "start", total };
  const tally = new WhatIfTally(profile, options.maxFlips);
  const batch = options.batch ?? WHAT_IF_BATCH;
  let cursor: { createdAt: Date; id: string } | undefined;
  let done = 0;
  for (;;) {
    if (options.signal?.aborted) break;
    const after = cursor
      ? Prisma.sql`AND "created_at" <= ${cursor.createdAt}::timestamptz AND ("created_at" < ${cursor.createdAt}::timestamptz OR "id" < ${cursor.id}::uuid)`
      : Prisma.empty;
    const rows = await prisma.$queryRaw<BatchRow[]>`
      SELECT "id"::text AS id, "created_at", "k", COALESCE("profile_level", "level") AS level, "basis", "top_score",
             "prominence", "relative_margin", "has_candidates", "query", "label_present", "profile_confidence"->'signals' AS signals
      FROM "recalls" WHERE ${where} ${after}
      ORDER BY "created_at" DESC, "id" DESC LIMIT ${batch}`;
    if (rows.length === 0) break;
    const withPool = rows.filter((r) => r.has_candidates).map((r) => r.id);
    const pools = await poolsOf(prisma, withPool);
    for (const r of rows) {
      tally.add({
        id: r.id,
        k: r.k,
        level: r.level as Level,
        query: r.query,
        label: r.label_present,
        signals: r.signals,
        stated: { basis: r.basis, top_score: r.top_score, prominence: r.prominence, relative_margin: r.relative_margin },
        candidates: r.has_candidates ? (pools.get(r.id) ?? []) : null,
      });
    }
    done += rows.length;
    const last = rows[rows.length - 1]!;
    cursor = { createdAt: new Date(last.created_at), id: last.id };
    yield { type: "progress", done, total };
    if (rows.length < batch) break;
  }
  yield { type: "result", cancelled: options.signal?.aborted === true, ...tally.summary() };
}

async function poolsOf(prisma: PrismaClient, ids: readonly string[]): Promise<Map<string, StoredCandidate[]>> {
  const out = new Map<string, StoredCandidate[]>();
  if (ids.length === 0) return out;
  const rows = await prisma.$queryRaw<
    { recall_id: string; raw_cosine: number | null; hybrid_score: number | null; keyword_score: number | null }[]
  >`
    SELECT "recall_id"::text AS recall_id, "raw_cosine", "hybrid_score", "keyword_score" FROM "recall_candidates"
    WHERE "recall_id" = ANY(${[...ids]}::uuid[]) ORDER BY "recall_id", "rank"`;
  for (const r of rows) {
    let list = out.get(r.recall_id);
    if (!list) out.set(r.recall_id, (list = []));
    list.push({ raw_cosine: r.raw_cosine, hybrid_score: r.hybrid_score, keyword_score: r.keyword_score });
  }
  return out;
}

/**
 * A what-if as asked on the API: the named profile (or the reference's constants) with any edited
 * constants over it. A saved verdict model judges unless constants were edited, since an edit is a
 * rule of the old shape.
 */
export async function whatIfOf(
  prisma: PrismaClient,
  body: WhatIfBody,
  signal?: AbortSignal,
): Promise<AsyncGenerator<WhatIfEvent>> {
  const filters = HistoryFiltersSchema.safeParse(body.filters);
  if (!filters.success) throw ApiError.validation(filters.error, "body");
  const base = body.profile ? await getProfile(prisma, body.profile) : DEFAULT_PROFILE;
  const chosen = editProfile(base, { thresholds: body.thresholds, pool_size: body.pool_size });
  const edited = body.thresholds !== undefined || body.pool_size !== undefined;
  return whatIf(prisma, { ...chosen, model: edited ? null : (base.model ?? null) }, filters.data, { signal });
}
