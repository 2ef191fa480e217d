import { PrismaClient } from "@prisma/client";
import fs from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openDatabase, type OpenDatabase } from "@/lib/db/server/connection";
import { migrate } from "@/lib/db/server/migrator";
import { USE_LITE_ID } from "@/lib/embeddings/server/config";
import { UseLiteEmbedder } from "@/lib/embeddings/server/use-lite";
import { EmbeddedStore } from "@/lib/stores/server/embedded/embedded-store";
import { memoryVersion, readIndexSnapshot } from "@/lib/stores/server/embedded/index-snapshot";
import { KEYWORD_ANALYZER } from "@/lib/stores/server/search-index/memory-index";
import { encodeVector } from "@/lib/stores/server/search-index/vector-codec";
import { DATABASE_KINDS, scratchDatabase, type ScratchDatabase } from "../support/databases";

const WORDS = "deploy token expired storm fixed refresh postgres billing jsonb standup berlin coffee oat milk".split(" ");

function row(i: number, store = "embedded") {
  const vector = Float32Array.from({ length: 512 }, (_, j) => Math.sin(i * 7.1 + j * 0.37));
  const n = Math.hypot(...vector);
  return {
    store,
    id: `s${i}`,
    summary: Array.from({ length: 4 + (i % 6) }, (_, w) => WORDS[(i * 3 + w * 5) % WORDS.length]).join(" "),
    content: i % 4 === 0 ? `content ${WORDS[i % WORDS.length]}` : null,
    type: i % 2 ? "fact" : "incident",
    tags: i % 3 ? ["deploy"] : ["billing", "db"],
    importance: (i % 10) / 10,
    createdAt: new Date(Date.UTC(2026, 0, 1 + (i % 28))),
    updatedAt: i % 5 === 0 ? new Date(Date.UTC(2026, 5, 1)) : null,
    embedding: encodeVector(vector.map((x) => x / n)),
    // One memory embedded with another model: the store lists it as stale.
    embeddingModel: i === 7 ? "text-embedding-3-small" : USE_LITE_ID,
  };
}

/** What recalls read from a store, gathered without embedding a query. */
async function answers(store: EmbeddedStore) {
  const ids = ["s0", "s3", "s7", "s12", "s29"];
  return {
    size: store.size,
    stats: await store.stats(),
    describe: ids.map((id) => store.describeMemory(id)),
    nearest: await Promise.all(ids.map((id) => store.nearest(id, 8))),
    keyword: await Promise.all(
      ids.map((id) => store.scoresNow("deploy token storm billing", id, { cosine: false, keyword: true })),
    ),
    recall: (await store.recall({ query: "expired token storm", k: 10, searchMode: "keyword" })).candidates,
  };
}

describe("the index snapshot beside PGlite", () => {
  let scratch: ScratchDatabase;
  let db: OpenDatabase;
  let prisma: PrismaClient;
  let file: string;
  const embedder = new UseLiteEmbedder(1);

  beforeAll(async () => {
    scratch = await scratchDatabase("pglite");
    db = await openDatabase(scratch.config);
    await migrate(db);
    prisma = new PrismaClient({ adapter: db.adapter });
    await prisma.embeddedStoreRecord.create({ data: { name: "embedded" } });
    await prisma.memory.createMany({ data: Array.from({ length: 30 }, (_, i) => row(i)) });
    file = path.join(path.dirname((scratch.config as { dataDir: string }).dataDir), "index.snapshot");
  }, 120_000);

  afterAll(async () => {
    await prisma?.$disconnect();
    await db?.close();
    await embedder.close();
    await scratch?.drop();
  });

  it("a start rebuilds and writes it, the next start reads it back and answers exactly the same", async () => {
    const first = new EmbeddedStore(prisma, embedder, { snapshot: file });
    expect(await first.open()).toMatchObject({ memories: 30, source: "database", reason: "no snapshot yet" });
    await first.snapshotsWritten();
    expect(fs.existsSync(file)).toBe(true);

    const second = new EmbeddedStore(prisma, embedder, { snapshot: file });
    expect(await second.open()).toMatchObject({ memories: 30, source: "snapshot", reason: null });
    expect(await answers(second)).toEqual(await answers(first));
    // And the same as a store that never saw a snapshot.
    const plain = new EmbeddedStore(prisma, embedder);
    await plain.load();
    expect(await answers(second)).toEqual(await answers(plain));
  }, 120_000);

  it("a change made behind the store's back makes the next start rebuild", async () => {
    await prisma.memory.delete({ where: { store_id: { store: "embedded", id: "s29" } } });
    const store = new EmbeddedStore(prisma, embedder, { snapshot: file });
    expect(await store.open()).toMatchObject({ memories: 29, source: "database", reason: "memories changed since" });
    await store.snapshotsWritten();
    const next = new EmbeddedStore(prisma, embedder, { snapshot: file });
    expect(await next.open()).toMatchObject({ memories: 29, source: "snapshot" });
    expect(next.describeMemory("s29")).toBeNull();
  }, 120_000);

  it("a read begun before the database opened is used when the table is unchanged, and refused when it moved meanwhile", async () => {
    const expected = { embedder: embedder.id, dim: 512, analyzer: KEYWORD_ANALYZER };
    const early = new EmbeddedStore(prisma, embedder, { snapshot: file, snapshotRead: readIndexSnapshot(file, expected) });
    expect(await early.open()).toMatchObject({ memories: 29, source: "snapshot", reason: null });
    const read = readIndexSnapshot(file, expected);
    await read;
    // A change lands after the file was read, before the store checks it.
    await prisma.memory.update({ where: { store_id: { store: "embedded", id: "s2" } }, data: { type: "decision" } });
    const late = new EmbeddedStore(prisma, embedder, { snapshot: file, snapshotRead: read });
    expect(await late.open()).toMatchObject({ memories: 29, source: "database", reason: "memories changed since" });
    expect(late.describeMemory("s2")).toMatchObject({ type: "decision" });
    await late.snapshotsWritten();
    const foreign = await readIndexSnapshot(file, { ...expected, embedder: "another-model" });
    expect(foreign).toEqual({ reason: "the embedder changed" });
  }, 120_000);

  it("writes through the store rewrite it once they pause, so the next start still reads it", async () => {
    const store = new EmbeddedStore(prisma, embedder, { snapshot: file });
    await store.open();
    const added = await store.add([
      { id: "new-1", summary: "The billing deploy storm was fixed by a token refresh.", tags: ["deploy"] },
    ]);
    expect(added.created).toBe(1);
    expect(await store.delete("s1")).toBe(true);
    await store.snapshotsWritten();
    const next = new EmbeddedStore(prisma, embedder, { snapshot: file });
    expect(await next.open()).toMatchObject({ memories: 29, source: "snapshot" });
    expect(next.describeMemory("new-1")).toMatchObject({ type: "note", tags: ["deploy"], vectorCurrent: true });
    expect(next.describeMemory("s1")).toBeNull();
    expect(await answers(next)).toEqual(await answers(store));
  }, 180_000);

  it("a damaged file is refused with its reason and replaced", async () => {
    fs.writeFileSync(file, fs.readFileSync(file).subarray(0, 100));
    const store = new EmbeddedStore(prisma, embedder, { snapshot: file });
    const opened = await store.open();
    expect(opened).toMatchObject({ memories: 29, source: "database" });
    expect(opened.reason).toMatch(/could not be read/);
    await store.snapshotsWritten();
    expect((await new EmbeddedStore(prisma, embedder, { snapshot: file }).open()).source).toBe("snapshot");
  }, 120_000);
});

