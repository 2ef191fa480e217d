import { PrismaClient } from "@prisma/client";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { endAllSessions, endSession, sessionIsLive, startSession } from "@/lib/auth/server/sessions";
import { finishSignInAttempt, startSignInAttempt } from "@/lib/auth/server/sign-in-attempts";
import { openDatabase, type OpenDatabase } from "@/lib/db/server/connection";
import { migrate } from "@/lib/db/server/migrator";
import { DATABASE_KINDS, scratchDatabase, type ScratchDatabase } from "../support/databases";

/**
 * The sign-in limiter and the session records live in the database so that instances sharing
 * one agree (lib/auth/README.md "Security"). On PostgreSQL two
 * connections stand for two instances; on PGlite one process owns the directory, so one client.
 */
describe.each(DATABASE_KINDS)("on %s", (kind) => {
  let scratch: ScratchDatabase;
  const opened: OpenDatabase[] = [];
  const clients: PrismaClient[] = [];

  beforeAll(async () => {
    scratch = await scratchDatabase(kind);
    for (let i = 0; i < (kind === "postgresql" ? 2 : 1); i++) {
      const db = await openDatabase(scratch.config);
      if (i === 0) await migrate(db);
      opened.push(db);
      clients.push(new PrismaClient({ adapter: db.adapter }));
    }
  });

  afterAll(async () => {
    for (const client of clients) await client.$disconnect();
    for (const db of opened) await db.close();
    await scratch.drop();
  });

  const instance = (i: number) => clients[i % clients.length]!;

  it("60 attempts at once from one address, spread over the instances: at most 10 get their password checked", async () => {
    const started = await Promise.all(
      Array.from({ length: 60 }, async (_, i) => {
        const attempt = await startSignInAttempt(instance(i), "198.51.100.4");
        if (attempt.ok) await finishSignInAttempt(instance(i), attempt.id, "198.51.100.4", false);
        return attempt.ok;
      }),
    );
    const tried = started.filter(Boolean).length;
    // Attempts that see each other pending are refused together, so a burst may get none through.
    expect(tried).toBeLessThanOrEqual(10);
    // Only the tried ones stay recorded: refusals do not lengthen the wait.
    expect(await instance(1).signInFailure.count({ where: { address: "198.51.100.4" } })).toBe(tried);
    // A right password from another address clears only that address.
    const wrong = await startSignInAttempt(instance(0), "198.51.100.5");
    expect(wrong.ok).toBe(true);
    if (wrong.ok) await finishSignInAttempt(instance(0), wrong.id, "198.51.100.5", false);
    expect(await instance(1).signInFailure.count()).toBe(tried + 1);
    const other = await startSignInAttempt(instance(1), "198.51.100.5");
    expect(other.ok).toBe(true);
    if (other.ok) await finishSignInAttempt(instance(1), other.id, "198.51.100.5", true);
    expect(await instance(0).signInFailure.count()).toBe(tried);
  });

  it("a session started on one instance and ended on another is over on both", async () => {
    const id = await startSession(instance(0));
    expect(await sessionIsLive(instance(1), id)).toBe(true);
    await endSession(instance(1), id);
    expect(await sessionIsLive(instance(0), id)).toBe(false);

    const a = await startSession(instance(0));
    const b = await startSession(instance(1));
    expect(await endAllSessions(instance(1))).toBe(2);
    expect([await sessionIsLive(instance(0), a), await sessionIsLive(instance(0), b)]).toEqual([false, false]);
    expect(await sessionIsLive(instance(0), "not-a-uuid")).toBe(false);
  });
});
