/**
 * The audit of a remote store, through the memory service's own API (lib/audit/README.md
 * "Reachability audit"), in a smaller scope than an embedded store's: each recall bumps the
 * returned memories' access stats on the service and costs its time, so one probe a memory (its
 * summary, hybrid, k = 10), at most REMOTE_AUDIT_MAX_MEMORIES memories, RATE per second, and the
 * number of calls confirmed before it starts. No pool and no vectors come back, so neither the
 * arms' ranks nor near-duplicates can be judged; the reason for a memory off the page is the
 * "pool not exposed" of "Why isn't this memory here?".
 */
import "server-only";
import { whyNotHere } from "@/lib/recall/why";
import type { RemoteStore } from "@/lib/stores/server/remote/remote-store";
import { StoreError } from "@/lib/stores/types";
import type { ProbedMemory, ProbeRun } from "./embedded-audit";

export const REMOTE_AUDIT_MAX_MEMORIES = 2_000;
/** Recall calls per second to the service. */
export const REMOTE_AUDIT_RATE = 4;
const LIST_PAGE = 500;

export const REMOTE_SCOPE =
  "Remote store: one probe a memory (its summary, hybrid, k = 10) through the service's recall API, " +
  `at most ${REMOTE_AUDIT_MAX_MEMORIES.toLocaleString("en")} memories, ${REMOTE_AUDIT_RATE} calls a second; ` +
  "no pool and no vectors come back, so arm ranks and near-duplicates are not judged.";

/** The calls an audit of this store will make (recalls plus list pages), to be confirmed first. */
export async function remoteAuditPlan(store: RemoteStore, signal?: AbortSignal): Promise<{ memories: number; calls: number }> {
  const stats = await store.stats({ signal });
  const memories = Math.min(stats.total_count, REMOTE_AUDIT_MAX_MEMORIES);
  return { memories, calls: memories + Math.max(1, Math.ceil(memories / LIST_PAGE)) };
}

export async function probeRemoteStore(
  store: RemoteStore,
  options: { signal?: AbortSignal; onProgress?: (done: number, total: number) => void },
): Promise<ProbeRun> {
  const rows: { id: string; summary: string }[] = [];
  while (rows.length < REMOTE_AUDIT_MAX_MEMORIES) {
    const list = await store.listMemories(
      { limit: Math.min(LIST_PAGE, REMOTE_AUDIT_MAX_MEMORIES - rows.length), offset: rows.length },
      { signal: options.signal },
    );
    rows.push(...list.memories.map((m) => ({ id: m.id, summary: m.summary ?? "" })));
    if (list.memories.length === 0 || list.has_more === false) break;
  }
  const memories: ProbedMemory[] = [];
  let calls = 0;
  let last = 0;
  for (const row of rows) {
    options.signal?.throwIfAborted();
    const query = row.summary.trim();
    const base = { probe: "summary" as const, query, mode: "hybrid" as const, k: 10 };
    const probed: ProbedMemory = { memory_id: row.id, summary: row.summary, records: [], reasons: [], shadowedBy: [] };
    if (query) {
      const wait = last + 1000 / REMOTE_AUDIT_RATE - performance.now();
      if (wait > 0) await new Promise((resolve) => setTimeout(resolve, wait));
      last = performance.now();
      calls++;
      try {
        const outcome = await store.recall({ query, k: 10, searchMode: "hybrid" }, options.signal);
        const pageIds = outcome.results.map((r) => r.memory_id);
        const at = pageIds.indexOf(row.id);
        probed.records.push({
          ...base,
          page_rank: at >= 0 ? at + 1 : null,
          merged_rank: null,
          semantic_rank: null,
          keyword_rank: null,
        });
        if (at < 0) {
          const why = whyNotHere({
            memoryId: row.id,
            recall: {
              status: "ok",
              searchMode: "hybrid",
              degraded: false,
              createdAt: new Date().toISOString(),
              fetchSize: 40,
              candidates: null,
              pageIds,
              droppedIds: [],
            },
            memory: undefined,
          });
          probed.reasons.push({
            mode: "hybrid",
            reason: why.reason,
            message: why.message,
            probe: { kind: "summary", query, k: 10 },
          });
        }
      } catch (error) {
        if (!(error instanceof StoreError)) throw error;
        probed.records.push({
          ...base,
          page_rank: null,
          merged_rank: null,
          semantic_rank: null,
          keyword_rank: null,
          error: error.message,
        });
      }
    }
    memories.push(probed);
    options.onProgress?.(memories.length, rows.length);
  }
  return { memories, probeRecalls: calls, frequentWords: [], notes: [] };
}
