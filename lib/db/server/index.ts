import "server-only";
import { PrismaClient } from "@prisma/client";
import { resolveDatabaseConfig, type DatabaseKind } from "./config";
import { openDatabase, type OpenDatabase } from "./connection";
import { migrate } from "./migrator";
import { processSingletonAsync, takeProcessSingleton } from "../../server/process-singleton";

/**
 * The one Prisma client of the app. Opening it opens the database (PGlite or PostgreSQL, from the
 * environment) and applies pending migrations first. Cached on globalThis so the dev server's
 * module reloads and Next's separate server bundles (instrumentation, route handlers) share one
 * database: PGlite in particular must be opened once per process.
 */
export interface Database {
  prisma: PrismaClient;
  kind: DatabaseKind;
  location: string;
  raw: OpenDatabase;
}

export function getDatabase(): Promise<Database> {
  // A failed open is forgotten, so a later call retries (a PostgreSQL server that comes up later).
  return processSingletonAsync("db", connect);
}

export async function getPrisma(): Promise<PrismaClient> {
  return (await getDatabase()).prisma;
}

/**
 * Closes the process's database if it was opened (at shutdown, lib/db/shutdown.ts, and at the end
 * of a script): PGlite writes its shutdown checkpoint and releases its lock, so the next start
 * need not replay the write-ahead log; a PostgreSQL pool ends its connections. An open still in
 * progress is waited for, then closed. The next `getDatabase` opens it anew.
 */
export async function closeDatabase(): Promise<void> {
  const opening = takeProcessSingleton<Promise<Database>>("db");
  const db = await opening?.catch(() => undefined);
  if (!db) return;
  await db.prisma.$disconnect();
  await db.raw.close();
}

async function connect(): Promise<Database> {
  const raw = await openDatabase(resolveDatabaseConfig());
  try {
    await migrate(raw);
  } catch (error) {
    await raw.close().catch(() => {});
    throw error;
  }
  const prisma = new PrismaClient({ adapter: raw.adapter });
  return { prisma, kind: raw.kind, location: raw.location, raw };
}
