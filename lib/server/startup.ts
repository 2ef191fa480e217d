import { checkEnv, EnvError } from "./env";
import { hookHttpServers } from "../api/server/node-server";
import { authConfig } from "../auth/server/config";
import { decideStartup, listeningAddresses } from "../auth/server/exposure";
import { DatabaseSetupError } from "../db/server/config";
import { getDatabase } from "../db/server/index";
import { closeDatabaseOnShutdown } from "../db/server/shutdown";
import { getEmbedder } from "../embeddings/server/index";
import { ensureDemoDataset } from "../eval/server/datasets";
import { markInterruptedRuns } from "../eval/server/runs";
import { getEmbeddedStore, getEmbeddedStores } from "../stores/server/embedded/index";
import { getRemoteStores, RemoteStoreConfigError } from "../stores/server/remote";
import { DEMO_STORE } from "../stores/store-schemas";

/**
 * Server start: check every setting (lib/env.ts), then the remote stores, start loading the
 * embedded store in the background (so the first recall does not wait for it) and, once it is
 * open, warming the embedder, and open and migrate the database; on SIGTERM/SIGINT it is closed
 * after the last request (lib/db/shutdown.ts). A setup problem ends the process with one line
 * that says what to fix.
 */
export async function startApp(): Promise<void> {
  try {
    checkEnv(process.env);
    checkSignIn();
    // Client addresses, TRACE, Node's 431/400 and the headers on Next's own answers (lib/security/README.md "The request guard").
    hookHttpServers();
    // Before the open: a stop signal during it still closes the database once it is open.
    closeDatabaseOnShutdown();
    const remotes = getRemoteStores();
    if (remotes.length) console.log(`Recall Inspector: remote stores ${remotes.map((s) => s.name).join(", ")}.`);
    // Started before the database is awaited, so its index snapshot is read while the database
    // opens (lib/stores/embedded/index.ts); a database that cannot open is reported below, once. The model
    // is warmed only once the store is open, so its load does not share the cores with the
    // index's (lib/embeddings/README.md "Embeddings").
    getEmbeddedStore().then(warmEmbedder, (error: unknown) => {
      if (!(error instanceof DatabaseSetupError)) console.error("Recall Inspector: the embedded store failed to load:", error);
    });
    const db = await getDatabase();
    console.log(`Recall Inspector: ${db.kind} database ready (${db.location}).`);
  } catch (error) {
    if (error instanceof EnvError || error instanceof DatabaseSetupError || error instanceof RemoteStoreConfigError) {
      console.error(`Recall Inspector cannot start: ${error.message}`);
      process.exit(1);
    }
    throw error;
  }
  // Awaited: a run started by the first request must not be caught by the interrupted sweep.
  await prepareEvaluation().catch((error: unknown) => console.error("Recall Inspector: evaluation setup failed:", error));
}

/** Never fails the start: an embedder that cannot warm up is met again, and reported, by the first recall. */
async function warmEmbedder(): Promise<void> {
  try {
    await getEmbedder().warm?.();
  } catch (error) {
    console.warn(
      `Recall Inspector: the embedding model did not warm up: ${error instanceof Error ? error.message : String(error)}`,
    );
  }
}

/** Runs left unfinished by the last process are marked interrupted; the demo set is stored on first start. */
async function prepareEvaluation(): Promise<void> {
  const { prisma } = await getDatabase();
  const interrupted = await markInterruptedRuns(prisma);
  if (interrupted)
    console.log(`Recall Inspector: ${interrupted} evaluation run(s) left unfinished by the last start marked interrupted.`);
  // The demo set belongs to the demo store: only a database that has one gets it.
  const stores = await getEmbeddedStores();
  if (!(await stores.catalog.find(DEMO_STORE))) return;
  const demo = await ensureDemoDataset(prisma, DEMO_STORE);
  if (demo)
    console.log(`Recall Inspector: stored the demo corpus's labeled queries as a set of store "demo" (${demo.count} queries).`);
}

/**
 * Exposed without sign-in is refused (lib/auth/README.md "Security"): bound to anything but
 * loopback, the app needs AUTH_PASSWORD, or AUTH_DISABLED=true said out loud (warned every start).
 */
function checkSignIn(): void {
  // The settings themselves (a too-short AUTH_PASSWORD, …) were checked by checkEnv.
  const config = authConfig();
  const verdict = decideStartup({ listening: listeningAddresses(), authEnabled: config.enabled, authDisabled: config.disabled });
  if (!verdict.ok) {
    console.error(verdict.line);
    process.exit(1);
  }
  if (verdict.warning) console.warn(verdict.warning);
  if (verdict.authEnabled)
    console.log("Recall Inspector: sign-in is on (AUTH_PASSWORD); API clients need a key (npm run apikey).");
}
