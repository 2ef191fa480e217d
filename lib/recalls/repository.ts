import { Prisma, type PrismaClient, type Recall, type RecallCandidate } from "@prisma/client";
import type { SelectorBlock } from "@/lib/recall/selector";
import type { StoreRecallOutcome } from "@/lib/stores/types";
import type { CandidateView, ConfidenceView, RecallRequestView, RecallResultView, RecallView } from "./types";

/**
 * The recall log: one row per recall (flattened confidence and selector fields for filtering and
 * aggregation, the full blocks as JSON) and one row per candidate. Written in one statement, so a
 * recall is logged whole or not at all.
 */

type RecallRow = Recall & { candidates: RecallCandidate[] };

export interface LogRecallInput {
  id: string;
  createdAt: Date;
  source?: "console" | "ingest";
  request: RecallRequestView;
  latencyMs: number;
  /** A recall that ran. */
  outcome?: {
    results: RecallResultView[];
    confidence: ConfidenceView;
    selector: SelectorBlock;
    candidates: StoreRecallOutcome["candidates"];
    timings: Record<string, number>;
    degraded?: { reason: string };
  };
  /** A recall whose store failed. */
  error?: { code: string; message: string; status: number };
}

/** Builds the rows for a recall; `toRecallView` of the result is exactly what a later read returns. */
export function recallRow(input: LogRecallInput): RecallRow {
  const { outcome, error, request } = input;
  const confidence = outcome?.confidence ?? null;
  const selector = outcome?.selector ?? null;
  const dropped = new Set(selector?.applied ? selector.dropped_memory_ids : []);
  const candidates: RecallCandidate[] = (outcome?.candidates ?? []).map((c) => ({
    recallId: input.id,
    rank: c.rank,
    memoryId: c.memory_id,
    summary: c.summary,
    rawCosine: c.raw_cosine,
    keywordScore: c.keyword_score,
    hybridScore: c.hybrid_score,
    inPool: c.in_pool,
    returned: c.returned,
    dropped: c.returned && dropped.has(c.memory_id),
  }));
  const results = (outcome?.results ?? []).map((r) => (dropped.has(r.memory_id) ? { ...r, dropped: true } : r));
  return {
    id: input.id,
    createdAt: input.createdAt,
    source: input.source ?? "console",
    externalId: null,
    store: request.store,
    query: request.query,
    k: request.k,
    searchMode: request.search_mode,
    request: request as unknown as Prisma.JsonValue,
    status: error ? "error" : "ok",
    error: error ? ({ code: error.code, message: error.message, status: error.status } as Prisma.JsonValue) : null,
    latencyMs: input.latencyMs,
    timings: (outcome?.timings ?? {}) as Prisma.JsonValue,
    level: confidence?.level ?? null,
    topScore: confidence?.top_score ?? null,
    prominence: confidence?.prominence ?? null,
    relativeMargin: confidence?.relative_margin ?? null,
    resultCount: confidence?.result_count ?? null,
    backgroundMean: confidence?.background_mean ?? null,
    backgroundStd: confidence?.background_std ?? null,
    backgroundDerived: confidence?.background_derived ?? false,
    basis: confidence?.basis ?? null,
    thresholdsProfile: confidence?.thresholds ?? null,
    confidence: confidence as unknown as Prisma.JsonValue,
    selectorApplied: selector?.applied ?? false,
    selectorModel: selector?.applied ? selector.model : null,
    selectorReason: selector && !selector.applied ? selector.reason : null,
    selectorKept: selector?.applied ? selector.kept : null,
    selectorDropped: selector?.applied ? selector.dropped : null,
    droppedMemoryIds: selector?.applied ? selector.dropped_memory_ids : [],
    selector: selector as unknown as Prisma.JsonValue,
    results: results as unknown as Prisma.JsonValue,
    returnedCount: results.length,
    hasCandidates: outcome?.candidates != null,
    degraded: outcome?.degraded ? (outcome.degraded as unknown as Prisma.JsonValue) : null,
    candidates,
  };
}

export async function insertRecall(prisma: PrismaClient, row: RecallRow): Promise<void> {
  const { candidates, ...recall } = row;
  await prisma.recall.create({
    data: {
      ...recall,
      request: recall.request as Prisma.InputJsonValue,
      error: jsonOrNull(recall.error),
      timings: jsonOrNull(recall.timings),
      confidence: jsonOrNull(recall.confidence),
      selector: jsonOrNull(recall.selector),
      results: recall.results as Prisma.InputJsonValue,
      degraded: jsonOrNull(recall.degraded),
      candidates: candidates.length
        ? { createMany: { data: candidates.map(({ recallId: _recallId, ...c }) => c) } }
        : undefined,
    },
  });
}

export async function findRecall(prisma: PrismaClient, id: string): Promise<RecallView | null> {
  const row = await prisma.recall.findUnique({ where: { id }, include: { candidates: { orderBy: { rank: "asc" } } } });
  return row ? toRecallView(row) : null;
}

export function toRecallView(row: RecallRow): RecallView {
  const error = row.error as { code: string; message: string } | null;
  const candidates: CandidateView[] | null = row.hasCandidates
    ? row.candidates.map((c) => ({
        memory_id: c.memoryId,
        summary: c.summary,
        rank: c.rank,
        raw_cosine: c.rawCosine,
        keyword_score: c.keywordScore,
        hybrid_score: c.hybridScore,
        in_pool: c.inPool,
        returned: c.returned,
        dropped: c.dropped,
      }))
    : null;
  return {
    id: row.id,
    created_at: row.createdAt.toISOString(),
    source: row.source === "ingest" ? "ingest" : "console",
    store: row.store,
    status: row.status === "error" ? "error" : "ok",
    request: row.request as unknown as RecallRequestView,
    results: row.results as unknown as RecallResultView[],
    confidence: row.confidence as unknown as ConfidenceView | null,
    selector: row.selector as unknown as RecallView["selector"],
    candidates,
    timings: (row.timings ?? {}) as Record<string, number>,
    latency_ms: row.latencyMs,
    ...(row.degraded ? { degraded: row.degraded as unknown as { reason: string } } : {}),
    ...(error ? { error: { code: error.code, message: error.message } } : {}),
  };
}

/** Absent blocks are stored as SQL NULL (Prisma tells that apart from a JSON null). */
function jsonOrNull(value: Prisma.JsonValue | null): Prisma.InputJsonValue | typeof Prisma.DbNull {
  return value === null ? Prisma.DbNull : (value as Prisma.InputJsonValue);
}
