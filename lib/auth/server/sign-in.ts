import "server-only";
import type { PrismaClient } from "@prisma/client";
import { ApiError } from "@/lib/api/errors";
import { retryAfterSeconds } from "../sign-in-limit";
import { requestClientAddress } from "./client-address";
import { authConfig } from "./config";
import { passwordMatches, signIn } from "./session";
import { finishSignInAttempt, startSignInAttempt } from "./sign-in-attempts";

/** A wrong password waits this long before its answer, on top of the limiter (lib/auth/sign-in-limit.ts). */
const WRONG_PASSWORD_DELAY_MS = 500;

/**
 * Checks a password and, when it is right, sets the session cookie on `headers`. 409 when sign-in
 * is off; 429 with Retry-After when this address, or everyone together, failed too often lately —
 * checked before the password, so a refused guess is never tried (lib/auth/README.md "Security").
 */
export async function signInWithPassword(prisma: PrismaClient, request: Request, password: string, headers: Headers) {
  const config = authConfig();
  if (!config.enabled || !config.password)
    throw new ApiError(409, "sign_in_off", "Sign-in is off on this server (AUTH_PASSWORD is not set).");
  const address = requestClientAddress(request);
  const attempt = await startSignInAttempt(prisma, address);
  if (!attempt.ok) {
    const seconds = retryAfterSeconds(attempt.retryAfterMs);
    const who = attempt.scope === "address" ? "from this address" : "on this server";
    throw new ApiError(
      429,
      "too_many_attempts",
      `Too many wrong passwords ${who} lately; try again in ${seconds} s.`,
      { retry_after_seconds: seconds, scope: attempt.scope },
      { "retry-after": String(seconds) },
    );
  }
  const right = passwordMatches(password, config.password);
  await finishSignInAttempt(prisma, attempt.id, address, right);
  if (!right) {
    await new Promise((resolve) => setTimeout(resolve, WRONG_PASSWORD_DELAY_MS));
    throw new ApiError(401, "wrong_password", "That password is not right.");
  }
  await signIn(request, headers, config, prisma);
}
