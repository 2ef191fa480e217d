/**
 * The embedded store's recall pipeline (docs/reference-rules.md "The hybrid merge"): both arms
 * over the in-memory index, the reference merge, an optional rerank, confidence over the pool,
 * and the notices a person should read beside the level (lib/recall/README.md "Explaining a
 * ranking"). Split from embedded-store.ts, which keeps the index in step with the database.
 */
import { EmbeddingServiceError, type Embedder } from "@/lib/embeddings/types";
import { computeConfidence } from "@/lib/recall/confidence";
import { KEYWORD_EVIDENCE_TOP_N } from "@/lib/recall/keyword-evidence";
import {
  armsForMode,
  buildCandidatePool,
  candidatesK,
  confidenceInputFromPool,
  DEFAULT_HYBRID_WEIGHTS,
  fetchSize,
  type ArmHit,
  type PoolCandidate,
} from "@/lib/recall/merge";
import { buriedHitNotices, type RecallNotice } from "@/lib/recall/notices";
import { applyRerank } from "@/lib/recall/rerank";
import { rerank, RerankError } from "@/lib/rerank/client";
import type { RerankConfig } from "@/lib/rerank/config";
import { StoreError, type PoolMember, type StoreRecallOutcome, type StoreRecallRequest } from "../../types";
import type { IndexFilter, MemoryIndex } from "../search-index/memory-index";
import type { MemoryMeta } from "../search-index/memory-meta";

export interface RecallContext {
  index: MemoryIndex;
  embedder: Embedder;
  fetchFactor: number;
  reranker: RerankConfig | null;
  meta(id: string): MemoryMeta | undefined;
  /** Throws the 409 while memories embedded with another model remain. */
  assertVectorsCurrent(): void;
}

/** `use_rerank` without a configured reranker: refused before anything runs or is logged. */
export function rerankRefusal(request: StoreRecallRequest, reranker: RerankConfig | null): StoreError | null {
  if (request.useRerank !== true || reranker) return null;
  return new StoreError(
    422,
    "rerank_unavailable",
    "use_rerank needs a reranker and none is configured: set RERANK_BASE_URL and RERANK_MODEL (README, Configuration), or recall without use_rerank.",
    { setting: "RERANK_BASE_URL" },
  );
}

