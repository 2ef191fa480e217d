import { describe, expect, it } from "vitest";
import { addressDelayMs, judgeSignInAttempt, retryAfterSeconds, SIGN_IN_LIMITS } from "./sign-in-limit";

const none = { address: 0, addressLatest: null, overall: 0, overallOldest: null };

describe("the sign-in limit", () => {
  it("5 failures are free, then the wait doubles from 1 s up to 5 minutes", () => {
    expect([0, 4, 5, 6, 7, 10, 13, 14, 100].map((f) => addressDelayMs(f))).toEqual([
      0, 0, 1_000, 2_000, 4_000, 32_000, 256_000, 300_000, 300_000,
    ]);
  });

  it("a steady guesser gets at most 10 tries a minute from one address", () => {
    const tries: number[] = [];
    for (let now = 0; now <= 60_000; now += 100) {
      const recent = tries.filter((t) => now - t < SIGN_IN_LIMITS.addressWindowMs);
      const verdict = judgeSignInAttempt(
        {
          address: recent.length,
          addressLatest: recent.at(-1) ?? null,
          overall: recent.length,
          overallOldest: recent[0] ?? null,
        },
        now,
      );
      if (verdict.ok) tries.push(now);
    }
    expect(tries.length).toBe(10);
    // Five at once (one per step), then 1, 2, 4, 8 and 16 s apart.
    expect(tries).toEqual([0, 100, 200, 300, 400, 1_400, 3_400, 7_400, 15_400, 31_400]);
  });

  it("refuses with the time left, never more than the cap, and names the scope", () => {
    expect(judgeSignInAttempt(none, 0)).toEqual({ ok: true });
    expect(judgeSignInAttempt({ ...none, address: 6, addressLatest: 10_000 }, 10_500)).toEqual({
      ok: false,
      scope: "address",
      retryAfterMs: 1_500,
    });
    expect(judgeSignInAttempt({ ...none, address: 6, addressLatest: 10_000 }, 12_000)).toEqual({ ok: true });
    // A parallel attempt stamped after `now` does not stretch the wait past the cap.
    expect(judgeSignInAttempt({ ...none, address: 40, addressLatest: 1_050 }, 1_000)).toMatchObject({ retryAfterMs: 300_000 });
    expect(judgeSignInAttempt({ ...none, overall: 50, overallOldest: 0 }, 60_000)).toEqual({
      ok: false,
      scope: "overall",
      retryAfterMs: 240_000,
    });
    expect(judgeSignInAttempt({ ...none, overall: 49, overallOldest: 0 }, 60_000)).toEqual({ ok: true });
  });

  it("Retry-After is whole seconds, at least 1", () => {
    expect([0, 1, 999, 1_000, 1_001].map(retryAfterSeconds)).toEqual([1, 1, 1, 1, 2]);
  });
});
