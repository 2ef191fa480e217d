/**
 * "Why isn't this memory here?" for a logged recall (GET /api/recalls/{id}/why): reads the
 * recall, the memory as its store holds it now and, where cheap, the memory's scores computed
 * now, then asks the pure rule (lib/recall/why.ts). lib/recall/README.md "Explaining a ranking".
 */
import type { PrismaClient } from "@prisma/client";
import { candidatesK, DEFAULT_FETCH_FACTOR, fetchSize, type SearchMode } from "@/lib/recall/merge";
import { whyNotHere, type WhyAnswer, type WhyMemoryNow } from "@/lib/recall/why";
import { getEmbeddedStore } from "@/lib/stores/server/embedded";
import type { EmbeddedStore } from "@/lib/stores/server/embedded/embedded-store";
import { getRemoteStores } from "@/lib/stores/server/remote";
import { StoreError } from "@/lib/stores/types";
import { findRecall } from "./repository";

export type WhyOutcome =
  { kind: "answer"; answer: WhyAnswer } | { kind: "no_recall" } | { kind: "unknown_memory"; store: string };

export async function explainMemory(
  prisma: PrismaClient,
  recallId: string,
  memoryId: string,
  options: { embedded?: (name: string) => Promise<Pick<EmbeddedStore, "describeMemory" | "scoresNow">> } = {},
): Promise<WhyOutcome> {
  const recall = await findRecall(prisma, recallId);
  if (!recall) return { kind: "no_recall" };
  const mode: SearchMode = recall.request.search_mode ?? "hybrid";
  const candidate = recall.candidates?.find((c) => c.memory_id === memoryId) ?? null;
  const onPage =
    recall.results.some((r) => r.memory_id === memoryId) || recall.dropped_results.some((r) => r.memory_id === memoryId);

  let memory: WhyMemoryNow | null | undefined;
  let computed: { raw_cosine: number | null; keyword_score: number | null } | undefined;
  // An embedded store that still exists can say how the memory stands now; a remote or deleted one cannot.
  const remote = getRemoteStores().some((configured) => configured.name === recall.store);
  const store = remote
    ? null
    : await (options.embedded ?? getEmbeddedStore)(recall.store).catch((error: unknown) => {
        if (error instanceof StoreError && error.code === "unknown_store") return null;
        throw error;
      });
  if (store) {
    memory = store.describeMemory(memoryId);
    if (memory && recall.status === "ok") {
      const degraded = recall.degraded !== undefined;
      computed = await store.scoresNow(recall.request.query, memoryId, {
        cosine: mode !== "keyword" && !degraded && candidate?.raw_cosine == null,
        keyword: mode !== "semantic" && candidate?.keyword_score == null,
      });
    }
  }
  // An id this store never had: not a memory of it (404), rather than "deleted".
  if (!memory && !candidate && !onPage && !(await knownToLog(prisma, recall.store, memoryId))) {
    return { kind: "unknown_memory", store: recall.store };
  }
  return {
    kind: "answer",
    answer: whyNotHere({
      memoryId,
      recall: {
        status: recall.status,
        searchMode: mode,
        degraded: recall.degraded !== undefined,
        createdAt: recall.created_at,
        fetchSize: fetchSize(candidatesK({ k: recall.request.k }), DEFAULT_FETCH_FACTOR, {
          rerank: recall.request.use_rerank === true,
        }),
        filters:
          (recall.request.filters as { types?: string[]; tags?: string[]; tags_match?: "any" | "all" } | undefined) ?? null,
        candidates: recall.candidates,
        pageIds: recall.results.map((r) => r.memory_id),
        droppedIds: recall.dropped_results.map((r) => r.memory_id),
      },
      memory,
      computed,
    }),
  };
}

/** Whether any logged recall of this store saw the memory (on a page or among its candidates). */
async function knownToLog(prisma: PrismaClient, store: string, memoryId: string): Promise<boolean> {
  const rows = await prisma.$queryRaw<{ known: boolean }[]>`
    SELECT EXISTS (SELECT 1 FROM "recall_memory_summaries" WHERE "store" = ${store} AND "memory_id" = ${memoryId})
        OR EXISTS (SELECT 1 FROM "recall_candidates" c JOIN "recalls" r ON r."id" = c."recall_id"
                   WHERE c."memory_id" = ${memoryId} AND r."store" = ${store}) AS "known"`;
  return rows[0]?.known === true;
}
