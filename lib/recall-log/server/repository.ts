import { Prisma, type PrismaClient, type Recall, type RecallCandidate } from "@prisma/client";
import { kSensitivity, type ProfileConfidenceBlock } from "@/lib/calibration/level";
import type { OpenDatabase } from "@/lib/db/server/connection";
import { candidatesK, DEFAULT_FETCH_FACTOR, fetchSize, type SearchMode } from "@/lib/recall/merge";
import { buriedHitNotices, type RecallNotice } from "@/lib/recall/notices";
import type { IngestedSelectorBlock } from "@/lib/recall/selector-block";
import type { StoreRecallOutcome } from "@/lib/stores/types";
import { labelsFromColumns } from "../labels";
import { splitPage } from "../page";
import { rowProblem, unloggable } from "../row-guard";
import { recallSource } from "../sources";
import type { LoggedCandidate, LoggedConfidence, LoggedRequest, LoggedResult, LoggedRecall, LoggedSelectorTrace } from "../types";

/**
 * The recall log: one row per recall (flattened confidence and selector fields for filtering and
 * aggregation, the full blocks as JSON) and one row per candidate. Written in one statement, so a
 * recall is logged whole or not at all.
 */

export type RecallRow = Recall & { candidates: RecallCandidate[] };

export interface LogRecallInput {
  id: string;
  createdAt: Date;
  source?: LoggedRecall["source"];
  /** Idempotency key of an ingested recall. */
  externalId?: string | null;
  /** The OpenTelemetry span a captured recall came from (source "otel"). */
  trace?: { traceId: string; spanId: string } | null;
  /** The evaluation run (and item position in its set) that made this recall. */
  evalRun?: { id: string; item: number };
  request: LoggedRequest;
  latencyMs: number | null;
  /** A recall that ran. */
  outcome?: {
    results: LoggedResult[];
    /** Null when a service answered without a confidence block. */
    confidence: LoggedConfidence | null;
    selector: IngestedSelectorBlock | null;
    /**
     * Every id the selector removed from the page. The block's own list stops at 20; without
     * this, rows are marked from that list.
     */
    droppedIds?: readonly string[];
    selectorUsage?: Record<string, unknown> | null;
    /**
     * The strategy's model when it was asked but did not apply (failed, skipped): the block then
     * names none, and the failure rate is per model. Ignored when the block is applied.
     */
    selectorModel?: string | null;
    /** The LLM selector's prompt version, when an LLM was asked. */
    selectorPromptVersion?: string | null;
    candidates: StoreRecallOutcome["candidates"];
    timings: Record<string, number>;
    degraded?: { reason: string };
    /** What the store noticed (lib/recall/notices.ts); none when omitted. */
    notices?: readonly RecallNotice[];
    /** The level under the store's profile when it is not the reference (lib/calibration/level.ts). */
    profileConfidence?: ProfileConfidenceBlock | null;
  };
  /** A recall whose store failed. */
  error?: { code: string; message: string; status: number };
}

/**
 * Builds the rows for a recall; `toRecallView` of the result is exactly what a later read returns.
 *
 * The last guard before the database (lib/recall-log/README.md "The recall log"): every column of
 * the row is held to the rule for untrusted JSON's depth and text (no NUL, no unpaired
 * surrogate). PGlite's jsonb parser runs out of WebAssembly memory on a value ~1,100 levels deep
 * and then answers nothing until a restart; a NUL fails the statement. A row that breaks it is
 * logged instead as a failed recall (`unloggable_value`) whose message says where and why; the
 * value itself is not kept.
 */
export function recallRow(input: LogRecallInput): RecallRow {
  const row = buildRow(input);
  const problem = rowProblem(row);
  return problem ? buildRow(unloggable(input, problem)) : row;
}

