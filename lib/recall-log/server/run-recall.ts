import type { PrismaClient } from "@prisma/client";
import { randomUUID } from "node:crypto";
import { profileConfidenceBlock } from "@/lib/calibration/level";
import type { StoreNull } from "@/lib/calibration/model";
import type { Profile } from "@/lib/calibration/profile";
import type { OpenDatabase } from "@/lib/db/server/connection";
import { EmbeddingServiceError } from "@/lib/embeddings/types";
import { CLIENT_CLOSED } from "@/lib/errors/client-closed";
import type { IngestedSelectorBlock } from "@/lib/recall/selector-block";
import { DEFAULT_THRESHOLDS } from "@/lib/recall/thresholds";
import { runSelector } from "@/lib/selectors";
import { StoreError, type MemoryStore, type StoreRecallOutcome } from "@/lib/stores/types";
import { logRecall, recallRow, toRecallView, type LogRecallInput } from "./repository";
import { unloggedReason } from "../row-guard";
import type { RecallBody } from "../schemas";
import type { LoggedRequest, LoggedRecall } from "../types";

/** A recall whose store failed; it was logged, and `recallId` names the log entry. */
export class RecallFailedError extends Error {
  override readonly name = "RecallFailedError";
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    readonly recallId: string,
  ) {
    super(message);
  }
}

/**
 * Runs a recall on a store, applies the selector setting, and logs the recall with its whole
 * candidate list. A store failure is logged too, then raised as RecallFailedError.
 */
export async function runRecall(
  body: RecallBody,
  store: MemoryStore,
  prisma: PrismaClient,
  options: {
    signal?: AbortSignal;
    env?: Readonly<Record<string, string | undefined>>;
    /**
     * The store's threshold profile; a non-reference one adds `profile_confidence` beside the wire
     * block. A promise is awaited only once the store has answered, so its lookup runs while the
     * store works (the query's embedding, on a worker).
     */
    profile?: StoreProfile | Promise<StoreProfile>;
    /** Logs in the background where the database keeps order (repository.ts `logRecall`); awaited without it. */
    sendOrderedWrite?: OpenDatabase["sendOrderedWrite"];
    /** Set by an evaluation run (lib/eval/runs.ts): the recall is logged with source "eval", linked to it. */
    evalRun?: { id: string; item: number };
  } = {},
): Promise<LoggedRecall> {
  const id = randomUUID();
  const createdAt = new Date();
  const request: LoggedRequest = {
    // The store that answered: a body naming none meant the default store.
    store: store.name,
    query: body.query,
    k: body.k,
    search_mode: body.search_mode ?? "hybrid",
    ...(body.search_mode === undefined ? { search_mode_auto: true as const } : {}),
    // Whether the caller asked for a rerank; unset (the store's setting) is logged as not asked.
    use_rerank: body.use_rerank === true,
    selector: body.selector,
    ...(body.filters ? { filters: body.filters } : {}),
  };

  const storeRequest = {
    query: body.query,
    k: body.k,
    searchMode: body.search_mode ?? "hybrid",
    searchModeChosen: body.search_mode !== undefined,
    useRerank: body.use_rerank,
    filters: body.filters && { types: body.filters.types, tags: body.filters.tags, tagsMatch: body.filters.tags_match },
  };
  const profile = Promise.resolve(options.profile ?? null);
  profile.catch(() => {}); // awaited below when the store answers; unused when it fails
  // A request the store cannot serve at all is refused (4xx) before it runs, and not logged.
  store.checkRequest?.(storeRequest);
  const started = performance.now();
  let outcome: StoreRecallOutcome | undefined;
  let failure: LogRecallInput["error"];
  try {
    outcome = await store.recall(storeRequest, options.signal);
  } catch (error) {
    failure = storeFailure(error, options.signal);
  }
  let selection: Awaited<ReturnType<typeof select>> | null = null;
  if (outcome) {
    try {
      selection = await select(body, outcome, options);
    } catch (error) {
      if (!options.signal?.aborted) throw error;
    }
  }
  // The caller went away while the store or the selector worked (the embedded store does not
  // watch the signal): logged as cancelled whatever the store did, so every store reads alike.
  if (options.signal?.aborted && !failure) {
    failure = CANCELLED;
    outcome = undefined;
  }
  const latencyMs = Math.round((performance.now() - started) * 100) / 100;

  const profileConfidence = outcome ? profileBlock(await profile, body.k, outcome) : null;
  const row = recallRow({
    id,
    createdAt,
    request,
    latencyMs,
    ...(options.evalRun ? { source: "eval" as const, evalRun: options.evalRun } : {}),
    error: failure,
    outcome: outcome && {
      results: outcome.results,
      confidence: { ...outcome.confidence, threshold_values: { ...DEFAULT_THRESHOLDS } },
      selector: selection!.block,
      droppedIds: selection!.droppedIds,
      selectorUsage: selection!.usage,
      selectorModel: selection!.model,
      selectorPromptVersion: selection!.promptVersion,
      candidates: outcome.candidates,
      timings: { ...outcome.timings, ...(selection!.ms === null ? {} : { selector_ms: selection!.ms }) },
      degraded: outcome.degraded,
      notices: outcome.notices,
      profileConfidence,
    },
  });
  await logRecall(prisma, row, options.sendOrderedWrite);
  // An answer the log could not take is logged as failed (row-guard.ts): shown as it was logged.
  const refused = failure ?? unloggedReason(row);
  if (refused) throw new RecallFailedError(refused.status, refused.code, refused.message, id);
  // The stored row reads back as exactly this view (the API test holds it to that).
  return toRecallView(row);
}

