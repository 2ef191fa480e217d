import type { SqlMigrationAwareDriverAdapterFactory } from "@prisma/driver-adapter-utils";
import fs from "node:fs";
import { DatabaseSetupError, type DatabaseConfig, type DatabaseKind } from "./config";
import { acquirePgliteLock, releasePgliteLock } from "./pglite-lock";

/** One connection's worth of raw SQL: what the migrator and health checks need below Prisma. */
export interface SqlSession {
  query<T = Record<string, unknown>>(text: string, params?: unknown[]): Promise<T[]>;
  /** Runs a script of several statements (a migration file). */
  exec(script: string): Promise<void>;
}

/** An open database: the driver adapter Prisma runs on, plus raw sessions on the same driver. */
export interface OpenDatabase {
  kind: DatabaseKind;
  /** Where the data lives, fit for messages (no password). */
  location: string;
  adapter: SqlMigrationAwareDriverAdapterFactory;
  withSession<T>(fn: (session: SqlSession) => Promise<T>): Promise<T>;
  /**
   * Sends one write without the caller waiting for it, where no later query can overtake it
   * (lib/recall-log/README.md "The recall log"): PGlite is one connection that runs statements in
   * the order they were sent, so every query sent after this one sees the write, and close()
   * waits for it. Null for PostgreSQL, whose pool keeps no such order. A failure goes to `onError`.
   */
  sendOrderedWrite: ((text: string, values: readonly unknown[], onError: (error: unknown) => void) => void) | null;
  close(): Promise<void>;
}

export async function openDatabase(config: DatabaseConfig): Promise<OpenDatabase> {
  return config.kind === "pglite" ? openPglite(config.dataDir) : openPostgres(config.url, config.display);
}

async function openPglite(dataDir: string): Promise<OpenDatabase> {
  acquirePgliteLock(dataDir);
  const [{ PGlite }, { PrismaPGlite }, { pg_trgm }] = await Promise.all([
    import("@electric-sql/pglite"),
    import("pglite-prisma-adapter"),
    // Trigram indexes make "text in the query" searches of a large history fast (a migration creates one).
    import("@electric-sql/pglite/contrib/pg_trgm"),
  ]);
  let db: InstanceType<typeof PGlite>;
  try {
    fs.mkdirSync(dataDir, { recursive: true });
    db = new PGlite(dataDir, { extensions: { pg_trgm } });
    await db.waitReady;
  } catch (error) {
    releasePgliteLock(dataDir);
    throw new DatabaseSetupError(
      `The embedded database at ${dataDir} could not be opened (${errorText(error)}). ` +
        "If the directory holds data from another program or a different PGlite version, move it aside or set PGLITE_DATA_DIR to a new directory.",
      "pglite_failed",
      { cause: error },
    );
  }
  // PGlite is one connection; sessions take turns through its own queue.
  const session: SqlSession = {
    async query<T>(text: string, params?: unknown[]) {
      return (await db.query(text, params)).rows as T[];
    },
    async exec(script: string) {
      await db.exec(script);
    },
  };
  const sentWrites = new Set<Promise<void>>();
  return {
    kind: "pglite",
    location: dataDir,
    adapter: new PrismaPGlite(db),
    withSession: (fn) => fn(session),
    sendOrderedWrite(text, values, onError) {
      // PGlite queues every query (and transaction) behind the ones sent before it. The
      // transaction takes its place in that queue now and runs once the event loop has turned,
      // so the sender's answer goes out before the write's work.
      const write = db
        .transaction(async (tx) => {
          await new Promise((resolve) => setImmediate(resolve));
          await tx.query(text, [...values]);
        })
        .then(() => undefined, onError);
      sentWrites.add(write);
      void write.finally(() => sentWrites.delete(write));
    },
    async close() {
      await Promise.all(sentWrites);
      await db.close();
      releasePgliteLock(dataDir);
    },
  };
}

async function openPostgres(url: string, display: string): Promise<OpenDatabase> {
  const [{ default: pg }, { PrismaPg }] = await Promise.all([import("pg"), import("@prisma/adapter-pg")]);
  const pool = new pg.Pool({ connectionString: url, connectionTimeoutMillis: 5_000, max: 10 });
  // Idle-client errors (server restart) must not crash the process; the next query reports them.
  pool.on("error", () => {});
  try {
    await pool.query("SELECT 1");
  } catch (error) {
    await pool.end().catch(() => {});
    throw describePostgresError(error, display);
  }
  return {
    kind: "postgresql",
    location: display,
    adapter: new PrismaPg(pool),
    async withSession(fn) {
      const client = await pool.connect();
      try {
        return await fn({
          async query<T>(text: string, params?: unknown[]) {
            return (await client.query(text, params)).rows as T[];
          },
          async exec(script: string) {
            await client.query(script);
          },
        });
      } finally {
        client.release();
      }
    },
    sendOrderedWrite: null,
    close: () => pool.end(),
  };
}

/** Turns a driver error at connect time into one line a person can act on. */
export function describePostgresError(error: unknown, display: string): DatabaseSetupError {
  const code = (error as { code?: string }).code;
  const text = errorText(error);
  if (code === "28P01" || code === "28000") {
    return new DatabaseSetupError(
      `PostgreSQL at ${display} refused the credentials (${text}); check the user and password in DATABASE_URL.`,
      "auth_failed",
      { cause: error },
    );
  }
  if (code === "3D000") {
    return new DatabaseSetupError(
      `PostgreSQL at ${display} has no such database (${text}); create it (createdb) or fix the database name in DATABASE_URL.`,
      "database_missing",
      { cause: error },
    );
  }
  return new DatabaseSetupError(
    `Cannot reach PostgreSQL at ${display} (${text}); is the server running and DATABASE_URL right? Unset DATABASE_URL to use the embedded database.`,
    "unreachable",
    { cause: error },
  );
}

function errorText(error: unknown): string {
  if (error instanceof AggregateError && error.errors.length > 0) return errorText(error.errors[0]);
  if (error instanceof Error) {
    const code = (error as { code?: string }).code;
    const message = error.message || error.name;
    return code && !message.includes(code) ? `${code}: ${message}` : message;
  }
  return String(error);
}
