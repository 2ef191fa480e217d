import { createHash, randomUUID } from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import { DatabaseSetupError } from "./config";
import type { OpenDatabase, SqlSession } from "./connection";

/**
 * Applies prisma/migrations/<name>/migration.sql in name order, each in its own transaction,
 * recording them in `_prisma_migrations` exactly as `prisma migrate deploy` would, so Prisma's
 * own status tooling agrees. We run them ourselves because `migrate deploy` does not work through
 * the pg driver adapter and the classic engine cannot be downloaded here (lib/db/README.md "Database").
 */

// Read at run time from the project folder (`next start` runs there); the ignore comments keep
// Next's file tracer from pulling the whole project into the server bundle.
export const DEFAULT_MIGRATIONS_DIR = path.join(/* turbopackIgnore: true */ process.cwd(), "prisma", "migrations");

/** Any constant works; it only has to be the same for every process of this app. */
const ADVISORY_LOCK_KEY = 7_231_004_417;

export interface MigrationFile {
  name: string;
  sql: string;
  checksum: string;
}

export interface MigrationReport {
  applied: string[];
  alreadyApplied: string[];
}

export function readMigrations(dir: string = DEFAULT_MIGRATIONS_DIR): MigrationFile[] {
  if (!fs.existsSync(/* turbopackIgnore: true */ dir)) {
    throw new DatabaseSetupError(`No migrations folder at ${dir}; run the app from the project root.`, "migration_failed");
  }
  return fs
    .readdirSync(/* turbopackIgnore: true */ dir, { withFileTypes: true })
    .filter(
      (entry) => entry.isDirectory() && fs.existsSync(path.join(/* turbopackIgnore: true */ dir, entry.name, "migration.sql")),
    )
    .map((entry) => entry.name)
    .sort()
    .map((name) => {
      const sql = fs.readFileSync(path.join(/* turbopackIgnore: true */ dir, name, "migration.sql"), "utf8");
      return { name, sql, checksum: createHash("sha256").update(sql).digest("hex") };
    });
}

const CREATE_MIGRATIONS_TABLE = `
CREATE TABLE IF NOT EXISTS "_prisma_migrations" (
  "id"                  VARCHAR(36) PRIMARY KEY NOT NULL,
  "checksum"            VARCHAR(64) NOT NULL,
  "finished_at"         TIMESTAMPTZ,
  "migration_name"      VARCHAR(255) NOT NULL,
  "logs"                TEXT,
  "rolled_back_at"      TIMESTAMPTZ,
  "started_at"          TIMESTAMPTZ NOT NULL DEFAULT now(),
  "applied_steps_count" INTEGER NOT NULL DEFAULT 0
)`;

interface AppliedRow {
  migration_name: string;
  checksum: string;
  finished_at: Date | string | null;
  rolled_back_at: Date | string | null;
}

export async function migrate(db: OpenDatabase, migrations: MigrationFile[] = readMigrations()): Promise<MigrationReport> {
  return db.withSession(async (session) => {
    // A session-level lock: two app instances starting against one PostgreSQL take turns, and
    // the second finds everything applied. (PGlite has one connection, so it is a no-op there.)
    await session.query("SELECT pg_advisory_lock($1)", [ADVISORY_LOCK_KEY]);
    try {
      return await applyPending(session, migrations);
    } finally {
      await session.query("SELECT pg_advisory_unlock($1)", [ADVISORY_LOCK_KEY]);
    }
  });
}

async function applyPending(session: SqlSession, migrations: MigrationFile[]): Promise<MigrationReport> {
  await session.exec(CREATE_MIGRATIONS_TABLE);
  const rows = await session.query<AppliedRow>(
    `SELECT migration_name, checksum, finished_at, rolled_back_at FROM "_prisma_migrations"`,
  );
  const done = new Map<string, AppliedRow>();
  for (const row of rows) {
    if (row.rolled_back_at !== null) continue;
    if (row.finished_at === null) {
      throw new DatabaseSetupError(
        `Migration ${row.migration_name} was started by another tool and never finished; repair the database (see _prisma_migrations) before starting the app.`,
        "migration_failed",
      );
    }
    done.set(row.migration_name, row);
  }

  const report: MigrationReport = { applied: [], alreadyApplied: [] };
  for (const migration of migrations) {
    const previous = done.get(migration.name);
    if (previous) {
      if (previous.checksum !== migration.checksum) {
        throw new DatabaseSetupError(
          `Migration ${migration.name} was edited after it was applied to this database; restore its original migration.sql and put the change in a new migration (npm run db:migration -- <name>).`,
          "migration_failed",
        );
      }
      report.alreadyApplied.push(migration.name);
      continue;
    }
    await session.exec("BEGIN");
    try {
      await session.exec(migration.sql);
      await session.query(
        `INSERT INTO "_prisma_migrations" (id, checksum, migration_name, started_at, finished_at, applied_steps_count)
         VALUES ($1, $2, $3, now(), now(), 1)`,
        [randomUUID(), migration.checksum, migration.name],
      );
      await session.exec("COMMIT");
    } catch (error) {
      await session.exec("ROLLBACK").catch(() => {});
      throw new DatabaseSetupError(
        `Migration ${migration.name} failed and was rolled back: ${error instanceof Error ? error.message : String(error)}`,
        "migration_failed",
        { cause: error },
      );
    }
    report.applied.push(migration.name);
  }
  return report;
}
