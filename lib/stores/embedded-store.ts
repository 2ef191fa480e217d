import { randomUUID } from "node:crypto";
import type { Prisma, PrismaClient } from "@prisma/client";
import { EmbeddingServiceError, type Embedder } from "@/lib/embeddings/types";
import { computeConfidence } from "@/lib/recall/confidence";
import { itemErrorsFromZod } from "@/lib/recall/errors";
import {
  armsForMode,
  buildCandidatePool,
  candidatesK,
  confidenceInputFromPool,
  DEFAULT_FETCH_FACTOR,
  fetchSize,
  type ArmHit,
} from "@/lib/recall/merge";
import { MemoryIndex, type IndexFilter } from "./memory-index";
import type { MemorySync } from "./memory-sync";
import { MemoryRepository } from "./memory-repository";
import { MemoryInputSchema, type ImportItemResult, type ValidMemoryInput } from "./memory-schemas";
import { StoreError, type MemoryStore, type PoolMember, type StoreRecallOutcome, type StoreRecallRequest } from "./types";

const LOAD_PAGE = 2_000;
const INSERT_CHUNK = 500;

/** A memories row as the index rebuild reads it. */
interface LoadedRow {
  id: string;
  summary: string;
  content: string | null;
  type: string;
  tags: string[];
  importance: number;
  createdAt: Date;
  updatedAt: Date | null;
  embedding: string | null;
  embeddingModel: string | null;
}

/** What the store keeps in memory about each memory, to answer recalls without a query. */
interface MemoryMeta {
  summary: string;
  type: string;
  tags: string[];
  importance: number;
  createdAt: Date;
  updatedAt: Date | null;
}

export interface EmbeddedStoreOptions {
  fetchFactor?: number;
  /** Other instances on the same PostgreSQL (lib/stores/memory-sync.ts); none for PGlite. */
  sync?: MemorySync;
}

/**
 * The default store: memories in the app's own database, embedded by the app, recalled with the
 * reference's hybrid pipeline (exact cosine arm + BM25 arm, max-normalized, 0.6/0.4) so the whole
 * candidate pool is visible.
 */
export class EmbeddedStore implements MemoryStore {
  readonly name = "embedded";
  readonly kind = "embedded" as const;
  private readonly index: MemoryIndex;
  private readonly meta = new Map<string, MemoryMeta>();
  /** Memories whose vector is missing or from another model: semantic search refuses while any exist. */
  private readonly stale = new Map<string, string | null>();
  private readonly fetchFactor: number;
  /** The Memories page's reads (list, get, counts): plain database queries, no index. */
  readonly memories: MemoryRepository;
  private readonly sync: MemorySync | undefined;

