import "server-only";
import { getDatabase } from "@/lib/db/server";
import { resolveDatabaseConfig } from "@/lib/db/server/config";
import { getEmbedder } from "@/lib/embeddings/server";
import { readRerankConfig } from "@/lib/rerank/config";
import { demoCorpusEnabled, storeIdleMs } from "@/lib/server/env";
import { processSingletonAsync } from "@/lib/server/process-singleton";
import { demoCorpusLoadedBefore, ensureDemoCorpus } from "./demo-corpus";
import type { EmbeddedStore } from "./embedded-store";
import { snapshotPath } from "./index-snapshot";
import { MemorySync } from "./memory-sync";
import { EmbeddedStores } from "./stores";
import { DEMO_STORE, FIRST_STORE } from "../../store-schemas";

/**
 * The process's embedded stores, set up once: the database opened, the sync with other
 * instances started, and on a new database the first store created — `demo` with the demo
 * corpus, or an empty `embedded` with DEMO_CORPUS=off (lib/stores/server/embedded/README.md "Embedded stores").
 */
export function getEmbeddedStores(): Promise<EmbeddedStores> {
  return processSingletonAsync("embedded-stores", openEmbeddedStores);
}

/**
 * One embedded store, opened on first use; without a name, the default store (`demo` when it
 * exists, else the oldest; StoreCatalog.defaultStore).
 * @throws StoreError 404 `unknown_store`.
 */
export async function getEmbeddedStore(name?: string): Promise<EmbeddedStore> {
  const stores = await getEmbeddedStores();
  return stores.get(name ?? (await stores.catalog.defaultStore()));
}

/**
 * The store a write goes to: the one named, or without a name the default store, created when
 * there is none yet (the README documents it), so an import never needs a store made first.
 */
export async function getEmbeddedStoreForWrite(name?: string): Promise<EmbeddedStore> {
  const stores = await getEmbeddedStores();
  if (name) return stores.get(name);
  return stores.ensure(await stores.catalog.defaultStore());
}

async function openEmbeddedStores(): Promise<EmbeddedStores> {
  const config = resolveDatabaseConfig();
  const embedder = getEmbedder();
  const db = await getDatabase();
  // Several instances may share one PostgreSQL: keep their indexes in step (memory-sync.ts).
  let sync: MemorySync | undefined;
  if (config.kind === "postgresql") {
    sync = new MemorySync(config.url, db.prisma);
    await sync.start();
  }
  const stores = new EmbeddedStores(db.prisma, embedder, {
    sync,
    reranker: readRerankConfig(process.env),
    snapshotBase: snapshotPath(config, process.env),
    idleMs: storeIdleMs(),
    log: (line) => console.log(line),
  });
  if ((await stores.catalog.list()).length === 0) await createFirstStore(stores);
  // The default store opens now, so the first recall does not wait for its index.
  const first = await stores.get(await stores.catalog.defaultStore());
  const analyzer = await first.recordKeywordAnalyzer();
  if (analyzer?.from) {
    console.log(
      `Recall Inspector: keyword analyzer changed from ${analyzer.from} to ${analyzer.to}; the keyword indexes are rebuilt with it (recalls logged before keep their old BM25 scores).`,
    );
  }
  return stores;
}

/** A database with no store: `demo` with the corpus the first time, else an empty `embedded`. */
async function createFirstStore(stores: EmbeddedStores): Promise<void> {
  const { prisma } = await getDatabase();
  if (demoCorpusEnabled() && !(await demoCorpusLoadedBefore(prisma))) {
    const demo = await stores.ensure(
      DEMO_STORE,
      "The demo corpus: an engineering team's and its people's memories, with a labeled query set.",
    );
    if (await ensureDemoCorpus(demo, prisma))
      console.log(`Recall Inspector: loaded the demo corpus into store "demo" (${demo.size} memories).`);
    return;
  }
  await stores.ensure(FIRST_STORE, null);
  console.log(`Recall Inspector: created the empty store "${FIRST_STORE}"; import memories into it on the Memories page.`);
}