function buildRow(input: LogRecallInput): RecallRow {
  const { outcome, error, request } = input;
  const confidence = outcome?.confidence ?? null;
  const selector = outcome?.selector ?? null;
  const droppedIds = selector?.applied ? (selector.dropped_memory_ids ?? []) : [];
  const dropped = new Set(outcome?.droppedIds ?? droppedIds);
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
  const top = outcome && !error ? topMemory(candidates, results, dropped) : null;
  return {
    id: input.id,
    createdAt: input.createdAt,
    source: input.source ?? "console",
    externalId: input.externalId ?? null,
    traceId: input.trace?.traceId ?? null,
    spanId: input.trace?.spanId ?? null,
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
    selectorModel: selector?.applied ? (selector.model ?? null) : (outcome?.selectorModel ?? null),
    selectorReason: selector && !selector.applied ? (selector.reason ?? null) : null,
    selectorKept: selector?.applied ? (selector.kept ?? null) : null,
    selectorDropped: selector?.applied ? (selector.dropped ?? null) : null,
    droppedMemoryIds: droppedIds,
    selector: selector as unknown as Prisma.JsonValue,
    selectorUsage: (outcome?.selectorUsage ?? null) as Prisma.JsonValue,
    selectorPromptVersion: outcome?.selectorPromptVersion ?? null,
    topMemoryId: top?.memoryId ?? null,
    topDropped: selector?.applied === true && (top?.dropped ?? false),
    results: results as unknown as Prisma.JsonValue,
    // The page the agent would read: the selector's dropped rows are logged but not counted.
    returnedCount: results.filter((r) => !r.dropped).length,
    hasCandidates: outcome?.candidates != null,
    degraded: outcome?.degraded ? (outcome.degraded as unknown as Prisma.JsonValue) : null,
    notices: outcome ? ((outcome.notices ?? []) as unknown as Prisma.JsonValue) : null,
    // Labels come later, from a person; a recall is logged unlabeled.
    labelPresent: null,
    labelResults: null,
    labeler: null,
    labeledAt: null,
    evalRunId: input.evalRun?.id ?? null,
    evalItem: input.evalRun?.item ?? null,
    profileName: outcome?.profileConfidence?.profile ?? null,
    profileLevel: outcome?.profileConfidence?.level ?? null,
    profileConfidence: (outcome?.profileConfidence ?? null) as unknown as Prisma.JsonValue,
    candidates,
  };
}

/**
 * The memory the level rests on: the one whose raw cosine set `top_score` — the pool's highest
 * raw cosine, the lowest rank on ties, rank 1 of the pool when no candidate has a cosine
 * (keyword-only) — and whether the selector dropped it. Without a pool (remote, most ingested
 * recalls), rank 1 of the logged page. The migration *_selector_truth applies the same rule to
 * recalls logged before.
 */
export function topMemory(
  candidates: readonly Pick<RecallCandidate, "memoryId" | "rank" | "rawCosine" | "inPool" | "dropped">[],
  results: readonly (LoggedResult & { dropped?: boolean })[],
  dropped: ReadonlySet<string>,
): { memoryId: string; dropped: boolean } | null {
  let best: (typeof candidates)[number] | null = null;
  for (const c of candidates) {
    if (best === null) {
      best = c;
      continue;
    }
    const cmp =
      Number(c.inPool) - Number(best.inPool) || (c.rawCosine ?? -Infinity) - (best.rawCosine ?? -Infinity) || best.rank - c.rank;
    if (cmp > 0) best = c;
  }
  if (best) return { memoryId: best.memoryId, dropped: best.dropped };
  const first = results[0];
  return first ? { memoryId: first.memory_id, dropped: first.dropped === true || dropped.has(first.memory_id) } : null;
}

/**
 * Writes a recall and its candidates in ONE statement (a data-modifying CTE): atomic without a
 * transaction round trip, and a few milliseconds instead of Prisma's nested create, which the
 * logging budget of a recall cannot afford (npm run bench -- logging).
 */
export async function insertRecall(prisma: PrismaClient, row: RecallRow): Promise<void> {
  await prisma.$queryRaw(recallInsertStatement([row]));
}

/**
 * Logs one recall where the database keeps the order of statements (`sendOrderedWrite`, PGlite)
 * without the answer waiting for it — every later read still sees it — and otherwise awaits it
 * (lib/recall-log/README.md "The recall log"). A background write that fails is reported on the console.
 */
export async function logRecall(
  prisma: PrismaClient,
  row: RecallRow,
  sendOrderedWrite?: OpenDatabase["sendOrderedWrite"],
): Promise<void> {
  if (!sendOrderedWrite) return insertRecall(prisma, row);
  const { text, values } = recallInsertStatement([row]);
  sendOrderedWrite(text, values, (error) =>
    console.error(
      `Recall Inspector: recall ${row.id} could not be logged (${error instanceof Error ? error.message : String(error)}).`,
    ),
  );
}

/** Rows per statement: 40 parameters a recall stays far below PostgreSQL's 65,535. */
const INSERT_BATCH = 500;

/**
 * Writes recalls and their candidates, a batch per statement. A recall whose `external_id` is
 * already stored is skipped (ON CONFLICT), candidates and all, even when a concurrent ingest
 * wrote it a moment ago. Returns the ids actually written.
 */