  constructor(
    private readonly prisma: PrismaClient,
    readonly embedder: Embedder,
    options: EmbeddedStoreOptions = {},
  ) {
    this.index = new MemoryIndex(embedder.dim || 0);
    this.fetchFactor = options.fetchFactor ?? DEFAULT_FETCH_FACTOR;
    this.memories = new MemoryRepository(prisma);
    this.sync = options.sync;
    this.sync?.attach({ refreshMemories: (ids) => this.refreshMemories(ids), reloadAll: () => this.reloadAll() });
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
        FROM "memories" WHERE "id" = ANY(${chunk}::text[])`;
      const found = new Set(rows.map((row) => row.id));
      for (const row of rows) this.indexRow(row);
      this.forget(chunk.filter((id) => !found.has(id)));
    }
  }

  /** Everything again: rows re-read, and ids no longer in the database dropped. */
  private async reloadAll(): Promise<void> {
    const before = new Set(this.meta.keys());
    await this.load();
    const rows = await this.prisma.$queryRaw<{ id: string }[]>`SELECT "id" FROM "memories"`;
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

  /** Rebuilds the in-memory index from the database. */
  async load(): Promise<{ memories: number; ms: number; readMs: number }> {
    const started = performance.now();
    let readMs = 0;
    let after = "";
    // One allocation for the whole matrix instead of doubling (and copying) up to its size.
    const [total] = await this.prisma.$queryRaw<{ count: number }[]>`SELECT count(*)::int AS "count" FROM "memories"`;
    this.index.reserve(this.index.size + Number(total?.count ?? 0));
    for (;;) {
      const readStart = performance.now();
      // A raw keyset page: at 100k memories Prisma's model mapping was a third of the rebuild.
      const rows = await this.prisma.$queryRaw<LoadedRow[]>`
        SELECT "id", "summary", "content", "type", "tags", "importance", "created_at" AS "createdAt",
               "updated_at" AS "updatedAt", "embedding", "embedding_model" AS "embeddingModel"
        FROM "memories" WHERE "id" > ${after} ORDER BY "id" LIMIT ${LOAD_PAGE}`;
      readMs += performance.now() - readStart;
      for (const row of rows) this.indexRow(row);
      if (rows.length < LOAD_PAGE) break;
      after = rows[rows.length - 1]!.id;
    }
    return { memories: this.index.size, ms: performance.now() - started, readMs };
  }

  get size(): number {
    return this.index.size;
  }

  async recall(request: StoreRecallRequest): Promise<StoreRecallOutcome> {
    // Changes another instance announced are applied before this recall searches.
    await this.sync?.flush();
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
    const fetch = fetchSize(poolSize, this.fetchFactor, { rerank: request.useRerank === true });
    const filter: IndexFilter = {
      types: request.filters?.types,
      tags: request.filters?.tags,
      tagsMatch: request.filters?.tagsMatch,
    };

    let semantic: ArmHit[] | null = null;
    let degraded: StoreRecallOutcome["degraded"];
    if (arms.semantic) {
      this.assertVectorsCurrent();
      try {
        const [vector] = await time("embed_ms", () => this.embedder.embed([request.query], { priority: "query" }));
        semantic = await time("semantic_ms", () => this.index.semanticTop(vector!, fetch, filter));
      } catch (error) {
        // As the reference (#1515): a hybrid search whose embedder fails goes on keyword-only.
        if (!(error instanceof EmbeddingServiceError)) throw error;
        if (request.searchMode !== "hybrid") throw new StoreError(502, "embedding_unavailable", error.message);
        degraded = { reason: "embedding_unavailable" };
      }
    }
    const keyword = arms.keyword ? await time("keyword_ms", () => this.index.keywordTop(request.query, fetch, filter)) : [];

    const merged = await time("merge_ms", () => buildCandidatePool(request.searchMode, { semantic, keyword }));
    const pool = merged.slice(0, poolSize);
    const confidence = await time("confidence_ms", () => computeConfidence(confidenceInputFromPool(pool)));

    const keywordRaw = new Map(keyword.map((hit) => [hit.id, hit.score]));
    const candidates: PoolMember[] = merged.map((c, i) => ({
      memory_id: c.id,
      summary: this.meta.get(c.id)?.summary ?? null,
      rank: i + 1,
      raw_cosine: c.semantic_score_raw,
      keyword_score: keywordRaw.get(c.id) ?? null,
      hybrid_score: c.hybrid_score,
      in_pool: i < poolSize,
      returned: i < poolSize,
    }));
    const results = pool.map((c) => {
      const m = this.meta.get(c.id);
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
    return { results, confidence, candidates, timings, ...(degraded ? { degraded } : {}) };
  }

  /**
   * Validates each item on its own, embeds the valid ones, and writes them in one transaction:
   * a failure while embedding or writing leaves nothing half-written.
   */
  async add(items: readonly unknown[]): Promise<{ results: ImportItemResult[]; created: number; rejected: number }> {
    const results: ImportItemResult[] = new Array(items.length);
    const valid: { index: number; id: string; input: ValidMemoryInput }[] = [];
    const firstIndexOf = new Map<string, number>();

    items.forEach((item, index) => {
      const parsed = MemoryInputSchema.safeParse(item);
      const rawId = typeof (item as { id?: unknown })?.id === "string" ? (item as { id: string }).id : undefined;
      if (!parsed.success) {
        results[index] = {
          index,
          status: "rejected",
          ...(rawId ? { id: rawId } : {}),
          errors: itemErrorsFromZod(parsed.error.issues),
        };
        return;
      }
      const id = parsed.data.id ?? randomUUID();
      const earlier = firstIndexOf.get(id);
      if (earlier !== undefined) {
        results[index] = {
          index,
          status: "rejected",
          id,
          errors: [{ path: ["id"], message: `duplicate of item ${earlier} in this batch` }],
        };
        return;
      }
      firstIndexOf.set(id, index);
      valid.push({ index, id, input: parsed.data });
    });

    const existing = new Set(
      valid.length === 0
        ? []
        : (await this.prisma.memory.findMany({ where: { id: { in: valid.map((v) => v.id) } }, select: { id: true } })).map(
            (r) => r.id,
          ),
    );
    const fresh = valid.filter((v) => {
      if (!existing.has(v.id)) return true;
      results[v.index] = {
        index: v.index,
        status: "rejected",
        id: v.id,
        errors: [{ path: ["id"], message: "a memory with this id already exists" }],
      };
      return false;
    });

    if (fresh.length > 0) {
      let vectors: Float32Array[];
      try {
        vectors = await this.embedder.embed(
          fresh.map((v) => v.input.summary),
          { priority: "bulk" },
        );
      } catch (error) {
        if (error instanceof EmbeddingServiceError) {
          throw new StoreError(
            error.reason === "timeout" ? 504 : 502,
            "embedding_unavailable",
            `${error.message} Nothing was imported.`,
          );
        }
        throw error;
      }
      const now = new Date();
      const rows: Prisma.MemoryCreateManyInput[] = fresh.map((v, i) => ({
        id: v.id,
        summary: v.input.summary,
        content: v.input.content || null,
        type: v.input.type ?? "note",
        tags: dedupe(v.input.tags ?? []),
        importance: v.input.importance ?? 0.5,
        createdAt: v.input.created_at ? new Date(v.input.created_at) : now,
        embedding: encodeVector(vectors[i]!),
        embeddingModel: this.embedder.id,
      }));
      // ON CONFLICT DO NOTHING (skipDuplicates) + RETURNING: an id a concurrent import wrote
      // between the check above and this insert becomes that item's rejection, never a unique
      // violation that fails the whole batch.
      const written = new Set<string>();
      await this.prisma.$transaction(async (tx) => {
        for (let start = 0; start < rows.length; start += INSERT_CHUNK) {
          const inserted = await tx.memory.createManyAndReturn({
            data: rows.slice(start, start + INSERT_CHUNK),
            skipDuplicates: true,
            select: { id: true },
          });
          for (const { id } of inserted) written.add(id);
        }
      });
      rows.forEach((row, i) => {
        if (written.has(row.id)) this.indexRow({ ...row, vector: vectors[i]! });
      });
      await this.sync?.announce([...written]);
      fresh.forEach((v) => {
        results[v.index] = written.has(v.id)
          ? { index: v.index, status: "created", id: v.id }
          : {
              index: v.index,
              status: "rejected",
              id: v.id,
              errors: [{ path: ["id"], message: "a memory with this id already exists (written by a concurrent import)" }],
            };
      });
    }

    const created = results.filter((r) => r.status === "created").length;
    return { results, created, rejected: items.length - created };
  }

  /** Deletes the memory from the database and the index. */
  async delete(id: string): Promise<boolean> {
    const deleted = await this.memories.deleteById(id);
    this.forget([id]);
    if (deleted) await this.sync?.announce([id]);
    return deleted;
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
  async reembed(onProgress?: (done: number, total: number) => void): Promise<{ reembedded: number }> {
    const ids = [...this.stale.keys()];
    let done = 0;
    for (let start = 0; start < ids.length; start += INSERT_CHUNK) {
      const rows = await this.prisma.memory.findMany({ where: { id: { in: ids.slice(start, start + INSERT_CHUNK) } } });
      const vectors = await this.embedder.embed(
        rows.map((r) => r.summary),
        { priority: "bulk" },
      );
      await this.prisma.$transaction(
        rows.map((row, i) =>
          this.prisma.memory.update({
            where: { id: row.id },
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

function dedupe(tags: readonly string[]): string[] {
  return [...new Set(tags)];
}

/** A vector as stored in `memories.embedding`: float32 little-endian bytes, base64. */
export function encodeVector(vector: Float32Array): string {
  return Buffer.from(vector.buffer, vector.byteOffset, vector.byteLength).toString("base64");
}

export function decodeVector(text: string): Float32Array {
  const bytes = Buffer.from(text, "base64");
  // Copy into a fresh, aligned buffer: Buffer.from may hand back a slice of a shared pool.
  const out = new Float32Array(bytes.byteLength / 4);
  new Uint8Array(out.buffer).set(bytes);
  return out;
}
