/**
 * `npm run db:migrate`: applies pending migrations to the configured database (DATABASE_URL, or
 * the embedded PGlite directory) and exits. The app does the same at startup; this is for
 * deploys that migrate before starting, and for checking a database by hand.
 */
import { runScript } from "./run-script";
import { resolveDatabaseConfig } from "../lib/db/server/config";
import { openDatabase } from "../lib/db/server/connection";
import { migrate } from "../lib/db/server/migrator";

runScript(async () => {
  const db = await openDatabase(resolveDatabaseConfig());
  try {
    const report = await migrate(db);
    for (const name of report.applied) console.log(`applied ${name}`);
    console.log(
      `${db.kind} at ${db.location}: ${report.applied.length} applied, ${report.alreadyApplied.length} already up to date.`,
    );
  } finally {
    await db.close();
  }
});
