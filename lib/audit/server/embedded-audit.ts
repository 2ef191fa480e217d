/**
 * Probes an embedded store (lib/audit/README.md "Reachability audit"): every memory recalled
 * with its own probes through the store's own recall, never logged. Probe queries are embedded in
 * bulk a batch of memories ahead, one chunk at a time (priority "bulk", so a console query
 * overtakes them), and the loop gives way to the console's recalls before every probe recall
 * (pacing.ts).
 */
import "server-only";
import type { PrismaClient } from "@prisma/client";
import { EmbeddingServiceError } from "@/lib/embeddings/types";
import { armRanks } from "@/lib/recall/arm-ranks";
import { candidatesK, DEFAULT_FETCH_FACTOR, fetchSize } from "@/lib/recall/merge";
import { whyNotHere } from "@/lib/recall/why";
import type { EmbeddedStore } from "@/lib/stores/server/embedded/embedded-store";
import { StoreError, type StoreRecallOutcome } from "@/lib/stores/types";
import { rankedAbove, unreachableModes } from "../classify";
import { frequentWords, memoryProbes, type Probe } from "../probes";
import { AUDIT_KS, AUDIT_MODES, type AuditMode, type NearDuplicate, type ProbeRecord, type UnreachableReason } from "../types";
import { EMBED_CHUNK, giveWay } from "./pacing";

/** Memories whose probes are embedded in one bulk call. */
const BATCH = 32;
const PAGE = 2_000;
/** Neighbours read per memory: more than a near-duplicate cluster usually holds. */
const NEIGHBOURS = 8;

export interface ProbedMemory {
  memory_id: string;
  summary: string;
  records: ProbeRecord[];
  reasons: UnreachableReason[];
  shadowedBy: NearDuplicate[];
}

export interface ProbeRun {
  memories: ProbedMemory[];
  probeRecalls: number;
  frequentWords: string[];
  notes: string[];
}

export interface ProbeOptions {
  shadowThreshold: number;
  signal?: AbortSignal;
  /** After each memory: memories done, of all, and the probe recalls run so far. */
  onProgress?: (done: number, total: number, probeRecalls: number) => void;
  /**
   * Probe only this many memories, spread evenly over the store in id order (the benchmark's
   * 100k store); the recalls still search the whole store. The result's notes say so.
   */
  sample?: number;
}

/** The store's memories (id, summary, tags), in id order, read in keyset pages. */
export async function readMemories(
  prisma: PrismaClient,
  store: string,
): Promise<{ id: string; summary: string; tags: string[] }[]> {
  const out: { id: string; summary: string; tags: string[] }[] = [];
  let after = "";
  for (;;) {
    const rows = await prisma.$queryRaw<{ id: string; summary: string; tags: string[] }[]>`
      SELECT "id", "summary", "tags" FROM "memories" WHERE "store" = ${store} AND "id" > ${after} ORDER BY "id" LIMIT ${PAGE}`;
    out.push(...rows);
    if (rows.length < PAGE) return out;
    after = rows[rows.length - 1]!.id;
  }
}

