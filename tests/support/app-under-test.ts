import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import type { DATABASE_KINDS } from "./databases";

export { callRoute } from "./call-route";

/**
 * The app itself under test, in-process: its own singletons (the database of `getDatabase`, the
 * embedder, the embedded stores) on a throw-away PGlite directory, for tests that call route
 * handlers (with `callRoute`) the way Next does. The app reads its environment when a singleton
 * first opens, so a test file calls `appUnderTest` at its top, before it imports a route or a
 * server module (`await import(...)`), sets its own variables (a fake service's URL) after it,
 * and calls `app.close()` in its `afterAll`.
 *
 * tests/support/databases.ts is the other start: a scratch database (PGlite or PostgreSQL) handed
 * to the code under test, for tests of lib/ modules that take a Prisma client.
 */
export interface AppUnderTest {
  /** The scratch directory: PGlite's data in `data/`; removed by `close`. */
  dir: string;
  /** Closes what the app opened (embedded stores, embedder, database), then removes `dir`. */
  close(): Promise<void>;
}

export interface AppUnderTestOptions {
  /** Load the demo corpus on the first start (`demo`, 345 memories); default off: an empty store. */
  demoCorpus?: boolean;
}

/** `name` only names the scratch directory (recall-inspector-<name>-…), for a leftover's owner. */
export function appUnderTest(name: string, options: AppUnderTestOptions = {}): AppUnderTest {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), `recall-inspector-${name}-`));
  process.env.PGLITE_DATA_DIR = path.join(dir, "data");
  delete process.env.DATABASE_URL;
  if (options.demoCorpus) delete process.env.DEMO_CORPUS;
  else process.env.DEMO_CORPUS = "off";
  return { dir, close: () => closeApp(dir) };
}

/**
 * The same app on either kind of database: PGlite as `appUnderTest` makes it, or a new database on
 * the suite's PostgreSQL server (tests/support/databases.ts) named by DATABASE_URL, dropped by
 * `close` after the app closed it.
 */
export async function appUnderTestOn(
  kind: (typeof DATABASE_KINDS)[number],
  name: string,
  options: AppUnderTestOptions = {},
): Promise<AppUnderTest> {
  const app = appUnderTest(name, options);
  if (kind === "pglite") return app;
  const { scratchDatabase } = await import("./databases");
  const pg = await scratchDatabase("postgresql");
  if (pg.config.kind !== "postgresql") throw new Error("expected a PostgreSQL scratch database");
  process.env.DATABASE_URL = pg.config.url;
  return {
    dir: app.dir,
    close: async () => {
      await app.close();
      await pg.drop();
    },
  };
}

async function closeApp(dir: string): Promise<void> {
  // Imported here, not at the top: the harness must not open anything before the env is set.
  const { peekProcessSingleton } = await import("@/lib/server/process-singleton");
  const { closeDatabase } = await import("@/lib/db/server");
  const stores = peekProcessSingleton<Promise<{ close(): Promise<void> }>>("embedded-stores");
  await (await stores?.catch(() => undefined))?.close();
  const embedder = peekProcessSingleton<{ close?: () => Promise<void> }>("embedder");
  await embedder?.close?.();
  await closeDatabase();
  fs.rmSync(dir, { recursive: true, force: true });
}
