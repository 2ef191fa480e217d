/**
 * Starting the app as a user who read only the README's minimum settings for one integration
 * (README "Integrations"): every app setting of lib/env.ts is removed from the environment, then
 * exactly `settings` are set, beside where the test's own database lives (`PGLITE_DATA_DIR`, a
 * scratch directory) and, where the test says so, an empty store (`DEMO_CORPUS=off`: test speed,
 * not an integration setting). Then the app starts as the server does (lib/startup.ts `startApp`:
 * the boot check of every setting, the database, the embedded store).
 *
 * Call it before importing any route: the stores, the embedder and the database are made once per
 * process from the environment of their first use (lib/process-singleton.ts), so each
 * integration's test is its own file (its own process).
 */
import fs from "node:fs";
import http from "node:http";
import os from "node:os";
import path from "node:path";
import { ENV_SETTINGS } from "@/lib/server/env";

export interface MinimumApp {
  scratch: string;
  /** Closes the embedder, the database, and removes the scratch directory. */
  stop(): Promise<void>;
}

export async function startAppWithOnly(
  settings: Record<string, string>,
  options: { emptyStore?: boolean } = {},
): Promise<MinimumApp> {
  for (const setting of ENV_SETTINGS) {
    if (setting.scope !== "app") continue;
    for (const name of setting.names) delete process.env[name];
  }
  const scratch = fs.mkdtempSync(path.join(os.tmpdir(), "recall-inspector-minimum-"));
  process.env.PGLITE_DATA_DIR = path.join(scratch, "data");
  if (options.emptyStore) process.env.DEMO_CORPUS = "off";
  Object.assign(process.env, settings);

  // The app's own server, as `npm start` runs it (-H 127.0.0.1): the start-up check reads where
  // the process listens (lib/auth/exposure.ts) and refuses an unknown address without sign-in.
  const listening = http.createServer((_request, response) => response.end());
  await new Promise<void>((resolve) => listening.listen(0, "127.0.0.1", resolve));
  const { startApp } = await import("@/lib/server/startup");
  await startApp();
  return {
    scratch,
    async stop() {
      await new Promise((resolve) => listening.close(resolve));
      const { getEmbedder } = await import("@/lib/embeddings/server");
      const { getDatabase } = await import("@/lib/db/server");
      const embedder = getEmbedder() as { close?: () => Promise<void> };
      await embedder.close?.();
      const db = await getDatabase();
      await db.prisma.$disconnect();
      await db.raw.close();
      fs.rmSync(scratch, { recursive: true, force: true });
    },
  };
}
