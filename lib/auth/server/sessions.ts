import type { PrismaClient } from "@prisma/client";
import { randomUUID } from "node:crypto";
import { isUuid } from "@/lib/validation/uuid";

/**
 * Sessions recorded server-side (lib/auth/README.md "Security"): the sealed cookie carries a
 * session id, and a session is live only while its row in `auth_sessions` is. Signing out deletes
 * the row, so a copy of the cookie replayed afterwards is refused at once, by every instance that
 * shares the database. Takes the Prisma client as an argument: the request proxy passes the one
 * the server opened at start (lib/auth/running-database.ts), the API the usual one.
 */

/** Absolute lifetime: a week after signing in, whatever the use. */
export const SESSION_TTL_SECONDS = 7 * 24 * 3600;
/** Idle timeout: a session unused this long has ended. */
export const SESSION_IDLE_SECONDS = 24 * 3600;
/** last_seen_at is written at most this often per session, so page loads do not all turn into writes. */
const TOUCH_EVERY_MS = 60_000;

export async function startSession(prisma: PrismaClient, now = new Date()): Promise<string> {
  // Sessions past either limit can never be used again: dropped here, where one is added.
  await prisma.authSession.deleteMany({
    where: {
      OR: [
        { createdAt: { lt: new Date(now.getTime() - SESSION_TTL_SECONDS * 1000) } },
        { lastSeenAt: { lt: new Date(now.getTime() - SESSION_IDLE_SECONDS * 1000) } },
      ],
    },
  });
  const id = randomUUID();
  await prisma.authSession.create({ data: { id, createdAt: now, lastSeenAt: now } });
  return id;
}

/** Whether the session is live (recorded, within its lifetime and idle timeout); marks it seen. */
export async function sessionIsLive(prisma: PrismaClient, id: string, now = new Date()): Promise<boolean> {
  if (!isUuid(id)) return false;
  const row = await prisma.authSession.findUnique({ where: { id } });
  if (!row) return false;
  const t = now.getTime();
  if (t - row.createdAt.getTime() > SESSION_TTL_SECONDS * 1000) return false;
  if (t - row.lastSeenAt.getTime() > SESSION_IDLE_SECONDS * 1000) return false;
  if (t - row.lastSeenAt.getTime() > TOUCH_EVERY_MS) {
    await prisma.authSession.updateMany({ where: { id }, data: { lastSeenAt: now } }).catch(() => {});
  }
  return true;
}

/** Ends one session (sign-out). Ending one that is gone is fine. */
export async function endSession(prisma: PrismaClient, id: string): Promise<void> {
  await prisma.authSession.deleteMany({ where: { id } });
}

/** Ends every session ("Sign out everywhere"): every browser must sign in again. */
export async function endAllSessions(prisma: PrismaClient): Promise<number> {
  return (await prisma.authSession.deleteMany({})).count;
}

/** Sessions that are live now (the Settings page says how many browsers are signed in). */
export async function countLiveSessions(prisma: PrismaClient, now = new Date()): Promise<number> {
  return prisma.authSession.count({
    where: {
      createdAt: { gte: new Date(now.getTime() - SESSION_TTL_SECONDS * 1000) },
      lastSeenAt: { gte: new Date(now.getTime() - SESSION_IDLE_SECONDS * 1000) },
    },
  });
}