export async function insertRecalls(prisma: PrismaClient, rows: readonly RecallRow[]): Promise<Set<string>> {
  const written = new Set<string>();
  for (let start = 0; start < rows.length; start += INSERT_BATCH) {
    const ids = await prisma.$queryRaw<{ id: string }[]>(recallInsertStatement(rows.slice(start, start + INSERT_BATCH)));
    for (const { id } of ids) written.add(id);
  }
  return written;
}

/** The one statement that writes recalls with their candidates; it answers the ids written. */
export function recallInsertStatement(batch: readonly RecallRow[]): Prisma.Sql {
  return Prisma.sql`
    WITH inserted AS (
      INSERT INTO "recalls" (
        "id", "created_at", "source", "external_id", "store", "query", "k", "search_mode", "request",
        "status", "error", "latency_ms", "timings", "level", "top_score", "prominence", "relative_margin",
        "result_count", "background_mean", "background_std", "background_derived", "basis",
        "thresholds_profile", "confidence", "selector_applied", "selector_model", "selector_reason",
        "selector_kept", "selector_dropped", "dropped_memory_ids", "selector", "selector_usage", "results",
        "returned_count", "has_candidates", "degraded", "eval_run_id", "eval_item", "selector_prompt_version",
        "top_memory_id", "top_dropped", "profile_name", "profile_level", "profile_confidence",
        "trace_id", "span_id", "notices"
      ) VALUES ${Prisma.join(batch.map(recallValues))}
      ON CONFLICT ("external_id") DO NOTHING
      RETURNING "id"
    ), candidates AS (
      INSERT INTO "recall_candidates"
        ("recall_id", "rank", "memory_id", "summary", "raw_cosine", "keyword_score", "hybrid_score", "in_pool", "returned", "dropped")
      SELECT u.*
      FROM ${candidateArrays(batch.flatMap((row) => row.candidates))} AS u(recall_id, rank, memory_id, summary, raw_cosine, keyword_score, hybrid_score, in_pool, returned, dropped)
      WHERE u.recall_id IN (SELECT "id" FROM inserted)
    )
    SELECT "id"::text AS id FROM inserted`;
}

const json = (value: Prisma.JsonValue | null) => (value === null ? null : JSON.stringify(value));
// Doubles go as their shortest exact text: the drivers' own number encoding can drop the last
// digit, and then a reload would not show exactly what the console showed.
const f = (value: number | null) => (value === null ? null : String(value));

function recallValues(row: RecallRow): Prisma.Sql {
  return Prisma.sql`(
    ${row.id}::uuid, ${row.createdAt}::timestamptz, ${row.source}, ${row.externalId}, ${row.store}, ${row.query},
    ${row.k}::int, ${row.searchMode}, ${json(row.request)}::jsonb, ${row.status}, ${json(row.error)}::jsonb,
    ${row.latencyMs}::real, ${json(row.timings)}::jsonb, ${row.level}, ${f(row.topScore)}::float8, ${f(row.prominence)}::float8,
    ${f(row.relativeMargin)}::float8, ${row.resultCount}::int, ${f(row.backgroundMean)}::float8, ${f(row.backgroundStd)}::float8,
    ${row.backgroundDerived}, ${row.basis}, ${row.thresholdsProfile}, ${json(row.confidence)}::jsonb,
    ${row.selectorApplied}, ${row.selectorModel}, ${row.selectorReason}, ${row.selectorKept}::int,
    ${row.selectorDropped}::int, ${row.droppedMemoryIds}::text[], ${json(row.selector)}::jsonb,
    ${json(row.selectorUsage)}::jsonb, ${json(row.results)}::jsonb, ${row.returnedCount}::int, ${row.hasCandidates}, ${json(row.degraded)}::jsonb,
    ${row.evalRunId}::uuid, ${row.evalItem}::int, ${row.selectorPromptVersion}, ${row.topMemoryId}, ${row.topDropped},
    ${row.profileName}, ${row.profileLevel}, ${json(row.profileConfidence)}::jsonb,
    ${row.traceId}, ${row.spanId}, ${json(row.notices)}::jsonb
  )`;
}

/** All candidates of a batch as one unnest() of column arrays. */
function candidateArrays(c: readonly RecallCandidate[]): Prisma.Sql {
  return Prisma.sql`unnest(
    ${c.map((x) => x.recallId)}::uuid[], ${c.map((x) => x.rank)}::int[], ${c.map((x) => x.memoryId)}::text[],
    ${c.map((x) => x.summary)}::text[], ${c.map((x) => f(x.rawCosine))}::float8[], ${c.map((x) => f(x.keywordScore))}::float8[],
    ${c.map((x) => f(x.hybridScore))}::float8[], ${c.map((x) => x.inPool)}::bool[], ${c.map((x) => x.returned)}::bool[],
    ${c.map((x) => x.dropped)}::bool[]
  )`;
}

