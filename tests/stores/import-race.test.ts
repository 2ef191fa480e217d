import { PrismaClient } from "@prisma/client";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { openDatabase, type OpenDatabase } from "@/lib/db/server/connection";
import { migrate } from "@/lib/db/server/migrator";
import { UseLiteEmbedder } from "@/lib/embeddings/server/use-lite";
import { EmbeddedStore } from "@/lib/stores/server/embedded/embedded-store";
import { scratchDatabase, type ScratchDatabase } from "../support/databases";

/**
 * Imports racing on one PostgreSQL database through two stores with their own connection pools
 * (two app instances, as far as the database can tell): a duplicate id written by the other
 * batch is that item's rejection, never a failure of the whole batch.
 */
describe("concurrent imports (PostgreSQL, two connection pools)", () => {
  let scratch: ScratchDatabase;
  const dbs: OpenDatabase[] = [];
  const prismas: PrismaClient[] = [];
  const embedder = new UseLiteEmbedder(1);
  let stores: EmbeddedStore[];

  beforeAll(async () => {
    scratch = await scratchDatabase("postgresql");
    for (let i = 0; i < 2; i++) {
      const db = await openDatabase(scratch.config);
      if (i === 0) await migrate(db);
      dbs.push(db);
      prismas.push(new PrismaClient({ adapter: db.adapter }));
    }
  });

  beforeEach(async () => {
    await prismas[0]!.memory.deleteMany();
    stores = prismas.map((prisma) => new EmbeddedStore(prisma, embedder));
  });

  afterAll(async () => {
    await embedder.close();
    for (const prisma of prismas) await prisma.$disconnect();
    for (const db of dbs) await db.close();
    await scratch.drop();
  });

  it("20 parallel imports of one explicit id: exactly one is created, 19 are rejected per item", async () => {
    const answers = await Promise.allSettled(
      Array.from({ length: 20 }, (_, i) =>
        stores[i % 2]!.add([{ id: "same-id", summary: `Attempt ${i} at writing the shared memory` }]),
      ),
    );
    expect(answers.filter((a) => a.status === "rejected")).toEqual([]);
    const outcomes = answers.map((a) => (a as PromiseFulfilledResult<Awaited<ReturnType<EmbeddedStore["add"]>>>).value);
    expect(outcomes.reduce((n, o) => n + o.created, 0)).toBe(1);
    expect(outcomes.reduce((n, o) => n + o.rejected, 0)).toBe(19);
    for (const o of outcomes) {
      if (o.created === 0)
        expect(o.results[0]).toMatchObject({
          status: "rejected",
          id: "same-id",
          errors: [{ path: ["id"], message: expect.stringMatching(/already exists/) }],
        });
    }
    expect(await prismas[0]!.memory.count()).toBe(1);
  });

  it("a 301-item batch racing a 1-item batch that shares one id: 300 + 1 written, the shared id once", async () => {
    const big = Array.from({ length: 301 }, (_, i) => ({
      id: i === 150 ? "shared" : `big-${i}`,
      summary: `Bulk memory number ${i} about the billing service`,
    }));
    const [bigOutcome, smallOutcome] = await Promise.all([
      stores[0]!.add(big),
      stores[1]!.add([{ id: "shared", summary: "The small batch's version of the shared memory" }]),
    ]);
    expect(bigOutcome.created + smallOutcome.created).toBe(301);
    expect(bigOutcome.rejected + smallOutcome.rejected).toBe(1);
    expect(bigOutcome.created).toBeGreaterThanOrEqual(300);
    const sharedWinner = bigOutcome.results[150]!.status === "created" ? "big" : "small";
    expect(sharedWinner === "big" ? smallOutcome.results[0]!.status : bigOutcome.results[150]!.status).toBe("rejected");
    expect(await prismas[0]!.memory.count()).toBe(301);
    // Each store indexed exactly what it wrote.
    expect(stores[0]!.size).toBe(bigOutcome.created);
    expect(stores[1]!.size).toBe(smallOutcome.created);
  });
});
