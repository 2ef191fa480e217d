import { DatabaseSetupError } from "./db/config";
import { getDatabase } from "./db/index";
import { getEmbeddedStore } from "./stores/index";
import { getRemoteStores, RemoteStoreConfigError } from "./stores/remote";

/**
 * Server start: check the remote store settings, open and migrate the database, then start
 * loading the embedded store in the background so the first recall does not wait for it. A
 * setup problem ends the process with one line that says what to fix.
 */
export async function startApp(): Promise<void> {
  try {
    const remotes = getRemoteStores();
    if (remotes.length) console.log(`Recall Inspector: remote stores ${remotes.map((s) => s.name).join(", ")}.`);
    const db = await getDatabase();
    console.log(`Recall Inspector: ${db.kind} database ready (${db.location}).`);
  } catch (error) {
    if (error instanceof DatabaseSetupError || error instanceof RemoteStoreConfigError) {
      console.error(`Recall Inspector cannot start: ${error.message}`);
      process.exit(1);
    }
    throw error;
  }
  getEmbeddedStore().catch((error: unknown) => console.error("Recall Inspector: the embedded store failed to load:", error));
}
