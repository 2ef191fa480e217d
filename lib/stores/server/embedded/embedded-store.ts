// Past ~400 lines: one class owns the index and its agreement with the table (rebuild, snapshot,
// sync, writes); import, recall and the snapshot file live beside it (embedded-import.ts,
// embedded-recall.ts, index-snapshot.ts).
import type { Memory, Prisma, PrismaClient } from "@prisma/client";
import type { Embedder } from "@/lib/embeddings/types";
import { DEFAULT_FETCH_FACTOR } from "@/lib/recall/merge";
import type { RerankConfig } from "@/lib/rerank/config";
import { processSingleton } from "@/lib/server/process-singleton";
import { importMemories, INSERT_CHUNK } from "./embedded-import";
import { recallEmbedded, rerankRefusal } from "./embedded-recall";
import { captureSnapshot, checkSnapshotVersion, memoryVersion, readIndexSnapshot, type SnapshotRead } from "./index-snapshot";
import { MemoryRepository } from "./memory-repository";
import type { MemorySync, StoreSync } from "./memory-sync";
import { SnapshotKeeper } from "./snapshot-keeper";
import type { ImportItemResult, MemoryNeighbours } from "../../memory-schemas";
import { StoreError, type MemoryStore, type StoreRecallOutcome, type StoreRecallRequest } from "../../types";
import { KEYWORD_ANALYZER, MemoryIndex } from "../search-index/memory-index";
import { MemoryMetaTable } from "../search-index/memory-meta";
import type { StoreSnapshot } from "../search-index/snapshot-file";
import { decodeVector, encodeVector } from "../search-index/vector-codec";

const LOAD_PAGE = 2_000;

/** Recalls in flight in this process other than the audit's probes, over every store. */
const foreground = () => processSingleton("foreground-recalls", () => ({ inFlight: 0 }));

/**
 * How many recalls of embedded stores (the console's, the API's: all but the audit's probes) run now: the
 * reachability audit pauses its probes while any is (lib/audit/README.md "Reachability audit").
 */
export function foregroundRecalls(): number {
  return foreground().inFlight;
}

/** A memories row as the index rebuild reads it: every column, under its Prisma field name. */
type LoadedRow = Memory;

export interface EmbeddedStoreOptions {
  /** Its name in `embedded_stores`; every read and write of the table is limited to it. */
  name?: string;
  /**
   * `open` creates the store's `embedded_stores` row when it is missing (scripts and tests that
   * build a store directly); the process's stores (stores.ts) open only stores that exist.
   */
  createRecord?: boolean;
  fetchFactor?: number;
  /** Other instances on the same PostgreSQL (lib/stores/embedded/memory-sync.ts); none for PGlite. */
  sync?: MemorySync;
  /** The reranker `use_rerank` calls (lib/rerank); without one, `use_rerank` is refused. */
  reranker?: RerankConfig | null;
  /** Where `open` keeps the index between starts (lib/stores/embedded/index-snapshot.ts); none: always rebuild. */
  snapshot?: string | null;
  /** That file's read, begun before the database opened (readIndexSnapshot); `open` checks its version. */
  snapshotRead?: Promise<SnapshotRead>;
}

/** A snapshot is rewritten this long after the last write (one rewrite for a burst of imports). */
const SNAPSHOT_DELAY_MS = 10_000;

/**
 * One named embedded store: its memories in the app's own database, embedded by the app, recalled
 * with the reference's hybrid pipeline (exact cosine arm + BM25 arm, max-normalized, 0.6/0.4) so
 * the whole candidate pool is visible. Several live in one process (stores.ts), each with its own
 * index and snapshot.
 */
export class EmbeddedStore implements MemoryStore {
  readonly name: string;
  readonly kind = "embedded" as const;
  private index: MemoryIndex;
  private meta = new MemoryMetaTable();
  /** Memories whose vector is missing or from another model: semantic search refuses while any exist. */
  private stale = new Map<string, string | null>();
  private readonly fetchFactor: number;
  /** The Memories page's reads (list, get, counts): plain database queries, no index. */
  readonly memories: MemoryRepository;
  private readonly sync: StoreSync | undefined;
  private readonly syncHub: MemorySync | undefined;
  readonly reranker: RerankConfig | null;
  private readonly snapshotFile: string | null;
  private snapshotRead: Promise<SnapshotRead> | undefined;
  private readonly snapshots: SnapshotKeeper | null;
  private readonly createRecord: boolean;

