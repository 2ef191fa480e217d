import { PrismaClient } from "@prisma/client";
import { resolveDatabaseConfig } from "../lib/db/server/config";
import { openDatabase } from "../lib/db/server/connection";
import { migrate } from "../lib/db/server/migrator";
import { createEmbedder } from "../lib/embeddings/server";
import { UseLiteEmbedder } from "../lib/embeddings/server/use-lite";
import { EmbeddedStore } from "../lib/stores/server/embedded/embedded-store";
import { StoreCatalog } from "../lib/stores/server/embedded/store-catalog";

/**
 * Opens the configured database and one embedded store from a command-line script: the one named
 * (created when missing), else the default store (lib/stores/server/embedded/README.md "Embedded stores"). With
 * the embedded PGlite database this fails (one line, naming the owner) while the app is running:
 * stop it first, or use the app's HTTP API.
 */
export async function openStoreForScript(name?: string) {
  const db = await openDatabase(resolveDatabaseConfig());
  await migrate(db);
  const prisma = new PrismaClient({ adapter: db.adapter });
  const embedder = createEmbedder(process.env);
  const store = new EmbeddedStore(prisma, embedder, { name: name ?? (await new StoreCatalog(prisma).defaultStore()) });
  await store.load();
  return {
    store,
    prisma,
    async close() {
      if (embedder instanceof UseLiteEmbedder) await embedder.close();
      await prisma.$disconnect();
      await db.close();
    },
  };
}
