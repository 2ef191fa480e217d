import type { PrismaClient } from "@prisma/client";
import type { Database } from "@/lib/db/server";
import { peekProcessSingleton } from "@/lib/server/process-singleton";

/**
 * The database the server opened at start (lib/startup.ts), for the request proxy
 * (lib/auth/README.md "Security"). proxy.ts runs in Node.js in the server's own process (Next 16
 * allows no other runtime for it), so it can use that database, but it is a bundle of its own:
 * importing lib/db there would bundle Prisma and PGlite a second time, and opening PGlite twice is
 * not possible. Only types are imported here; the client is the one on globalThis. Null when no
 * database is open (yet, or any more): the caller then refuses.
 */
export async function runningPrisma(): Promise<PrismaClient | null> {
  const opening = peekProcessSingleton<Promise<Database>>("db");
  if (!opening) return null;
  try {
    return (await opening).prisma;
  } catch {
    return null;
  }
}
