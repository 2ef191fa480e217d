/**
 * Importing memories into the embedded store: each item validated on its own, the valid ones
 * embedded and written in one transaction (a failure while embedding or writing leaves nothing
 * half-written), then indexed. Split from embedded-store.ts, which keeps the index in step.
 */
import type { Prisma, PrismaClient } from "@prisma/client";
import { randomUUID } from "node:crypto";
import { EmbeddingServiceError, type Embedder } from "@/lib/embeddings/types";
import { itemErrorsFromZod } from "@/lib/recall/errors";
import { MemoryInputSchema, type ImportItemResult, type ValidMemoryInput } from "../../memory-schemas";
import { StoreError } from "../../types";
import { encodeVector } from "../search-index/vector-codec";

export const INSERT_CHUNK = 500;

export interface ImportContext {
  prisma: PrismaClient;
  /** The embedded store the rows are written to. */
  store: string;
  embedder: Embedder;
  /** Puts a written row into the index. */
  indexRow(row: Prisma.MemoryCreateManyInput & { vector: Float32Array }): void;
  /** Tells other instances which ids changed (lib/stores/embedded/memory-sync.ts). */
  announce(ids: string[]): Promise<void>;
}

export async function importMemories(
  ctx: ImportContext,
  items: readonly unknown[],
): Promise<{ results: ImportItemResult[]; created: number; rejected: number }> {
  const { prisma, embedder } = ctx;
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
      : (
          await prisma.$queryRaw<
            { id: string }[]
          >`SELECT "id" FROM "memories" WHERE "store" = ${ctx.store} AND "id" = ANY(${valid.map((v) => v.id)}::text[])`
        ).map((r) => r.id),
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
      vectors = await embedder.embed(
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
      store: ctx.store,
      id: v.id,
      summary: v.input.summary,
      content: v.input.content || null,
      type: v.input.type ?? "note",
      tags: [...new Set(v.input.tags ?? [])],
      importance: v.input.importance ?? 0.5,
      createdAt: v.input.created_at ? new Date(v.input.created_at) : now,
      embedding: encodeVector(vectors[i]!),
      embeddingModel: embedder.id,
    }));
    // ON CONFLICT DO NOTHING (skipDuplicates) + RETURNING: an id a concurrent import wrote
    // between the check above and this insert becomes that item's rejection, never a unique
    // violation that fails the whole batch.
    const written = new Set<string>();
    try {
      await prisma.$transaction(async (tx) => {
        for (let start = 0; start < rows.length; start += INSERT_CHUNK) {
          for (const { id } of await insertRows(tx, rows.slice(start, start + INSERT_CHUNK))) written.add(id);
        }
      });
    } catch (error) {
      // The store was deleted while this import embedded: its rows have no store to belong to.
      if (/memories_store_fkey/.test(String(error)))
        throw new StoreError(
          404,
          "unknown_store",
          `The store "${ctx.store}" was deleted during the import; nothing was imported.`,
          {
            store: ctx.store,
          },
        );
      throw error;
    }
    rows.forEach((row, i) => {
      if (written.has(row.id!)) ctx.indexRow({ ...row, vector: vectors[i]! });
    });
    await ctx.announce([...written]);
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

/**
 * One INSERT … ON CONFLICT DO NOTHING RETURNING of a chunk, its rows passed as one JSON
 * parameter: Prisma's createManyAndReturn bound ten parameters a row and spent more CPU building
 * them than the database spent writing (a third of an import's time after embedding, at 5,000
 * rows). The columns and their casts are the table's (prisma/schema.prisma, Memory).
 */
async function insertRows(
  tx: Prisma.TransactionClient,
  rows: readonly Prisma.MemoryCreateManyInput[],
): Promise<{ id: string }[]> {
  const json = JSON.stringify(
    rows.map((row) => ({
      store: row.store,
      id: row.id,
      summary: row.summary,
      content: row.content ?? null,
      type: row.type,
      tags: row.tags,
      importance: row.importance,
      created_at: (row.createdAt as Date).toISOString(),
      embedding: row.embedding,
      embedding_model: row.embeddingModel,
    })),
  );
  return tx.$queryRaw<{ id: string }[]>`
    INSERT INTO "memories" ("store", "id", "summary", "content", "type", "tags", "importance", "created_at", "embedding", "embedding_model")
    SELECT r."store", r."id", r."summary", r."content", r."type", ARRAY(SELECT jsonb_array_elements_text(r."tags")), r."importance",
           r."created_at", r."embedding", r."embedding_model"
    FROM jsonb_to_recordset(${json}::jsonb) AS r("store" text, "id" text, "summary" text, "content" text, "type" text, "tags" jsonb,
         "importance" real, "created_at" timestamptz(3), "embedding" text, "embedding_model" text)
    ON CONFLICT ("store", "id") DO NOTHING
    RETURNING "id"`;
}
