import "server-only";
import type { Prisma, PrismaClient } from "@prisma/client";
import { WhatIfTally, type WhatIfSummary } from "@/lib/calibration/what-if";
import type { Level } from "@/lib/recall/confidence";
import type { Thresholds } from "@/lib/recall/thresholds";
import { historyWhere, type HistoryFilters } from "@/lib/recall-log/history";
import { candidatesOf } from "./labeled";

/** Recalls read per batch: big enough that 1M is ~200 round trips, small enough to stream progress. */
export const WHAT_IF_BATCH = 5_000;

export type WhatIfEvent =
  | { type: "start"; total: number }
  | { type: "progress"; done: number; total: number }
  | ({ type: "result"; cancelled: boolean } & WhatIfSummary);

/**
 * Recomputes the level of every matching logged recall under a profile, newest first, in keyset
 * batches over (created_at, id): each batch reads its rows, then the stored pools of the ones that
 * kept one. Failed recalls have no level and are skipped. Yields progress after each batch; stops
 * early (reporting what it saw) when the signal aborts.
 */
export async function* whatIf(
  prisma: PrismaClient,
  profile: { thresholds: Thresholds; pool_size: number | null },
  filters: HistoryFilters,
  options: { signal?: AbortSignal; maxFlips?: number; batch?: number } = {},
): AsyncGenerator<WhatIfEvent> {
  const base: Prisma.RecallWhereInput = { AND: [historyWhere(filters), { status: "ok" }, { level: { not: null } }] };
  const total = await prisma.recall.count({ where: base });
  yield { type: "start", total };
  const tally = new WhatIfTally(profile, options.maxFlips);
  const batch = options.batch ?? WHAT_IF_BATCH;
  let cursor: { createdAt: Date; id: string } | undefined;
  let done = 0;
  for (;;) {
    if (options.signal?.aborted) break;
    const where = cursor ? { AND: [historyWhere({ ...filters, cursor } as HistoryFilters & { cursor: typeof cursor }), { status: "ok" }, { level: { not: null } }] } : base;
    const rows = await prisma.recall.findMany({
      where,
      select: { id: true, createdAt: true, k: true, level: true, basis: true, topScore: true, prominence: true, relativeMargin: true, hasCandidates: true },
      orderBy: [{ createdAt: "desc" }, { id: "desc" }],
      take: batch,
    });
    if (rows.length === 0) break;
    const pools = await candidatesOf(prisma, rows.filter((r) => r.hasCandidates).map((r) => r.id));
    for (const r of rows) {
      tally.add({
        id: r.id,
        k: r.k,
        level: r.level as Level,
        stated: { basis: r.basis, top_score: r.topScore, prominence: r.prominence, relative_margin: r.relativeMargin },
        candidates: r.hasCandidates ? (pools.get(r.id) ?? []) : null,
      });
    }
    done += rows.length;
    const last = rows[rows.length - 1]!;
    cursor = { createdAt: last.createdAt, id: last.id };
    yield { type: "progress", done, total };
    if (rows.length < batch) break;
  }
  yield { type: "result", cancelled: options.signal?.aborted === true, ...tally.summary() };
}
