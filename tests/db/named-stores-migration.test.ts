import { PrismaClient } from "@prisma/client";
import { randomUUID } from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openDatabase, type OpenDatabase } from "@/lib/db/server/connection";
import { migrate, readMigrations } from "@/lib/db/server/migrator";
import { UseLiteEmbedder } from "@/lib/embeddings/server/use-lite";
import { EmbeddedStore } from "@/lib/stores/server/embedded/embedded-store";
import { memoryVersion } from "@/lib/stores/server/embedded/index-snapshot";
import { EmbeddedStores } from "@/lib/stores/server/embedded/stores";
import { DATABASE_KINDS, scratchDatabase, type ScratchDatabase } from "../support/databases";

/**
 * A database made by the release before named stores keeps its one store under the
 * name `embedded`, with every memory, set and run in it and nothing re-embedded; the index
 * snapshot that release wrote stays valid (lib/stores/server/embedded/README.md "Embedded stores").
 */
describe.each(DATABASE_KINDS)("the named-stores migration on %s", (kind) => {
  let scratch: ScratchDatabase;
  let db: OpenDatabase;
  let prisma: PrismaClient;
  let dir: string;
  const embedder = new UseLiteEmbedder(1);
  const setId = randomUUID();
  const runId = randomUUID();

  beforeAll(async () => {
    scratch = await scratchDatabase(kind);
    dir = fs.mkdtempSync(path.join(os.tmpdir(), "recall-inspector-named-stores-"));
    db = await openDatabase(scratch.config);
    const all = readMigrations();
    const cut = all.findIndex((m) => m.name.endsWith("_named_embedded_stores"));
    expect(cut).toBeGreaterThan(0);
    await migrate(db, all.slice(0, cut));
    prisma = new PrismaClient({ adapter: db.adapter });

    // The previous release's writes, as its SQL made them: memories with their vectors, a demo
    // marker, a set and a run against the store `embedded`.
    const [vector] = await embedder.embed(["Payments retry failed cards three times before dunning."]);
    const embedding = Buffer.from(vector!.buffer, vector!.byteOffset, vector!.byteLength).toString("base64");
    for (const [id, summary] of [
      ["pay-1", "Payments retry failed cards three times before dunning."],
      ["pay-2", "The dunning email goes out on the fourth failure."],
    ])
      await prisma.$executeRawUnsafe(
        `INSERT INTO memories (id, summary, type, tags, importance, embedding, embedding_model) VALUES ($1, $2, 'fact', '{}', 0.5, $3, $4)`,
        id,
        summary,
        embedding,
        embedder.id,
      );
    await prisma.$executeRawUnsafe(
      `INSERT INTO app_state (key, value) VALUES ('demo_corpus_loaded', '{"at":"2026-12-01T00:00:00Z","created":0}'::jsonb)`,
    );
    await prisma.$executeRawUnsafe(
      `INSERT INTO datasets (id, name, origin, item_count) VALUES ($1::uuid, 'payments', 'upload', 1)`,
      setId,
    );
    await prisma.$executeRawUnsafe(
      `INSERT INTO dataset_items (dataset_id, position, query, relevant) VALUES ($1::uuid, 0, 'dunning', '{pay-2}')`,
      setId,
    );
    await prisma.$executeRawUnsafe(
      `INSERT INTO eval_runs (id, dataset_id, store, k, search_mode, selector, status, total) VALUES ($1::uuid, $2::uuid, 'embedded', 5, 'hybrid', 'off', 'done', 1)`,
      runId,
      setId,
    );
    await migrate(db);
  }, 180_000);

  afterAll(async () => {
    await prisma?.$disconnect();
    await db?.close();
    await embedder.close();
    await scratch?.drop();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it("keeps the old store under `embedded` with its memories, vectors, set and run", async () => {
    expect(await prisma.embeddedStoreRecord.findMany({ select: { name: true, embeddingModel: true } })).toEqual([
      { name: "embedded", embeddingModel: embedder.id },
    ]);
    const rows = await prisma.memory.findMany({
      orderBy: { id: "asc" },
      select: { store: true, id: true, embeddingModel: true },
    });
    expect(rows).toEqual([
      { store: "embedded", id: "pay-1", embeddingModel: embedder.id },
      { store: "embedded", id: "pay-2", embeddingModel: embedder.id },
    ]);
    expect(await prisma.dataset.findUnique({ where: { id: setId }, select: { store: true, name: true } })).toEqual({
      store: "embedded",
      name: "payments",
    });
    expect((await prisma.evalRun.findUnique({ where: { id: runId } }))?.store).toBe("embedded");
  });

  it("recalls from the old store without re-embedding, and a start creates no demo store beside it", async () => {
    const stores = new EmbeddedStores(prisma, embedder, { reranker: null, snapshotBase: null, idleMs: 0 });
    expect((await stores.catalog.list()).map((r) => r.name)).toEqual(["embedded"]);
    expect(await stores.catalog.defaultStore()).toBe("embedded");
    const store = await stores.get("embedded");
    expect(store.size).toBe(2);
    expect((await store.stats()).stale_vectors).toBe(0);
    const outcome = await store.recall({ query: "when does the dunning email go out", k: 2, searchMode: "hybrid" });
    expect(outcome.results.map((r) => r.memory_id)).toContain("pay-2");
    await stores.close();
  }, 60_000);

  it("moves each store's version on its own writes only, and keeps a store's snapshot valid across another's", async () => {
    const file = path.join(dir, "index.snapshot");
    const first = new EmbeddedStore(prisma, embedder, { snapshot: file });
    expect((await first.open()).source).toBe("database");
    await first.snapshotsWritten();
    const before = await memoryVersion(prisma, "embedded");
    const other = new EmbeddedStore(prisma, embedder, { name: "other" });
    await other.open();
    await other.add([{ id: "o-1", summary: "A memory of another store." }]);
    expect(await memoryVersion(prisma, "embedded")).toBe(before);
    const again = new EmbeddedStore(prisma, embedder, { snapshot: file });
    expect(await again.open()).toMatchObject({ source: "snapshot", memories: 2 });
  }, 60_000);
});