  constructor(
    private readonly prisma: PrismaClient,
    readonly embedder: Embedder,
    options: EmbeddedStoreOptions = {},
  ) {
    this.name = options.name ?? "embedded";
    this.createRecord = options.createRecord ?? true;
    this.index = new MemoryIndex(embedder.dim || 0);
    this.fetchFactor = options.fetchFactor ?? DEFAULT_FETCH_FACTOR;
    this.memories = new MemoryRepository(prisma, this.name);
    this.syncHub = options.sync;
    this.sync = options.sync?.attach(this.name, {
      refreshMemories: (ids) => this.refreshMemories(ids),
      reloadAll: () => this.reloadAll(),
    });
    this.reranker = options.reranker ?? null;
    this.snapshotFile = options.snapshot ?? null;
    this.snapshotRead = options.snapshotRead;
    // With other instances on the database (sync) their changes may still be on the way, so only
    // a start, never a write, proves the index equals the table at a version.
    this.snapshots = this.snapshotFile
      ? new SnapshotKeeper(
          this.snapshotFile,
          () => memoryVersion(prisma, this.name),
          (version) => this.capture(version),
          {
            afterWrites: !this.sync,
            delayMs: SNAPSHOT_DELAY_MS,
          },
        )
      : null;
  }

  /**
   * Re-reads these memories from the database into the index: the ones still there are
   * (re)indexed, the rest removed. How another instance's writes reach this one.
   */
  async refreshMemories(ids: readonly string[]): Promise<void> {
    for (let start = 0; start < ids.length; start += LOAD_PAGE) {
      const chunk = ids.slice(start, start + LOAD_PAGE);
      const rows = await this.prisma.$queryRaw<LoadedRow[]>`
        SELECT "id", "summary", "content", "type", "tags", "importance", "created_at" AS "createdAt",
               "updated_at" AS "updatedAt", "embedding", "embedding_model" AS "embeddingModel"
        FROM "memories" WHERE "store" = ${this.name} AND "id" = ANY(${chunk}::text[])`;
      const found = new Set(rows.map((row) => row.id));
      for (const row of rows) this.indexRow(row);
      this.forget(chunk.filter((id) => !found.has(id)));
    }
  }

  /** Everything again: rows re-read, and ids no longer in the database dropped. */
  private async reloadAll(): Promise<void> {
    const before = new Set(this.meta.keys());
    await this.load();
    const rows = await this.prisma.$queryRaw<{ id: string }[]>`SELECT "id" FROM "memories" WHERE "store" = ${this.name}`;
    for (const { id } of rows) before.delete(id);
    this.forget([...before]);
  }

  private forget(ids: readonly string[]): void {
    if (ids.length === 0) return;
    this.index.remove(ids);
    for (const id of ids) {
      this.meta.delete(id);
      this.stale.delete(id);
    }
  }

  /**
   * Makes the index ready at start: read back from the snapshot when it matches the table
   * (lib/stores/embedded/index-snapshot.ts), else rebuilt from the database, and then a snapshot written
   * in the background when the table did not change during the rebuild.
   */
  async open(): Promise<{ memories: number; ms: number; source: "snapshot" | "database"; reason: string | null }> {
    const started = performance.now();
    await this.ensureRecord();
    if (!this.snapshotFile) {
      const { memories, ms } = await this.load();
      return { memories, ms, source: "database", reason: null };
    }
    const refused = await this.restore(this.snapshotFile);
    if (refused === null) return { memories: this.index.size, ms: performance.now() - started, source: "snapshot", reason: null };
    const before = await memoryVersion(this.prisma, this.name);
    await this.load();
    // Unchanged across the rebuild: every page read the table as it is at `before`.
    if ((await memoryVersion(this.prisma, this.name)) === before) this.snapshots?.save(before);
    return { memories: this.index.size, ms: performance.now() - started, source: "database", reason: refused };
  }

  /**
   * Lets go of the store (idle, or deleted): pending snapshot writes finish, and changes other
   * instances announce are no longer applied (the next open reads the table again).
   */
  async close(): Promise<void> {
    if (this.sync) this.syncHub?.detach(this.name, this.sync);
    await this.snapshotsWritten();
  }

  /** Settles when no snapshot write is pending or running (tests, scripts). */
  snapshotsWritten(): Promise<void> {
    return this.snapshots?.written() ?? Promise.resolve();
  }