describe.each(DATABASE_KINDS)("memory_changes, the table's version (%s)", (kind) => {
  let scratch: ScratchDatabase;
  let db: OpenDatabase;
  let prisma: PrismaClient;

  beforeAll(async () => {
    scratch = await scratchDatabase(kind);
    db = await openDatabase(scratch.config);
    await migrate(db);
    prisma = new PrismaClient({ adapter: db.adapter });
    await prisma.embeddedStoreRecord.createMany({ data: [{ name: "embedded" }, { name: "other" }] });
  }, 120_000);

  afterAll(async () => {
    await prisma?.$disconnect();
    await db?.close();
    await scratch?.drop();
  });

  const v = async (store = "embedded") => Number((await memoryVersion(prisma, store)).split("@")[0]);

  it("counts every committed statement that changes memories, and nothing else", async () => {
    const start = await v();
    await prisma.memory.createMany({ data: [row(1), row(2), row(3)] });
    expect(await v()).toBe(start + 1);
    await prisma.memory.findMany();
    expect(await v()).toBe(start + 1);
    await prisma.memory.update({ where: { store_id: { store: "embedded", id: "s1" } }, data: { summary: "changed" } });
    expect(await v()).toBe(start + 2);
    await prisma.memory.deleteMany({ where: { id: { in: ["s2", "s3"] } } });
    expect(await v()).toBe(start + 3);
    await expect(
      prisma.$transaction(async (tx) => {
        await tx.memory.create({ data: row(9) });
        throw new Error("roll back");
      }),
    ).rejects.toThrow("roll back");
    expect(await v()).toBe(start + 3);
    await prisma.$executeRaw`TRUNCATE "memories"`;
    expect(await v()).toBe(start + 4);
    // The version carries the latest change's time, so a database rebuilt through as many changes differs.
    expect(await memoryVersion(prisma, "embedded")).toMatch(/^\d+@\d{13}$/);
  }, 60_000);

  it("moves only the versions of the stores a statement touched (a TRUNCATE moves every store's)", async () => {
    const [embedded, other] = [await v("embedded"), await v("other")];
    await prisma.memory.createMany({ data: [row(1, "other"), row(2, "other")] });
    expect([await v("embedded"), await v("other")]).toEqual([embedded, other + 1]);
    await prisma.memory.createMany({ data: [row(4, "embedded"), row(5, "other")] });
    expect([await v("embedded"), await v("other")]).toEqual([embedded + 1, other + 2]);
    // Deleting a store cascades to its memories: a change of that store only.
    await prisma.embeddedStoreRecord.delete({ where: { name: "other" } });
    expect([await v("embedded"), await v("other")]).toEqual([embedded + 1, other + 3]);
    await prisma.$executeRaw`TRUNCATE "memories"`;
    expect([await v("embedded"), await v("other")]).toEqual([embedded + 2, other + 4]);
  }, 60_000);
});