export async function recallEmbedded(
  ctx: RecallContext,
  request: StoreRecallRequest,
  signal?: AbortSignal,
): Promise<StoreRecallOutcome> {
  const refusal = rerankRefusal(request, ctx.reranker);
  if (refusal) throw refusal;
  const timings: Record<string, number> = {};
  const time = async <T>(stage: string, fn: () => T | Promise<T>): Promise<T> => {
    const start = performance.now();
    try {
      return await fn();
    } finally {
      timings[stage] = Math.round((performance.now() - start) * 1000) / 1000;
    }
  };

  const arms = armsForMode(request.searchMode);
  const poolSize = candidatesK({ k: request.k });
  const fetch = fetchSize(poolSize, ctx.fetchFactor, { rerank: request.useRerank === true });
  const filter: IndexFilter = {
    types: request.filters?.types,
    tags: request.filters?.tags,
    tagsMatch: request.filters?.tagsMatch,
  };

  let semantic: ArmHit[] | null = null;
  let degraded: StoreRecallOutcome["degraded"];
  if (arms.semantic) ctx.assertVectorsCurrent();
  // The query is embedded in a worker (lib/embeddings); the keyword arm runs on this thread
  // meanwhile, so its time is hidden behind the embedding's.
  const embedding = arms.semantic ? time("embed_ms", () => ctx.embedder.embed([request.query], { priority: "query" })) : null;
  embedding?.catch(() => {}); // awaited (and its failure handled) below
  const keyword = arms.keyword ? await time("keyword_ms", () => ctx.index.keywordTop(request.query, fetch, filter)) : [];
  if (embedding) {
    try {
      const [vector] = await embedding;
      semantic = await time("semantic_ms", () => ctx.index.semanticTop(vector!, fetch, filter));
    } catch (error) {
      // As the reference (#1515): a hybrid search whose embedder fails goes on keyword-only.
      if (!(error instanceof EmbeddingServiceError)) throw error;
      if (request.searchMode !== "hybrid") throw new StoreError(502, "embedding_unavailable", error.message);
      degraded = { reason: "embedding_unavailable" };
    }
  }

  let list = await time("merge_ms", () => buildCandidatePool(request.searchMode, { semantic, keyword }));
  const notices: RecallNotice[] = [];
  let reranked = false;
  if (request.useRerank === true && ctx.reranker && list.length > 0) {
    const outcome = await time("rerank_ms", () => rerankList(ctx, request, list, poolSize, signal));
    notices.push(outcome.notice);
    if (outcome.list) {
      list = outcome.list;
      reranked = true;
    }
  }
  const pool = list.slice(0, poolSize);
  const confidence = await time("confidence_ms", () => computeConfidence(confidenceInputFromPool(pool)));

  const keywordRaw = new Map(keyword.map((hit) => [hit.id, hit.score]));
  const candidates: PoolMember[] = list.map((c, i) => ({
    memory_id: c.id,
    summary: ctx.meta(c.id)?.summary ?? null,
    rank: i + 1,
    raw_cosine: c.semantic_score_raw,
    keyword_score: keywordRaw.get(c.id) ?? null,
    hybrid_score: c.hybrid_score,
    in_pool: i < poolSize,
    returned: i < poolSize,
  }));
  notices.push(
    ...(await time("notices_ms", () =>
      buriedHitNotices({
        searchMode: degraded ? "keyword" : request.searchMode,
        candidates,
        fetchSize: fetch,
        computedKeyword: degraded || !arms.keyword ? undefined : missingKeywordScores(ctx.index, request.query, candidates),
        keywordWeight: DEFAULT_HYBRID_WEIGHTS.keyword,
        reranked,
      }),
    )),
  );
  const results = pool.map((c) => {
    const m = ctx.meta(c.id);
    return {
      memory_id: c.id,
      summary: m?.summary ?? "",
      score: c.score,
      type: m?.type,
      tags: m?.tags,
      importance: m?.importance,
      created_at: m?.createdAt.toISOString(),
      ...(m?.updatedAt ? { updated_at: m.updatedAt.toISOString() } : {}),
    };
  });
  const keywordEvidence =
    request.searchMode === "semantic"
      ? null
      : {
          ...ctx.index.keywordEvidence(
            request.query,
            list.slice(0, KEYWORD_EVIDENCE_TOP_N).map((c) => c.id),
          ),
          top_n: KEYWORD_EVIDENCE_TOP_N,
        };
  return { results, confidence, candidates, timings, notices, keywordEvidence, ...(degraded ? { degraded } : {}) };
}

/**
 * The BM25 of every candidate outside the pool that the keyword arm did not fetch: one seek per
 * query term each, so cheap beside the arms. Shown in notices, never fed to the merge.
 */
function missingKeywordScores(index: MemoryIndex, query: string, candidates: readonly PoolMember[]): Map<string, number> {
  const out = new Map<string, number>();
  for (const c of candidates) {
    if (c.in_pool || c.keyword_score !== null) continue;
    const score = index.keywordScoreOf(query, c.memory_id);
    if (score !== null) out.set(c.memory_id, score);
  }
  return out;
}

/**
 * Sends every merged candidate's summary to the reranker (the reference sends what it fetched)
 * and reorders by relevance. A failure keeps the merged list and says why in a notice, as the
 * reference keeps the unreranked list on any error — visibly here.
 */
async function rerankList(
  ctx: RecallContext,
  request: StoreRecallRequest,
  list: readonly PoolCandidate[],
  poolSize: number,
  signal?: AbortSignal,
): Promise<{ list: PoolCandidate[] | null; notice: RecallNotice }> {
  const config = ctx.reranker!;
  const documents = list.map((c) => ctx.meta(c.id)?.summary ?? "");
  try {
    const scores = await rerank(config, { query: request.query, documents, topN: documents.length }, { signal });
    const reranked = applyRerank(request.searchMode, list, scores);
    return {
      list: reranked,
      notice: {
        kind: "reranked",
        model: config.model,
        documents: documents.length,
        message:
          `Reranked by ${config.model}: ${scores.length} of ${documents.length} candidates scored, the pool is its top ${Math.min(poolSize, reranked.length)}. ` +
          "Hybrid scores are now its relevance scores; raw cosines are kept.",
      },
    };
  } catch (error) {
    if (!(error instanceof RerankError)) throw error;
    return {
      list: null,
      notice: {
        kind: "rerank_failed",
        model: config.model,
        documents: documents.length,
        reason: error.reason,
        message: `The rerank did not run (${error.message}) The merged pool stands, unreranked.`,
      },
    };
  }
}