  /** Why the snapshot was not used (null: it was, and the index now holds it). */
  private async restore(file: string): Promise<string | null> {
    const expected = { embedder: this.embedder.id, dim: this.index.dim, analyzer: KEYWORD_ANALYZER };
    const read = this.snapshotRead ?? readIndexSnapshot(file, expected);
    this.snapshotRead = undefined;
    const found = await checkSnapshotVersion(read, this.prisma, this.name);
    if ("reason" in found) return found.reason;
    ({ index: this.index, meta: this.meta, stale: this.stale } = found.restored);
    return null;
  }

  /** The index as a snapshot at `version`, taken synchronously so no write lands halfway. */
  private capture(version: string): StoreSnapshot {
    return captureSnapshot(version, this.embedder.id, KEYWORD_ANALYZER, this.index.exportState(), this.meta, this.stale);
  }

  /** Runs a write of the store, so snapshots know when the index and the table may differ. */
  private tracked<T>(write: () => Promise<T>): Promise<T> {
    return this.snapshots ? this.snapshots.tracked(write) : write();
  }

  private recordEnsured: Promise<unknown> | null = null;

  /** The store's `embedded_stores` row, for a store built directly (EmbeddedStoreOptions.createRecord). */
  private ensureRecord(): Promise<unknown> {
    if (!this.createRecord) return Promise.resolve();
    this.recordEnsured ??= this.prisma.embeddedStoreRecord.createMany({
      data: [{ name: this.name, embeddingModel: this.embedder.id }],
      skipDuplicates: true,
    });
    return this.recordEnsured;
  }

  /** Rebuilds the in-memory index from the database. */
  async load(): Promise<{ memories: number; ms: number; readMs: number }> {
    const started = performance.now();
    await this.ensureRecord();
    let readMs = 0;
    let after = "";
    // One allocation for the whole matrix instead of doubling (and copying) up to its size.
    const [total] = await this.prisma.$queryRaw<
      { count: number }[]
    >`SELECT count(*)::int AS "count" FROM "memories" WHERE "store" = ${this.name}`;
    this.index.reserve(this.index.size + Number(total?.count ?? 0));
    for (;;) {
      const readStart = performance.now();
      // A raw keyset page: at 100k memories Prisma's model mapping was a third of the rebuild.
      const rows = await this.prisma.$queryRaw<LoadedRow[]>`
        SELECT "id", "summary", "content", "type", "tags", "importance", "created_at" AS "createdAt",
               "updated_at" AS "updatedAt", "embedding", "embedding_model" AS "embeddingModel"
        FROM "memories" WHERE "store" = ${this.name} AND "id" > ${after} ORDER BY "id" LIMIT ${LOAD_PAGE}`;
      readMs += performance.now() - readStart;
      for (const row of rows) this.indexRow(row);
      if (rows.length < LOAD_PAGE) break;
      after = rows[rows.length - 1]!.id;
    }
    return { memories: this.index.size, ms: performance.now() - started, readMs };
  }

  /**
   * Records which keyword analyzer the index was built with (`app_state.keyword_analyzer`) and
   * tells whether it changed since the last start: the index is rebuilt from the table at every
   * start, so an upgrade (e.g. stemming) takes effect at once, and recalls logged before it hold
   * BM25 scores of the old analyzer. Returns the previous version when it changed, else null.
   */
  async recordKeywordAnalyzer(): Promise<{ from: string | null; to: string } | null> {
    const key = "keyword_analyzer";
    const row = await this.prisma.appState.findUnique({ where: { key } });
    const previous = (row?.value as { version?: unknown } | null)?.version;
    if (previous === KEYWORD_ANALYZER) return null;
    const value = { version: KEYWORD_ANALYZER, at: new Date().toISOString(), memories: this.index.size };
    await this.prisma.appState.upsert({ where: { key }, create: { key, value }, update: { value } });
    return { from: typeof previous === "string" ? previous : null, to: KEYWORD_ANALYZER };
  }

  get size(): number {
    return this.index.size;
  }

  /** Refuses, before anything runs or is logged, what this store cannot do (a rerank without a reranker). */
  checkRequest(request: StoreRecallRequest): void {
    const refusal = rerankRefusal(request, this.reranker);
    if (refusal) throw refusal;
  }

