import type { PrismaClient } from "@prisma/client";
import { judgeSignInAttempt, SIGN_IN_LIMITS, type SignInVerdict } from "../sign-in-limit";

/**
 * The sign-in limiter's bookkeeping in the database (lib/auth/README.md "Security"), so every
 * instance that shares it counts the same failures. An attempt is recorded *before* the password
 * is checked and then judged against the failures recorded before it: requests sent in parallel
 * see each other's pending rows, so a burst cannot slip past the rule by being checked all at
 * once. A refused attempt's row is removed (refusals do not lengthen the wait); a wrong password
 * leaves it as a failure; a right one removes it and the address's other failures.
 */
export type AttemptStart = { ok: true; id: bigint } | (SignInVerdict & { ok: false });

export async function startSignInAttempt(prisma: PrismaClient, address: string, now = new Date()): Promise<AttemptStart> {
  const t = now.getTime();
  const horizon = new Date(t - Math.max(SIGN_IN_LIMITS.addressWindowMs, SIGN_IN_LIMITS.overallWindowMs));
  // Failures older than both windows never count again.
  await prisma.signInFailure.deleteMany({ where: { at: { lt: horizon } } });
  const { id } = await prisma.signInFailure.create({ data: { address, at: now }, select: { id: true } });
  const addressSince = new Date(t - SIGN_IN_LIMITS.addressWindowMs);
  const overallSince = new Date(t - SIGN_IN_LIMITS.overallWindowMs);
  const [mine, all] = await Promise.all([
    prisma.signInFailure.aggregate({
      where: { address, at: { gte: addressSince }, id: { not: id } },
      _count: { _all: true },
      _max: { at: true },
    }),
    prisma.signInFailure.aggregate({
      where: { at: { gte: overallSince }, id: { not: id } },
      _count: { _all: true },
      _min: { at: true },
    }),
  ]);
  const verdict = judgeSignInAttempt(
    {
      address: mine._count._all,
      addressLatest: mine._max.at?.getTime() ?? null,
      overall: all._count._all,
      overallOldest: all._min.at?.getTime() ?? null,
    },
    t,
  );
  if (verdict.ok) return { ok: true, id };
  await prisma.signInFailure.deleteMany({ where: { id } });
  return verdict;
}

/** The attempt's outcome: a wrong password stays recorded; a right one clears the address. */
export async function finishSignInAttempt(prisma: PrismaClient, id: bigint, address: string, succeeded: boolean): Promise<void> {
  if (!succeeded) return;
  await prisma.signInFailure.deleteMany({ where: { OR: [{ id }, { address }] } });
}
