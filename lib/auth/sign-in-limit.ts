/**
 * How many wrong passwords the sign-in takes (lib/auth/README.md "Security"), as a pure rule
 * over the failures already recorded, so it is unit-tested on plain numbers. Per client address:
 * 5 failures within 15 minutes are free; after that each further attempt must wait, after the
 * address's latest failure, twice as long as the one before (1 s, 2 s, 4 s … at most 5 minutes),
 * which makes at most 10 failures a minute and about 15 in 15 minutes. Overall (every address
 * together, against guessing from many addresses): at most 50 failures in 5 minutes. Either way the
 * owner is kept out for minutes at most after the guessing stops: failures older than the windows
 * no longer count, and a right password clears its address's failures.
 */
export const SIGN_IN_LIMITS = {
  addressWindowMs: 15 * 60_000,
  freeFailures: 5,
  firstDelayMs: 1_000,
  maxDelayMs: 5 * 60_000,
  overallWindowMs: 5 * 60_000,
  overallFailures: 50,
} as const;

export type SignInLimits = { -readonly [K in keyof typeof SIGN_IN_LIMITS]: number };

/** The failures recorded before this attempt (a pending attempt counts as one), as epoch ms. */
export interface FailureCounts {
  /** This address's failures within `addressWindowMs`. */
  address: number;
  /** The latest of them (null when none). */
  addressLatest: number | null;
  /** Every address's failures within `overallWindowMs`. */
  overall: number;
  /** The oldest of those (null when none). */
  overallOldest: number | null;
}

export type SignInVerdict = { ok: true } | { ok: false; scope: "address" | "overall"; retryAfterMs: number };

/** How long an address waits after its latest failure once it has had `failures` of them. */
export function addressDelayMs(failures: number, limits: SignInLimits = SIGN_IN_LIMITS): number {
  if (failures < limits.freeFailures) return 0;
  const doublings = failures - limits.freeFailures;
  // 2^doublings overflows nothing that matters: past the cap it is the cap.
  return doublings >= 30 ? limits.maxDelayMs : Math.min(limits.firstDelayMs * 2 ** doublings, limits.maxDelayMs);
}

export function judgeSignInAttempt(counts: FailureCounts, now: number, limits: SignInLimits = SIGN_IN_LIMITS): SignInVerdict {
  if (counts.overall >= limits.overallFailures && counts.overallOldest !== null) {
    const retryAfterMs = Math.min(Math.max(1_000, counts.overallOldest + limits.overallWindowMs - now), limits.overallWindowMs);
    return { ok: false, scope: "overall", retryAfterMs };
  }
  const delay = addressDelayMs(counts.address, limits);
  if (delay > 0 && counts.addressLatest !== null) {
    // At most the delay itself: a parallel attempt's pending row may be stamped a moment after `now`.
    const wait = Math.min(counts.addressLatest + delay - now, delay);
    if (wait > 0) return { ok: false, scope: "address", retryAfterMs: wait };
  }
  return { ok: true };
}

/** Retry-After in whole seconds, never 0 (a client that retries at once is refused again). */
export function retryAfterSeconds(ms: number): number {
  return Math.max(1, Math.ceil(ms / 1000));
}