  /**
   * `probe` is for the reachability audit (lib/audit/README.md "Reachability audit"): the query's
   * vector embedded beforehand (in bulk, with many others), and the semantic arm searching the
   * vectors it has even while some memories are embedded with another model, so the audit can
   * say which memories that leaves out instead of getting the 409 for every probe.
   */
  async recall(
    request: StoreRecallRequest,
    signal?: AbortSignal,
    probe?: { queryVector: Float32Array; ignoreStaleVectors: boolean },
  ): Promise<StoreRecallOutcome> {
    if (probe) return this.recallNow(request, signal, probe);
    const gauge = foreground();
    gauge.inFlight++;
    try {
      return await this.recallNow(request, signal);
    } finally {
      gauge.inFlight--;
    }
  }

  private async recallNow(
    request: StoreRecallRequest,
    signal?: AbortSignal,
    probe?: { queryVector: Float32Array; ignoreStaleVectors: boolean },
  ): Promise<StoreRecallOutcome> {
    // Changes another instance announced are applied before this recall searches.
    await this.sync?.flush();
    const embedder: Embedder = probe
      ? { id: this.embedder.id, dim: this.embedder.dim, embed: async () => [probe.queryVector] }
      : this.embedder;
    return recallEmbedded(
      {
        index: this.index,
        embedder,
        fetchFactor: this.fetchFactor,
        reranker: this.reranker,
        meta: (id) => this.meta.get(id),
        assertVectorsCurrent: () => (probe?.ignoreStaleVectors ? undefined : this.assertVectorsCurrent()),
      },
      request,
      signal,
    );
  }

  /**
   * Validates each item on its own, embeds the valid ones, and writes them in one transaction:
   * a failure while embedding or writing leaves nothing half-written (lib/stores/embedded/embedded-import.ts).
   */
  add(items: readonly unknown[]): Promise<{ results: ImportItemResult[]; created: number; rejected: number }> {
    return this.tracked(() => this.addNow(items));
  }

  private async addNow(items: readonly unknown[]): Promise<{ results: ImportItemResult[]; created: number; rejected: number }> {
    await this.ensureRecord();
    return importMemories(
      {
        prisma: this.prisma,
        store: this.name,
        embedder: this.embedder,
        indexRow: (row) => this.indexRow(row),
        announce: async (ids) => {
          await this.sync?.announce(ids);
        },
      },
      items,
    );
  }

  /**
   * The memory as the store holds it now, for "why isn't it here?" (lib/recall/why.ts): what the
   * filters read, and whether the semantic arm can see it. Null when the store does not have it.
   */
  describeMemory(
    id: string,
  ): { type: string; tags: string[]; createdAt: string; vectorCurrent: boolean; embeddingModel: string | null } | null {
    const meta = this.meta.get(id);
    const entry = this.index.entry(id);
    if (!meta || !entry) return null;
    const stale = this.stale.has(id);
    return {
      type: meta.type,
      tags: meta.tags,
      createdAt: meta.createdAt.toISOString(),
      vectorCurrent: entry.hasVector && !stale,
      embeddingModel: stale ? (this.stale.get(id) ?? null) : this.embedder.id,
    };
  }

  /**
   * One memory's scores for a query, computed now exactly as the arms would (for display: they
   * were not used by any merge). The cosine needs the query embedded, so it is computed only when
   * asked; an embedder failure leaves it null.
   */
  async scoresNow(
    query: string,
    id: string,
    want: { cosine: boolean; keyword: boolean },
  ): Promise<{ raw_cosine: number | null; keyword_score: number | null }> {
    const keyword_score = want.keyword ? this.index.keywordScoreOf(query, id) : null;
    let raw_cosine: number | null = null;
    if (want.cosine && this.index.entry(id)?.hasVector && !this.stale.has(id)) {
      try {
        const [vector] = await this.embedder.embed([query], { priority: "query" });
        raw_cosine = this.index.cosineOf(vector!, id);
      } catch {
        raw_cosine = null;
      }
    }
    return { raw_cosine, keyword_score };
  }

  /** Deletes the memory from the database and the index. */
  delete(id: string): Promise<boolean> {
    return this.tracked(() => this.deleteNow(id));
  }

  private async deleteNow(id: string): Promise<boolean> {
    const deleted = await this.memories.deleteById(id);
    this.forget([id]);
    if (deleted) await this.sync?.announce([id]);
    return deleted;
  }