export async function probeEmbeddedStore(prisma: PrismaClient, store: EmbeddedStore, options: ProbeOptions): Promise<ProbeRun> {
  const all = await readMemories(prisma, store.name);
  const frequent = frequentWords(all.map((m) => m.summary));
  const frequentSet = new Set(frequent);
  const stats = await store.stats();
  const notes: string[] = [];
  const { memories, step } = sampleOf(all, options.sample);
  if (step > 1) {
    notes.push(
      `A sample: ${memories.length.toLocaleString("en")} of the store's ${all.length.toLocaleString("en")} memories were probed (one in every ${step}, in id order); their probes searched the whole store.`,
    );
  }
  if (stats.stale_vectors > 0) {
    notes.push(
      `${stats.stale_vectors} memories are embedded with another model than ${stats.embedding_model}: this store refuses semantic and hybrid recalls until they are re-embedded (\`npm run reembed\`). The probes searched the vectors it has, as it will once they are.`,
    );
  }
  const out: ProbedMemory[] = [];
  let probeRecalls = 0;
  let embedFailures = 0;
  // Tag sets repeat across a store: their probe vectors are kept (a few thousand distinct at most).
  const kept = new Map<string, Float32Array>();
  const batches: { start: number; probes: Probe[][] }[] = [];
  for (let start = 0; start < memories.length; start += BATCH) {
    batches.push({ start, probes: memories.slice(start, start + BATCH).map((m) => memoryProbes(m, frequentSet)) });
  }
  const embedBatch = (probes: Probe[][]) => {
    const texts = [...new Set(probes.flat().map((p) => p.query))];
    return embedProbes(
      store,
      texts.filter((t) => !kept.has(t)),
      options.signal,
    ).then((fresh) => {
      if (fresh === null) return null;
      for (const p of probes.flat())
        if (p.kind === "tags" && fresh.has(p.query) && kept.size < 5_000) kept.set(p.query, fresh.get(p.query)!);
      return new Map([
        ...texts.map((t) => [t, kept.get(t)] as const).filter((e): e is [string, Float32Array] => !!e[1]),
        ...fresh,
      ]);
    });
  };
  // The next batch's probes are embedded (on the embedder's workers) while this batch recalls.
  let next = batches[0] ? embedBatch(batches[0].probes) : null;
  for (let b = 0; b < batches.length; b++) {
    options.signal?.throwIfAborted();
    const { start, probes } = batches[b]!;
    const vectors = await next!;
    next = batches[b + 1] ? embedBatch(batches[b + 1]!.probes) : null;
    next?.catch(() => {}); // awaited (and its failure handled) on the next turn
    if (vectors === null) embedFailures++;
    for (let i = 0; i < probes.length; i++) {
      options.signal?.throwIfAborted();
      const probed = await probeMemory(store, memories[start + i]!, probes[i]!, vectors, options);
      probeRecalls += probed.recalls;
      out.push(probed.memory);
      options.onProgress?.(out.length, memories.length, probeRecalls);
    }
  }
  if (embedFailures > 0) {
    notes.push(
      `The embedder failed for ${embedFailures} batch(es) of probes: their semantic and hybrid probes are recorded as failed, not judged.`,
    );
  }
  return { memories: out, probeRecalls, frequentWords: frequent, notes };
}

/** At most `sample` memories, one in every `step` (all of them, step 1, without a sample). */
function sampleOf<T>(all: T[], sample: number | undefined): { memories: T[]; step: number } {
  if (sample === undefined || sample >= all.length) return { memories: all, step: 1 };
  const step = Math.ceil(all.length / Math.max(1, sample));
  return { memories: all.filter((_, i) => i % step === 0), step };
}

/**
 * The probe queries' vectors, a chunk at a time (pacing.ts: one embedding worker for the audit,
 * none while a console recall runs); null when the embedder fails (the probes then record it).
 */
async function embedProbes(
  store: EmbeddedStore,
  queries: string[],
  signal: AbortSignal | undefined,
): Promise<Map<string, Float32Array> | null> {
  const out = new Map<string, Float32Array>();
  try {
    for (let start = 0; start < queries.length; start += EMBED_CHUNK) {
      await giveWay(signal);
      const chunk = queries.slice(start, start + EMBED_CHUNK);
      const vectors = await store.embedder.embed(chunk, { priority: "bulk" });
      chunk.forEach((q, i) => out.set(q, vectors[i]!));
    }
    return out;
  } catch (error) {
    if (error instanceof EmbeddingServiceError) return null;
    throw error;
  }
}

