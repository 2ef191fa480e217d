import path from "node:path";
import { CrossBundleError } from "../../errors/cross-bundle";

/** Where the app keeps its data: embedded PGlite (the default) or a PostgreSQL server. */
export type DatabaseConfig = { kind: "pglite"; dataDir: string } | { kind: "postgresql"; url: string; display: string };

export type DatabaseKind = DatabaseConfig["kind"];

/**
 * A setup problem a person has to fix (bad URL, unreachable server, locked data directory).
 * Its message is one line that says what is wrong and what to do; callers print it without a
 * stack trace.
 */
export class DatabaseSetupError extends CrossBundleError("DatabaseSetupError") {
  constructor(
    message: string,
    readonly code:
      "bad_url" | "unreachable" | "auth_failed" | "database_missing" | "pglite_locked" | "pglite_failed" | "migration_failed",
    options?: { cause?: unknown },
  ) {
    super(message, options);
  }
}

export const DEFAULT_PGLITE_DIR = path.join(".data", "pglite");

/** Reads the database choice from the environment: `DATABASE_URL`, else PGlite at `PGLITE_DATA_DIR`. */
export function resolveDatabaseConfig(env: Readonly<Record<string, string | undefined>> = process.env): DatabaseConfig {
  const url = env.DATABASE_URL?.trim();
  if (url) return postgresConfig(url);
  const dataDir = env.PGLITE_DATA_DIR?.trim() || DEFAULT_PGLITE_DIR;
  return { kind: "pglite", dataDir: path.resolve(/* turbopackIgnore: true */ dataDir) };
}

function postgresConfig(url: string): DatabaseConfig {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    throw new DatabaseSetupError(
      "DATABASE_URL is not a valid URL; expected postgres://user:password@host:5432/database, or unset it to use the embedded database.",
      "bad_url",
    );
  }
  if (parsed.protocol !== "postgres:" && parsed.protocol !== "postgresql:") {
    throw new DatabaseSetupError(
      `DATABASE_URL uses the scheme "${parsed.protocol.replace(/:$/, "")}", but only postgres:// and postgresql:// are supported; unset it to use the embedded database.`,
      "bad_url",
    );
  }
  return { kind: "postgresql", url, display: redactUrl(parsed) };
}

/** The URL without its password, fit for messages and logs. */
function redactUrl(url: URL): string {
  const copy = new URL(url.toString());
  if (copy.password) copy.password = "***";
  return copy.toString();
}