  /**
   * The memories closest to `id` by raw cosine (itself left out), best first: the memory page's
   * neighbours, from the same exact scan recalls use. Null when the memory is unknown here;
   * `unavailable` says why there is no list (no vector for the current model).
   */
  async nearest(id: string, limit: number): Promise<Omit<MemoryNeighbours, "memory_id"> | null> {
    await this.sync?.flush();
    if (!this.meta.has(id)) return null;
    const vector = this.index.vectorOf(id);
    if (!vector) {
      const model = this.stale.get(id);
      return {
        unavailable: `This memory has no vector for ${this.embedder.id}${model ? ` (it was embedded with ${model})` : ""}; run \`npm run reembed\`.`,
        items: [],
      };
    }
    const hits = this.index.semanticTop(vector, limit + 1).filter((hit) => hit.id !== id);
    return {
      unavailable: null,
      items: hits.slice(0, limit).map((hit) => {
        const meta = this.meta.get(hit.id);
        return { id: hit.id, summary: meta?.summary ?? "", type: meta?.type ?? "note", cosine: hit.score };
      }),
    };
  }

  async stats(): Promise<{ total: number; by_type: Record<string, number>; embedding_model: string; stale_vectors: number }> {
    const { total, by_type } = await this.memories.countByType();
    return {
      total,
      by_type,
      embedding_model: this.embedder.id,
      stale_vectors: this.stale.size,
    };
  }

  /** Embeds again every memory whose vector is missing or from another model. */
  reembed(onProgress?: (done: number, total: number) => void): Promise<{ reembedded: number }> {
    return this.tracked(() => this.reembedNow(onProgress));
  }

  private async reembedNow(onProgress?: (done: number, total: number) => void): Promise<{ reembedded: number }> {
    const ids = [...this.stale.keys()];
    let done = 0;
    for (let start = 0; start < ids.length; start += INSERT_CHUNK) {
      const rows = await this.prisma.memory.findMany({
        where: { store: this.name, id: { in: ids.slice(start, start + INSERT_CHUNK) } },
      });
      const vectors = await this.embedder.embed(
        rows.map((r) => r.summary),
        { priority: "bulk" },
      );
      await this.prisma.$transaction(
        rows.map((row, i) =>
          this.prisma.memory.update({
            where: { store_id: { store: this.name, id: row.id } },
            data: { embedding: encodeVector(vectors[i]!), embeddingModel: this.embedder.id },
          }),
        ),
      );
      rows.forEach((row, i) => this.indexRow({ ...row, embeddingModel: this.embedder.id, vector: vectors[i]! }));
      await this.sync?.announce(rows.map((row) => row.id));
      done += rows.length;
      onProgress?.(done, ids.length);
    }
    return { reembedded: done };
  }

  private assertVectorsCurrent(): void {
    if (this.stale.size === 0) return;
    const models = [...new Set(this.stale.values())].map((m) => m ?? "none");
    throw new StoreError(
      409,
      "embedding_model_mismatch",
      `${this.stale.size} memories were embedded with ${models.join(", ")} but the app embeds with ${this.embedder.id}; ` +
        "run `npm run reembed` (or POST /api/memories/reembed), or search in keyword mode meanwhile.",
      { stale: this.stale.size, stored_models: models, embedder: this.embedder.id },
    );
  }

  private indexRow(row: {
    id: string;
    summary: string;
    content?: string | null;
    type?: string;
    tags?: string[] | Prisma.MemoryCreatetagsInput;
    importance?: number;
    createdAt?: Date | string;
    updatedAt?: Date | string | null;
    embedding?: string | null;
    embeddingModel?: string | null;
    vector?: Float32Array;
  }): void {
    const tags = Array.isArray(row.tags) ? row.tags : [];
    const type = row.type ?? "note";
    const current = row.embeddingModel === this.embedder.id;
    const vector = current ? (row.vector ?? (row.embedding ? decodeVector(row.embedding) : null)) : null;
    const usable = vector !== null && vector.length === this.index.dim;
    if (usable) this.stale.delete(row.id);
    else this.stale.set(row.id, row.embeddingModel ?? null);
    this.index.upsert([
      {
        id: row.id,
        vector: usable ? vector : null,
        text: [row.summary, row.content ?? "", tags.join(" ")].join("\n"),
        type,
        tags,
      },
    ]);
    this.meta.set(row.id, {
      summary: row.summary,
      type,
      tags,
      importance: row.importance ?? 0.5,
      createdAt: row.createdAt ? new Date(row.createdAt) : new Date(),
      updatedAt: row.updatedAt ? new Date(row.updatedAt) : null,
    });
  }
}
