/**
 * Starting the app as a user who read only the README's minimum settings for one integration
 * (README "Integrations"): every app setting of lib/env.ts is removed from the environment, then
 * exactly `settings` are set, beside where the test's own database lives (appUnderTest's scratch
 * PGlite directory) and, where the test says so, an empty store (`DEMO_CORPUS=off`: test speed,
 * not an integration setting). Then the app starts as the server does (lib/startup.ts `startApp`:
 * the boot check of every setting, the database, the embedded store).
 *
 * Call it before importing any route: the stores, the embedder and the database are made once per
 * process from the environment of their first use (lib/process-singleton.ts), so each
 * integration's test is its own file (its own process).
 */
import http from "node:http";
import { ENV_SETTINGS } from "@/lib/server/env";
import { appUnderTest } from "../support/app-under-test";

export interface MinimumApp {
  scratch: string;
  /** Closes what the app opened (tests/support/app-under-test.ts) and removes the scratch directory. */
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
  const app = appUnderTest("minimum", { demoCorpus: !options.emptyStore });
  Object.assign(process.env, settings);

  // The app's own server, as `npm start` runs it (-H 127.0.0.1): the start-up check reads where
  // the process listens (lib/auth/exposure.ts) and refuses an unknown address without sign-in.
  const listening = http.createServer((_request, response) => response.end());
  await new Promise<void>((resolve) => listening.listen(0, "127.0.0.1", resolve));
  const { startApp } = await import("@/lib/server/startup");
  await startApp();
  return {
    scratch: app.dir,
    async stop() {
      await new Promise((resolve) => listening.close(resolve));
      await app.close();
    },
  };
}
