import { afterAll, describe, expect, it } from "vitest";
import { UseLiteEmbedder } from "@/lib/embeddings/use-lite";

/**
 * The real model on real worker threads. The queue's order is asserted, not its timing (three
 * model loads and 128 texts take long on a loaded 2-core machine, hence the generous timeout).
 */
describe("UseLiteEmbedder's queue", () => {
  const embedder = new UseLiteEmbedder(2);
  afterAll(() => embedder.close());

  it("answers a query before any import chunk in flight, with the vector it gets alone", async () => {
    const question = "where is the postgres pooler configured?";
    const alone = (await embedder.embed([question]))[0]!;
    const done: string[] = [];
    // Four one-chunk imports: two in flight on the bulk workers, two queued behind them.
    const chunks = [0, 1, 2, 3].map((c) =>
      Array.from({ length: 32 }, (_, i) => `memory ${c}-${i} about deploys, pools and caches`),
    );
    const bulk = chunks.map((texts, c) => embedder.embed(texts, { priority: "bulk" }).then((v) => (done.push(`bulk ${c}`), v)));
    await new Promise((r) => setTimeout(r, 20));
    const query = embedder.embed([question], { priority: "query" }).then((v) => (done.push("query"), v));
    const [[q], ...imported] = await Promise.all([query, ...bulk]);
    // Before the query worker, the query waited for a bulk chunk to finish.
    expect(done[0]).toBe("query");
    expect(Array.from(q!)).toEqual(Array.from(alone));
    // Two jobs queued per worker still come back matched to their own texts.
    const again = await embedder.embed([chunks[3]![17]!]);
    expect(Array.from(imported[3]![17]!)).toEqual(Array.from(again[0]!));
  }, 180_000);
});