export async function findRecall(prisma: PrismaClient, id: string): Promise<LoggedRecall | null> {
  const row = await prisma.recall.findUnique({ where: { id }, include: { candidates: { orderBy: { rank: "asc" } } } });
  return row ? toRecallView(row) : null;
}

function selectorTrace(row: RecallRow): LoggedSelectorTrace | null {
  const usage = row.selectorUsage;
  if (usage === null || typeof usage !== "object" || Array.isArray(usage)) return null;
  return {
    model: row.selectorModel,
    ...(row.selectorPromptVersion ? { prompt_version: row.selectorPromptVersion } : {}),
    ...(usage as Omit<LoggedSelectorTrace, "model">),
  };
}

/** The logged candidates of a row; null when the store exposed no pool. */
export function loggedCandidates(row: Pick<RecallRow, "hasCandidates" | "candidates">): LoggedCandidate[] | null {
  return row.hasCandidates
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
}

/** The logged page of a row split into kept and dropped results (page.ts). */
export function loggedPage(
  row: Pick<RecallRow, "results" | "droppedMemoryIds" | "searchMode">,
  candidates: LoggedCandidate[] | null,
): Pick<LoggedRecall, "results" | "dropped_results"> {
  return splitPage({
    logged: Array.isArray(row.results) ? (row.results as unknown as LoggedResult[]) : [],
    droppedIds: row.droppedMemoryIds,
    candidates,
    searchMode: (row.searchMode as LoggedRequest["search_mode"]) ?? "hybrid",
  });
}

export function toRecallView(row: RecallRow): LoggedRecall {
  const error = row.error as { code: string; message: string } | null;
  const candidates = loggedCandidates(row);
  return {
    id: row.id,
    created_at: row.createdAt.toISOString(),
    source: recallSource(row.source),
    ...(row.traceId && row.spanId ? { trace: { trace_id: row.traceId, span_id: row.spanId } } : {}),
    store: row.store,
    status: row.status === "error" ? "error" : "ok",
    request: row.request as unknown as LoggedRequest,
    ...loggedPage(row, candidates),
    confidence: row.confidence as unknown as LoggedConfidence | null,
    selector: row.selector as unknown as LoggedRecall["selector"],
    selector_trace: selectorTrace(row),
    top_memory: row.topMemoryId ? { memory_id: row.topMemoryId, dropped: row.topDropped } : null,
    candidates,
    timings: (row.timings ?? {}) as Record<string, number>,
    latency_ms: row.latencyMs,
    ...(row.degraded ? { degraded: row.degraded as unknown as { reason: string } } : {}),
    notices: recallNotices(row, candidates),
    ...(error ? { error: { code: error.code, message: error.message } } : {}),
    ...(row.evalRunId ? { eval_run: { id: row.evalRunId, item: row.evalItem ?? 0 } } : {}),
    ...(row.profileConfidence ? { profile_confidence: row.profileConfidence as unknown as ProfileConfidenceBlock } : {}),
    // Derived on read from the stored merged list (cheap and pure), so every logged pool has it.
    ...(candidates
      ? { k_sensitivity: kSensitivity(candidates, profileOf(row.profileConfidence as unknown as ProfileConfidenceBlock | null)) }
      : {}),
    labels: labelsFromColumns(row),
  };
}

/**
 * The notices as the store made them at recall time; a recall logged before notices existed gets
 * the buried-hit notices derived from its candidate list (without the BM25 computed for display,
 * which needed the live index).
 */
function recallNotices(row: RecallRow, candidates: LoggedCandidate[] | null): RecallNotice[] {
  if (Array.isArray(row.notices)) return row.notices as unknown as RecallNotice[];
  if (!candidates || row.status === "error") return [];
  const request = row.request as unknown as Partial<LoggedRequest> | null;
  return buriedHitNotices({
    searchMode: (row.searchMode as SearchMode) ?? "hybrid",
    candidates,
    fetchSize: fetchSize(candidatesK({ k: row.k }), DEFAULT_FETCH_FACTOR, { rerank: request?.use_rerank === true }),
  });
}

// A verdict model's level does not move with k as the rules' does: its k-strip shows the reference only.
function profileOf(block: ProfileConfidenceBlock | null) {
  return block && block.probability === undefined
    ? { name: block.profile, thresholds: block.thresholds, pool_size: block.pool_size }
    : null;
}