/**
 * What the selector did to the page. A store that ran its own selector (a remote service)
 * reports its block, which stands when the console asked for none; otherwise the chosen
 * strategy runs here. Every result stays on the logged page; dropped ones are marked (reads
 * split them out as `dropped_results`, lib/recall-log/page.ts). The run's trace — what the
 * selector saw and said, and its cost — is logged in `selector_usage`, never a key.
 */
async function select(
  body: RecallBody,
  outcome: StoreRecallOutcome,
  options: { signal?: AbortSignal; env?: Readonly<Record<string, string | undefined>> },
): Promise<{
  block: IngestedSelectorBlock;
  droppedIds: string[];
  usage: Record<string, unknown> | null;
  model: string | null;
  promptVersion: string | null;
  ms: number | null;
}> {
  if (body.selector === "off" && outcome.selector) {
    const block = outcome.selector;
    return {
      block,
      droppedIds: block.applied ? (block.dropped_memory_ids ?? []) : [],
      usage: null,
      model: null,
      promptVersion: null,
      ms: null,
    };
  }
  const rawCosine = new Map((outcome.candidates ?? []).map((c) => [c.memory_id, c.raw_cosine]));
  const page = outcome.results.map((r) => ({
    memory_id: r.memory_id,
    summary: r.summary,
    score: r.score,
    raw_cosine: rawCosine.get(r.memory_id) ?? (body.search_mode === "semantic" ? r.score : null),
  }));
  const run = await runSelector(body.selector, { query: body.query, page }, { env: options.env, signal: options.signal });
  const kept = new Set(run.keptIds);
  const { prompt_version: promptVersion, ...trace } = run.trace ?? {};
  const usage =
    body.selector === "off"
      ? null
      : { latency_ms: run.latency_ms, ...(run.usage ?? {}), ...(run.detail ? { detail: run.detail } : {}), ...trace };
  return {
    block: run.block,
    droppedIds: page.filter((p) => !kept.has(p.memory_id)).map((p) => p.memory_id),
    usage,
    model: run.model ?? null,
    promptVersion: promptVersion ?? null,
    ms: body.selector === "off" ? null : Math.round(run.latency_ms * 1000) / 1000,
  };
}

/**
 * The profile's block beside the reference one (none for the reference profile itself). A profile
 * with a verdict model reads the keyword arm's evidence and, once the store calibrated itself
 * without labels, the store's own null (lib/calibration/README.md "Threshold profiles").
 */
type StoreProfile = (Pick<Profile, "name" | "thresholds" | "pool_size" | "model"> & { store_null?: StoreNull | null }) | null;

function profileBlock(profile: StoreProfile, k: number, outcome: StoreRecallOutcome) {
  if (!profile || profile.name === DEFAULT_THRESHOLDS.name) return null;
  return profileConfidenceBlock(profile, {
    candidates: outcome.candidates,
    k,
    stated: outcome.confidence,
    keywordEvidence: outcome.keywordEvidence,
    storeNull: profile.store_null,
  });
}

/** The caller went away (lib/errors/client-closed.ts). */
const CANCELLED = { ...CLIENT_CLOSED, message: "The recall was cancelled before the store answered." } as const;

function storeFailure(error: unknown, signal: AbortSignal | undefined): NonNullable<LogRecallInput["error"]> {
  // Next aborts the request's signal with its own ResponseAborted error, which is not an
  // AbortError: the signal, not the error's name, says whether the caller went away.
  if (signal?.aborted) return { ...CANCELLED };
  if (error instanceof Error && (error.name === "AbortError" || error.name === "ResponseAborted")) return { ...CANCELLED };
  if (error instanceof StoreError) return { status: error.status, code: error.code, message: error.message };
  if (error instanceof EmbeddingServiceError) {
    return { status: error.reason === "timeout" ? 504 : 502, code: "embedding_unavailable", message: error.message };
  }
  throw error;
}
