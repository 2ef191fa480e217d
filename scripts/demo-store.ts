/**
 * The demo corpus in a throw-away PGlite database, embedded by the real USE-lite model, for the
 * scripts that measure on it (eval-demo.ts, fit-demo-profile.ts): opened, migrated and seeded
 * before `run`, closed and removed after it, whatever it throws.
 */
import { PrismaClient } from "@prisma/client";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { openDatabase } from "../lib/db/server/connection";
import { migrate } from "../lib/db/server/migrator";
import { UseLiteEmbedder } from "../lib/embeddings/server/use-lite";
import { readDemoCorpus } from "../lib/stores/server/embedded/demo-corpus";
import { EmbeddedStore } from "../lib/stores/server/embedded/embedded-store";

export interface DemoStore {
  prisma: PrismaClient;
  store: EmbeddedStore;
  /** How many demo memories the store holds. */
  created: number;
}

/** `scratchPrefix` names the temporary folder (e.g. "recall-eval-"). */
export async function withDemoStore<T>(scratchPrefix: string, run: (demo: DemoStore) => Promise<T>): Promise<T> {
  const scratch = fs.mkdtempSync(path.join(os.tmpdir(), scratchPrefix));
  const db = await openDatabase({ kind: "pglite", dataDir: path.join(scratch, "data") });
  const embedder = new UseLiteEmbedder();
  try {
    await migrate(db);
    const prisma = new PrismaClient({ adapter: db.adapter });
    const store = new EmbeddedStore(prisma, embedder);
    const { created } = await store.add(readDemoCorpus());
    return await run({ prisma, store, created });
  } finally {
    await embedder.close();
    await db.close();
    fs.rmSync(scratch, { recursive: true, force: true });
  }
}
