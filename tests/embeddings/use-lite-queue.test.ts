import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it, onTestFinished } from "vitest";
import { UseLiteEmbedder } from "@/lib/embeddings/server/use-lite";

/**
 * The real model on real worker threads. The queue's order and the order the workers start in are
 * asserted, not their timing (three model loads and 128 texts take long on a loaded 2-core
 * machine, hence the generous timeouts).
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

  /** An embedder of its own, stopped after the test, so the first job it sees is the test's. */
  function fresh(workers: number, queryWorker: boolean, workerFile?: string): UseLiteEmbedder {
    const embedder = new UseLiteEmbedder(workers, queryWorker, workerFile);
    onTestFinished(() => embedder.close());
    return embedder;
  }

  it("starts the query worker alone for the first query, and the bulk workers once it has answered", async () => {
    const embedder = fresh(2, true);
    const answer = embedder.embed(["how is a deploy rolled back?"]);
    // Sampled until the answer: the bulk workers start in the same turn as the answer arrives, so
    // a sample taken after it is never mistaken for one taken before.
    const before = [embedder.workerRoles()];
    let answered = false;
    const sampler = setInterval(() => answered || before.push(embedder.workerRoles()), 5);
    const [vector] = await answer.finally(() => ((answered = true), clearInterval(sampler)));
    expect(vector).toHaveLength(embedder.dim);
    expect(before.length).toBeGreaterThan(1);
    expect(before.filter((roles) => roles.join() !== "query")).toEqual([]);
    expect(embedder.workerRoles()).toEqual(["query", "bulk", "bulk"]);
  }, 180_000);

  it("starts the bulk workers at once for bulk work, before any query or while the first one waits", async () => {
    const texts = ["the pooler runs on port 6432", "caches are flushed on deploy"];
    const bulkFirst = fresh(2, true);
    const imported = bulkFirst.embed(texts, { priority: "bulk" });
    expect(bulkFirst.workerRoles()).toEqual(["bulk", "bulk"]);
    const queried = bulkFirst.embed(["which port does the pooler use?"]);
    expect(bulkFirst.workerRoles()).toEqual(["bulk", "bulk", "query"]);

    const queryFirst = fresh(2, true);
    const waiting = queryFirst.embed(["which port does the pooler use?"]);
    expect(queryFirst.workerRoles()).toEqual(["query"]);
    const importedLater = queryFirst.embed(texts, { priority: "bulk" });
    expect(queryFirst.workerRoles()).toEqual(["query", "bulk", "bulk"]);

    const [a, q, b, w] = await Promise.all([imported, queried, importedLater, waiting]);
    expect(Array.from(a[1]!)).toEqual(Array.from(b[1]!));
    expect(Array.from(q[0]!)).toEqual(Array.from(w[0]!));
  }, 180_000);

  it("without a query worker, starts the bulk workers for the first query, as for bulk work", async () => {
    const embedder = fresh(2, false);
    const answer = embedder.embed(["where are the deploy logs kept?"]);
    expect(embedder.workerRoles()).toEqual(["bulk", "bulk"]);
    expect((await answer)[0]).toHaveLength(embedder.dim);
    expect(embedder.workerRoles()).toEqual(["bulk", "bulk"]);
  }, 180_000);

  it("warms the query worker alone, then lets the bulk workers start", async () => {
    const embedder = fresh(1, true);
    const warming = embedder.warm();
    expect(embedder.workerRoles()).toEqual(["query"]);
    await warming;
    expect(embedder.workerRoles()).toEqual(["query", "bulk"]);
  }, 180_000);

  it("restarts a worker that crashes on start at once, then ever later, failing the jobs meanwhile with the reason", async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "crashing-worker-"));
    onTestFinished(() => fs.rmSync(dir, { recursive: true, force: true }));
    const starts = path.join(dir, "starts");
    const file = path.join(dir, "crashing.worker.mjs");
    // A worker that cannot load, as with a broken install: it notes each start, then throws.
    fs.writeFileSync(
      file,
      `import fs from "node:fs";\nfs.appendFileSync(${JSON.stringify(starts)}, "x");\nthrow new Error("no model here");\n`,
    );
    const embedder = fresh(1, false, file);
    await expect(embedder.embed(["first"])).rejects.toThrow(/crashed: no model here/);
    await new Promise((resolve) => setTimeout(resolve, 1500));
    // Crashed, restarted at once, crashed, restarted a second later at most: a tight loop would
    // have started dozens by now.
    const started = fs.readFileSync(starts, "utf8").length;
    expect(started).toBeGreaterThanOrEqual(2);
    expect(started).toBeLessThanOrEqual(4);
    // A job that comes while no worker can take it fails at once, saying why.
    await expect(embedder.embed(["second"])).rejects.toThrow(/no model here/);
  }, 60_000);

  it("counts a worker that exits without an error as crashed: its job fails instead of waiting forever", async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "exiting-worker-"));
    onTestFinished(() => fs.rmSync(dir, { recursive: true, force: true }));
    const file = path.join(dir, "exiting.worker.mjs");
    fs.writeFileSync(file, "process.exit(3);\n");
    await expect(fresh(1, false, file).embed(["hello"])).rejects.toThrow(/crashed: it exited with code 3/);
  }, 60_000);
});
