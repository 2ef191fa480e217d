import { PrismaClient } from "@prisma/client";
import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, expect, it } from "vitest";
import { openDatabase, type OpenDatabase } from "@/lib/db/server/connection";
import { migrate } from "@/lib/db/server/migrator";
import { HistoryFiltersSchema } from "@/lib/recall-log/history";
import { EXPORT_COLUMNS, exportStream } from "@/lib/recall-log/server/export";
import { insertRecalls, recallRow } from "@/lib/recall-log/server/repository";
import { scratchDatabase, type ScratchDatabase } from "../support/databases";

let scratch: ScratchDatabase;
let db: OpenDatabase;
let prisma: PrismaClient;
const QUERIES = ['=HYPERLINK("http://evil")', "+SUM(A1)", "-2+3", "@cmd", 'plain, with "quotes"\nand a newline'];

beforeAll(async () => {
  scratch = await scratchDatabase("pglite");
  db = await openDatabase(scratch.config);
  await migrate(db);
  prisma = new PrismaClient({ adapter: db.adapter });
  const rows = Array.from({ length: 23 }, (_, i) =>
    recallRow({
      id: randomUUID(),
      createdAt: new Date(Date.UTC(2026, 10, 1, 0, 0, i)),
      request: {
        store: i % 2 ? "embedded" : "prod",
        query: QUERIES[i % QUERIES.length]!,
        k: 5,
        search_mode: "hybrid",
        use_rerank: false,
        selector: "off",
      },
      latencyMs: 10 + i,
      outcome: { results: [], confidence: null, selector: null, candidates: null, timings: {} },
    }),
  );
  await insertRecalls(prisma, rows);
});
afterAll(async () => {
  await prisma.$disconnect();
  await db.close();
  await scratch.drop();
});

async function collect(stream: ReadableStream<Uint8Array>): Promise<string> {
  return new Response(stream).text();
}

it("streams every matching row once across pages as JSON Lines, newest first", async () => {
  const text = await collect(await exportStream(prisma, HistoryFiltersSchema.parse({}), "jsonl", 5));
  const lines = text
    .trimEnd()
    .split("\n")
    .map((line) => JSON.parse(line) as { id: string; created_at: string });
  expect(lines).toHaveLength(23);
  expect(new Set(lines.map((l) => l.id)).size).toBe(23);
  expect(lines.map((l) => l.created_at)).toEqual([...lines.map((l) => l.created_at)].sort().reverse());
});

it("writes CSV with a header, applies the filters, and neutralizes formula cells", async () => {
  const text = await collect(await exportStream(prisma, HistoryFiltersSchema.parse({ store: "prod" }), "csv", 4));
  const [header] = text.split("\n");
  expect(header).toBe(EXPORT_COLUMNS.join(","));
  expect(text).toContain(`'=HYPERLINK(""http://evil"")`);
  expect(text).toContain("'+SUM(A1)");
  expect(text).toContain("'-2+3");
  expect(text).toContain("'@cmd");
  expect(text).toContain(`"plain, with ""quotes""\nand a newline"`);
  expect(text).not.toMatch(/(^|,)[=+@]/m);
  // 12 prod rows (even indexes of 23) plus the header; one row spans two lines.
  expect(text.match(/,prod,/g)).toHaveLength(12);
});

it("writes just the header when nothing matches", async () => {
  const text = await collect(await exportStream(prisma, HistoryFiltersSchema.parse({ store: "nowhere" }), "csv"));
  expect(text).toBe(`${EXPORT_COLUMNS.join(",")}\n`);
});