async function probeMemory(
  store: EmbeddedStore,
  memory: { id: string; summary: string; tags: string[] },
  probes: Probe[],
  vectors: Map<string, Float32Array> | null,
  options: ProbeOptions,
): Promise<{ memory: ProbedMemory; recalls: number }> {
  const id = memory.id;
  await giveWay(options.signal);
  const nearest = await store.nearest(id, NEIGHBOURS);
  const near = new Map((nearest?.items ?? []).filter((n) => n.cosine >= options.shadowThreshold).map((n) => [n.id, n] as const));
  const records: ProbeRecord[] = [];
  const outrankers = new Map<string, NearDuplicate>();
  /** The outcome a reason replays per mode: the summary probe at k = 10 (else the first at k = 10). */
  const replay = new Map<AuditMode, { probe: Probe; k: number; outcome: StoreRecallOutcome }>();
  let recalls = 0;
  for (const probe of probes) {
    const vector = vectors?.get(probe.query) ?? null;
    for (const mode of AUDIT_MODES) {
      for (const k of AUDIT_KS) {
        const base = { probe: probe.kind, query: probe.query, mode, k } as const;
        if (mode !== "keyword" && vector === null) {
          records.push({
            ...base,
            page_rank: null,
            merged_rank: null,
            semantic_rank: null,
            keyword_rank: null,
            error: "embedder failed",
          });
          continue;
        }
        let outcome: StoreRecallOutcome;
        await giveWay(options.signal);
        try {
          outcome = await store.recall({ query: probe.query, k, searchMode: mode }, options.signal, {
            queryVector: vector ?? new Float32Array(store.embedder.dim),
            ignoreStaleVectors: true,
          });
        } catch (error) {
          if (!(error instanceof StoreError)) throw error;
          records.push({
            ...base,
            page_rank: null,
            merged_rank: null,
            semantic_rank: null,
            keyword_rank: null,
            error: error.message,
          });
          continue;
        } finally {
          recalls++;
        }
        const pageIds = outcome.results.map((r) => r.memory_id);
        const at = pageIds.indexOf(id);
        const ranks = outcome.candidates ? armRanks(outcome.candidates).get(id) : undefined;
        records.push({
          ...base,
          page_rank: at >= 0 ? at + 1 : null,
          merged_rank: ranks?.merged ?? null,
          semantic_rank: ranks?.semantic ?? null,
          keyword_rank: ranks?.keyword ?? null,
        });
        for (const above of rankedAbove(id, outcome.candidates, pageIds)) {
          const n = near.get(above);
          if (n && !outrankers.has(above)) outrankers.set(above, { memory_id: n.id, summary: n.summary, cosine: n.cosine });
        }
        if (k === 10 && (!replay.has(mode) || (probe.kind === "summary" && replay.get(mode)!.probe.kind !== "summary"))) {
          replay.set(mode, { probe, k, outcome });
        }
      }
    }
  }
  const reasons: UnreachableReason[] = [];
  for (const mode of unreachableModes(records)) {
    const shown = replay.get(mode);
    if (shown) reasons.push(await reasonFor(store, id, mode, shown));
  }
  return {
    memory: {
      memory_id: id,
      summary: memory.summary,
      records,
      reasons,
      shadowedBy: [...outrankers.values()].sort((a, b) => b.cosine - a.cosine),
    },
    recalls,
  };
}

/** "Why isn't this memory here?" on the probe recall, as the recall page would answer it (lib/recall/why.ts). */
async function reasonFor(
  store: EmbeddedStore,
  id: string,
  mode: AuditMode,
  shown: { probe: Probe; k: number; outcome: StoreRecallOutcome },
): Promise<UnreachableReason> {
  const { outcome, probe, k } = shown;
  const candidate = outcome.candidates?.find((c) => c.memory_id === id);
  // The cosine computed now would embed again with query priority: left out, as a memory page's "not fetched".
  const computed = await store.scoresNow(probe.query, id, {
    cosine: false,
    keyword: mode !== "semantic" && candidate?.keyword_score == null,
  });
  const answer = whyNotHere({
    memoryId: id,
    recall: {
      status: "ok",
      searchMode: mode,
      degraded: outcome.degraded !== undefined,
      createdAt: new Date().toISOString(),
      fetchSize: fetchSize(candidatesK({ k }), DEFAULT_FETCH_FACTOR),
      filters: null,
      candidates: outcome.candidates,
      pageIds: outcome.results.map((r) => r.memory_id),
      droppedIds: [],
    },
    memory: store.describeMemory(id),
    computed,
  });
  return { mode, reason: answer.reason, message: answer.message, probe: { kind: probe.kind, query: probe.query, k } };
}
