import { PrismaClient } from "@prisma/client";
import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, expect, it } from "vitest";
import { openDatabase, type OpenDatabase } from "@/lib/db/server/connection";
import { migrate } from "@/lib/db/server/migrator";
import { insertRecalls, recallRow } from "@/lib/recall-log/server/repository";
import { applyRetention } from "@/lib/recall-log/server/retention";
import { scratchDatabase, type ScratchDatabase } from "../support/databases";

let scratch: ScratchDatabase;
let db: OpenDatabase;
let prisma: PrismaClient;
const NOW = new Date("2026-11-30T12:00:00Z");
const daysAgo = (d: number) => new Date(NOW.getTime() - d * 86_400_000);

beforeAll(async () => {
  scratch = await scratchDatabase("pglite");
  db = await openDatabase(scratch.config);
  await migrate(db);
  prisma = new PrismaClient({ adapter: db.adapter });
  const request = {
    store: "embedded",
    query: "q",
    k: 1,
    search_mode: "hybrid" as const,
    use_rerank: false,
    selector: "off" as const,
  };
  await insertRecalls(
    prisma,
    [1, 5, 29, 31, 45, 400].map((d) =>
      recallRow({
        id: randomUUID(),
        createdAt: daysAgo(d),
        request,
        latencyMs: 1,
        outcome: {
          results: [],
          confidence: null,
          selector: null,
          candidates: [
            {
              memory_id: "m",
              summary: null,
              rank: 1,
              raw_cosine: 0.5,
              keyword_score: null,
              hybrid_score: null,
              in_pool: true,
              returned: true,
            },
          ],
          timings: {},
        },
      }),
    ),
  );
});
afterAll(async () => {
  await prisma.$disconnect();
  await db.close();
  await scratch.drop();
});

it("counts without deleting on a dry run, then deletes exactly the recalls older than the window, candidates included", async () => {
  expect(await applyRetention(prisma, { keepDays: 30, dryRun: true, now: NOW })).toEqual({
    keep_days: 30,
    cutoff: "2026-10-31T12:00:00.000Z",
    deleted: 3,
    dry_run: true,
  });
  expect(await prisma.recall.count()).toBe(6);
  expect((await applyRetention(prisma, { keepDays: 30, now: NOW })).deleted).toBe(3);
  expect(await prisma.recall.count()).toBe(3);
  expect(await prisma.recallCandidate.count()).toBe(3);
  expect((await applyRetention(prisma, { keepDays: 30, now: NOW })).deleted).toBe(0);
});

it("refuses a window that is not a whole number of days", async () => {
  await expect(applyRetention(prisma, { keepDays: 0 })).rejects.toThrow(RangeError);
  await expect(applyRetention(prisma, { keepDays: 1.5 })).rejects.toThrow(/whole number/);
});
