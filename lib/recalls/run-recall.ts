import { randomUUID } from "node:crypto";
import type { PrismaClient } from "@prisma/client";
import { EmbeddingServiceError } from "@/lib/embeddings/types";
import { selectorNotApplied, type SelectorBlock } from "@/lib/recall/selector";
import { DEFAULT_THRESHOLDS } from "@/lib/recall/thresholds";
import { StoreError, type MemoryStore, type StoreRecallOutcome } from "@/lib/stores/types";
import { insertRecall, recallRow, toRecallView, type LogRecallInput } from "./repository";
import type { RecallBody } from "./schemas";
import type { RecallRequestView, RecallView } from "./types";

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
export async function runRecall(body: RecallBody, store: MemoryStore, prisma: PrismaClient): Promise<RecallView> {
  const id = randomUUID();
  const createdAt = new Date();
  const request: RecallRequestView = {
    store: body.store,
    query: body.query,
    k: body.k,
    search_mode: body.search_mode,
    use_rerank: body.use_rerank,
    selector: body.selector,
    ...(body.filters ? { filters: body.filters } : {}),
  };

  const started = performance.now();
  let outcome: StoreRecallOutcome | undefined;
  let failure: LogRecallInput["error"];
  try {
    outcome = await store.recall({
      query: body.query,
      k: body.k,
      searchMode: body.search_mode,
      useRerank: body.use_rerank,
      filters: body.filters && { types: body.filters.types, tags: body.filters.tags, tagsMatch: body.filters.tags_match },
    });
  } catch (error) {
    failure = storeFailure(error);
  }
  const latencyMs = Math.round((performance.now() - started) * 100) / 100;

  const row = recallRow({
    id,
    createdAt,
    request,
    latencyMs,
    error: failure,
    outcome: outcome && {
      results: outcome.results,
      confidence: { ...outcome.confidence, threshold_values: { ...DEFAULT_THRESHOLDS } },
      selector: applySelector(body.selector),
      candidates: outcome.candidates,
      timings: outcome.timings,
      degraded: outcome.degraded,
    },
  });
  await insertRecall(prisma, row);
  if (failure) throw new RecallFailedError(failure.status, failure.code, failure.message, id);
  // The stored row reads back as exactly this view (the API test holds it to that).
  return toRecallView(row);
}

/** Until the selectors land (#9), only "off" runs; the others say why the page is unselected. */
function applySelector(choice: RecallBody["selector"]): SelectorBlock {
  return choice === "off" ? selectorNotApplied("disabled") : selectorNotApplied("unavailable");
}

function storeFailure(error: unknown): NonNullable<LogRecallInput["error"]> {
  if (error instanceof StoreError) return { status: error.status, code: error.code, message: error.message };
  if (error instanceof EmbeddingServiceError) {
    return { status: error.reason === "timeout" ? 504 : 502, code: "embedding_unavailable", message: error.message };
  }
  throw error;
}
