/**
 * `npm run bench -- stores [--stores 10] [--size 10000] [--data DIR]`
 *
 * What named embedded stores cost in memory and time (lib/stores/server/embedded/README.md "Embedded stores"):
 * a PGlite database with `stores` stores of `size` synthetic memories each (random unit vectors,
 * Zipf text: recall.ts's corpus; filled once and kept in DIR), then, in this process:
 * - RSS with no store open, with one open, with all open, and after the idle drop;
 * - the first recall into a cold store: its index rebuilt from its rows (no snapshot yet), and
 *   read from its snapshot, each against a warm recall into the same store.
 * RSS is read after a full garbage collection (V8's gc exposed at run time).
 */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import v8 from "node:v8";
import vm from "node:vm";
import { zipfWord } from "./recall";
import { fmtMs, mib, option, prng } from "./stats";

v8.setFlagsFromString("--expose-gc");
const gc = vm.runInNewContext("gc") as () => void;

function rss(): number {
  gc();
  gc();
  return process.memoryUsage().rss;
}

export async function run(args: string[]): Promise<void> {
  const storeCount = Number(option(args, "stores", "10"));
  const size = Number(option(args, "size", "10000"));
  const dir = path.resolve(option(args, "data", path.join(os.tmpdir(), `recall-bench-stores-${storeCount}x${size}`)));
  const { PrismaClient } = await import("@prisma/client");
  const { openDatabase } = await import("../../lib/db/server/connection");
  const { migrate } = await import("../../lib/db/server/migrator");
  const { normalize } = await import("../../lib/embeddings/types");
  const { UseLiteEmbedder } = await import("../../lib/embeddings/server/use-lite");
  const { encodeVector } = await import("../../lib/stores/server/search-index/vector-codec");
  const { EmbeddedStores } = await import("../../lib/stores/server/embedded/stores");

  console.log(
    `stores benchmark — node ${process.version}, ${os.cpus().length} cores; ${storeCount} stores × ${size.toLocaleString("en")} memories, PGlite in ${dir}`,
  );
  const marker = path.join(dir, "filled");
  const fresh = !fs.existsSync(marker);
  if (fresh) fs.rmSync(dir, { recursive: true, force: true });
  fs.mkdirSync(dir, { recursive: true });
  const db = await openDatabase({ kind: "pglite", dataDir: path.join(dir, "data") });
  await migrate(db);
  const prisma = new PrismaClient({ adapter: db.adapter });
  const embedder = new UseLiteEmbedder(1);
  const names = Array.from({ length: storeCount }, (_, i) => `bench-${i}`);
  try {
    if (fresh) {
      const random = prng(11);
      const started = performance.now();
      for (const name of names) {
        await prisma.embeddedStoreRecord.create({ data: { name, embeddingModel: embedder.id } });
        for (let start = 0; start < size; start += 1000) {
          await prisma.memory.createMany({
            data: Array.from({ length: Math.min(1000, size - start) }, (_, i) => ({
              store: name,
              id: `m-${start + i}`,
              summary: Array.from({ length: 12 + Math.floor(random() * 20) }, () => zipfWord(random)).join(" "),
              embedding: encodeVector(normalize(Float32Array.from({ length: 512 }, () => random() * 2 - 1))),
              embeddingModel: embedder.id,
            })),
          });
        }
      }
      fs.writeFileSync(marker, "");
      console.log(`  filled in ${((performance.now() - started) / 1000).toFixed(1)} s`);
    }
    for (const file of fs.readdirSync(dir).filter((f) => f.startsWith("index.snapshot"))) fs.rmSync(path.join(dir, file));
    await embedder.embed(["warm up the embedder"]);
    const stores = new EmbeddedStores(prisma, embedder, {
      reranker: null,
      snapshotBase: path.join(dir, "index.snapshot"),
      idleMs: 60 * 60_000,
    });
    const recall = async (name: string) => {
      const t0 = performance.now();
      const store = await stores.get(name);
      const opened = performance.now();
      await store.recall({ query: "the quarterly planning notes for the platform team", k: 10, searchMode: "hybrid" });
      return { openMs: opened - t0, recallMs: performance.now() - opened, totalMs: performance.now() - t0 };
    };

    const none = rss();
    console.log(`\n  RSS, database open and no store loaded: ${mib(none)}`);
    const cold = await recall(names[0]!);
    const one = rss();
    const warm = await recall(names[0]!);
    console.log(
      `  first recall into a cold store, index built from its rows: ${fmtMs(cold.totalMs)} ms (open ${fmtMs(cold.openMs)} ms + recall ${fmtMs(cold.recallMs)} ms); a warm recall: ${fmtMs(warm.totalMs)} ms`,
    );
    console.log(`  RSS with 1 store loaded: ${mib(one)} (+${mib(one - none)})`);
    for (const name of names.slice(1)) await recall(name);
    const all = rss();
    console.log(
      `  RSS with all ${storeCount} stores loaded: ${mib(all)} (+${mib(all - none)}; ${mib((all - none) / storeCount)} a store)`,
    );

    for (const name of names) await (await stores.get(name)).snapshotsWritten();
    await stores.dropIdle(Date.now() + 2 * 60 * 60_000);
    // A dropped index is freed once its scanner's finalizer told the scan helper to let go too.
    let dropped = rss();
    for (let i = 0; i < 10; i += 1) {
      await new Promise((resolve) => setTimeout(resolve, 200));
      dropped = rss();
    }
    console.log(`  RSS after the idle drop (no store loaded): ${mib(dropped)}`);
    const fromSnapshot = await recall(names[1]!);
    const oneAgain = rss();
    console.log(
      `  first recall into a cold store, index read from its snapshot: ${fmtMs(fromSnapshot.totalMs)} ms (open ${fmtMs(fromSnapshot.openMs)} ms + recall ${fmtMs(fromSnapshot.recallMs)} ms); RSS then ${mib(oneAgain)}`,
    );
    await stores.close();
  } finally {
    await embedder.close();
    await prisma.$disconnect();
    await db.close();
  }
}
