import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { captureRecalls } from "@/lib/recall-log/server/ingest";
import { findRecall, insertRecall, recallRow } from "@/lib/recall-log/server/repository";
import { DATABASE_KINDS, migratedDatabase, type MigratedDatabase } from "../support/databases";

/**
 * The recall log's last guard: whatever a caller hands the writer, a value PGlite
 * cannot take (1,500 levels deep, a NUL, an unpaired surrogate) becomes a failed recall saying
 * where, never a crashed database; a captured recall carrying one is rejected with the rule.
 */
function nested(depth: number): unknown {
  let value: unknown = 1;
  for (let i = 0; i < depth; i++) value = { x: value };
  return value;
}

describe.each(DATABASE_KINDS)("the recall log's writer (%s)", (kind) => {
  let database: MigratedDatabase;
  beforeAll(async () => {
    database = await migratedDatabase(kind);
  }, 60_000);
  afterAll(() => database.close());

  const logged = (result: Record<string, unknown>, query = "a query") =>
    recallRow({
      id: crypto.randomUUID(),
      createdAt: new Date(),
      request: { store: "prod", query, k: 5, search_mode: "hybrid", use_rerank: false, selector: "off" },
      latencyMs: 3,
      outcome: {
        results: [{ memory_id: "m-1", summary: "ok", score: 0.5, ...result }],
        confidence: null,
        selector: null,
        candidates: null,
        timings: {},
      },
    });

  it.each([
    ["nested 1,500 deep", { context: nested(1_500) }, /nested more than 66 levels deep/],
    ["a NUL", { summary: "a\u0000b" }, /results\.0\.summary: text contains a NUL/],
    ["an unpaired surrogate", { summary: "\uD800" }, /results\.0\.summary: text contains an unpaired/],
  ])("a row with a value %s is logged as a failed recall saying where", async (_what, result, message) => {
    const row = logged(result);
    expect(row.status).toBe("error");
    await insertRecall(database.prisma, row);
    const read = await findRecall(database.prisma, row.id);
    expect(read).toMatchObject({ status: "error", error: { code: "unloggable_value", message: expect.stringMatching(message) } });
    expect(await database.prisma.$queryRaw`SELECT 1 AS one`).toEqual([{ one: 1 }]);
  });

  it("a query with a NUL is replaced in the failed row, so the row itself can be stored", async () => {
    const row = logged({}, "a\u0000query");
    await insertRecall(database.prisma, row);
    const read = await findRecall(database.prisma, row.id);
    expect(read).toMatchObject({ status: "error", error: { message: expect.stringMatching(/query: text contains a NUL/) } });
    expect(read!.request.query).toBe("a\uFFFDquery");
  });

  it("a captured recall whose answer breaks the rule is rejected with it, and the good one beside it is logged", async () => {
    const good = { results: [{ memory_id: "m-1", summary: "fine", score: 0.4 }] };
    const results = await captureRecalls(database.prisma, [
      {
        source: "proxy",
        store: "prod",
        request: { query: "q" },
        response: { results: [{ memory_id: "m", context: nested(5_000) }] },
      },
      { source: "proxy", store: "prod", request: { query: "q" }, response: good },
    ]);
    expect(results[0]).toMatchObject({
      status: "rejected",
      errors: [
        { path: expect.arrayContaining(["response", "results", "0", "context"]), message: expect.stringMatching(/rule: depth/) },
      ],
    });
    expect(results[1]).toMatchObject({ status: "accepted" });
  });
});
