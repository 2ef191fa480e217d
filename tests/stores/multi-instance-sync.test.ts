import { PrismaClient } from "@prisma/client";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openDatabase, type OpenDatabase } from "@/lib/db/server/connection";
import { migrate } from "@/lib/db/server/migrator";
import { UseLiteEmbedder } from "@/lib/embeddings/server/use-lite";
import { EmbeddedStore } from "@/lib/stores/server/embedded/embedded-store";
import { MemorySync } from "@/lib/stores/server/embedded/memory-sync";
import { scratchDatabase, type ScratchDatabase } from "../support/databases";

/**
 * Two embedded stores on one PostgreSQL database, each with its own connection pool and its own
 * LISTEN connection, as two app instances run: a memory written or deleted through one is found
 * (or gone) in the other's recalls within a second, without a restart.
 */
describe("instances on one PostgreSQL stay in step", () => {
  let scratch: ScratchDatabase;
  const dbs: OpenDatabase[] = [];
  const prismas: PrismaClient[] = [];
  const syncs: MemorySync[] = [];
  const embedder = new UseLiteEmbedder(1);
  let a: EmbeddedStore;
  let b: EmbeddedStore;

  beforeAll(async () => {
    scratch = await scratchDatabase("postgresql");
    if (scratch.config.kind !== "postgresql") throw new Error("expected PostgreSQL");
    for (let i = 0; i < 2; i++) {
      const db = await openDatabase(scratch.config);
      if (i === 0) await migrate(db);
      dbs.push(db);
      const prisma = new PrismaClient({ adapter: db.adapter });
      prismas.push(prisma);
      const sync = new MemorySync(scratch.config.url, prisma);
      await sync.start();
      syncs.push(sync);
    }
    a = new EmbeddedStore(prismas[0]!, embedder, { sync: syncs[0] });
    b = new EmbeddedStore(prismas[1]!, embedder, { sync: syncs[1] });
    await a.load();
    await b.load();
  });

  afterAll(async () => {
    for (const sync of syncs) await sync.close();
    await embedder.close();
    for (const prisma of prismas) await prisma.$disconnect();
    for (const db of dbs) await db.close();
    await scratch.drop();
  });

  /**
   * The ids `store`'s recall returns once `ok` holds, polled for up to a second after the write;
   * `ms` is how long the change took to arrive (the recall's own time is not counted, so a
   * loaded machine's slow embedding does not count against the sync).
   */
  async function recallUntil(
    store: EmbeddedStore,
    query: string,
    ok: (ids: string[]) => boolean,
  ): Promise<{ ids: string[]; ms: number }> {
    let waited = 0;
    for (;;) {
      const outcome = await store.recall({ query, k: 5, searchMode: "keyword" });
      const ids = outcome.results.map((r) => r.memory_id);
      if (ok(ids) || waited >= 1_000) return { ids, ms: waited };
      await new Promise((resolve) => setTimeout(resolve, 25));
      waited += 25;
    }
  }

  it("a memory imported through one instance is recalled through the other within a second", async () => {
    expect((await b.recall({ query: "kafka consumer lag", k: 5, searchMode: "keyword" })).results).toEqual([]);
    const added = await a.add([
      { id: "kafka-lag", summary: "Kafka consumer lag alerts page the on-call engineer after five minutes." },
    ]);
    expect(added.created).toBe(1);
    const seen = await recallUntil(b, "kafka consumer lag", (ids) => ids.includes("kafka-lag"));
    expect(seen.ids).toContain("kafka-lag");
    expect(seen.ms).toBeLessThanOrEqual(1_000);
    expect(b.size).toBe(1);
  });

  it("a memory deleted through the other instance disappears from the first's recalls within a second", async () => {
    await b.add([{ id: "standup", summary: "Daily standup is at 09:30 Berlin time in the Atlas room." }]);
    expect((await recallUntil(a, "standup Atlas room", (ids) => ids.includes("standup"))).ids).toContain("standup");
    expect(await b.delete("kafka-lag")).toBe(true);
    const after = await recallUntil(a, "kafka consumer lag", (ids) => !ids.includes("kafka-lag"));
    expect(after.ids).not.toContain("kafka-lag");
    expect(after.ms).toBeLessThanOrEqual(1_000);
    expect(a.size).toBe(1);
  });

  it("a large import (600 memories, several notifications) reaches the other instance whole", async () => {
    const many = Array.from({ length: 600 }, (_, i) => ({
      id: `bulk-${String(i).padStart(4, "0")}-${"x".repeat(40)}`,
      summary: `Bulk note ${i} about the billing service`,
    }));
    expect((await a.add(many)).created).toBe(600);
    const started = Date.now();
    while (b.size < 601 && Date.now() - started < 1_000) {
      await b.recall({ query: "billing", k: 1, searchMode: "keyword" });
      await new Promise((resolve) => setTimeout(resolve, 25));
    }
    expect(b.size).toBe(601);
  });
});
