import "server-only";
import { getDatabase } from "@/lib/db";
import { resolveDatabaseConfig } from "@/lib/db/config";
import { getEmbedder } from "@/lib/embeddings";
import { demoCorpusEnabled } from "@/lib/env";
import { processSingletonAsync } from "@/lib/process-singleton";
import { readRerankConfig } from "@/lib/rerank/config";
import { ensureDemoCorpus } from "./demo-corpus";
import { EmbeddedStore } from "./embedded-store";
import { readIndexSnapshot, snapshotPath } from "./index-snapshot";
import { KEYWORD_ANALYZER } from "../search-index/memory-index";
import { MemorySync } from "./memory-sync";

/**
 * The process's embedded store, loaded once: the index is read from its snapshot or rebuilt from
 * the database and, on a first start, the demo corpus is loaded (unless DEMO_CORPUS=off).
 */
export function getEmbeddedStore(): Promise<EmbeddedStore> {
  return processSingletonAsync("embedded-store", openEmbeddedStore);
}

async function openEmbeddedStore(): Promise<EmbeddedStore> {
  const config = resolveDatabaseConfig();
  const embedder = getEmbedder();
  const snapshot = snapshotPath(config, process.env);
  // Read while the database opens: the file's read and decoding overlap PGlite's start, and the
  // store checks its version once the database is up (docs/ARCHITECTURE.md "The in-memory index").
  const snapshotRead = snapshot
    ? readIndexSnapshot(snapshot, { embedder: embedder.id, dim: embedder.dim, analyzer: KEYWORD_ANALYZER })
    : undefined;
  const db = await getDatabase();
  // Several instances may share one PostgreSQL: keep their indexes in step (memory-sync.ts).
  let sync: MemorySync | undefined;
  if (config.kind === "postgresql") {
    sync = new MemorySync(config.url, db.prisma);
    await sync.start();
  }
  const store = new EmbeddedStore(db.prisma, embedder, {
    sync,
    reranker: readRerankConfig(process.env),
    snapshot,
    snapshotRead,
  });
  const { memories, ms, source, reason } = await store.open();
  console.log(
    source === "snapshot"
      ? `Recall Inspector: embedded store index read from its snapshot (${memories} memories, ${Math.round(ms)} ms).`
      : `Recall Inspector: embedded store index rebuilt (${memories} memories, ${Math.round(ms)} ms${reason ? `; ${reason}` : ""}).`,
  );
  const analyzer = await store.recordKeywordAnalyzer();
  if (analyzer?.from) {
    console.log(
      `Recall Inspector: keyword analyzer changed from ${analyzer.from} to ${analyzer.to}; the keyword index was rebuilt with it (recalls logged before keep their old BM25 scores).`,
    );
  }
  if (demoCorpusEnabled() && (await ensureDemoCorpus(store, db.prisma))) {
    console.log(`Recall Inspector: loaded the demo corpus (${store.size} memories).`);
  }
  return store;
}
