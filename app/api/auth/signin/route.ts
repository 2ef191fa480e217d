import { NextResponse } from "next/server";
import { ApiError, errorResponse } from "@/lib/api/errors";
import { apiRoutes } from "@/lib/api/server/route";
import { SignInBodySchema } from "@/lib/auth/schemas";
import { requestClientAddress } from "@/lib/auth/server/client-address";
import { authConfig } from "@/lib/auth/server/config";
import { passwordMatches, signIn } from "@/lib/auth/server/session";
import { finishSignInAttempt, startSignInAttempt } from "@/lib/auth/server/sign-in-attempts";
import { retryAfterSeconds } from "@/lib/auth/sign-in-limit";
import { getPrisma } from "@/lib/db/server";

export const dynamic = "force-dynamic";

/** A wrong password waits this long before its answer, on top of the limiter (lib/auth/sign-in-limit.ts). */
const WRONG_PASSWORD_DELAY_MS = 500;

export const { GET, POST, PUT, PATCH, DELETE } = apiRoutes({
  /**
   * `{password}` → the session cookie. 409 when sign-in is off (there is nothing to sign in to);
   * 429 with Retry-After when this address, or everyone together, failed too often lately
   * (lib/auth/README.md "Security"): checked before the password, so a refused guess is never tried.
   */
  POST: {
    scope: "public",
    body: SignInBodySchema,
    maxBodyBytes: 10_000,
    handler: async ({ body, request }) => {
      const config = authConfig();
      if (!config.enabled || !config.password) {
        throw new ApiError(409, "sign_in_off", "Sign-in is off on this server (AUTH_PASSWORD is not set).");
      }
      const prisma = await getPrisma();
      const address = requestClientAddress(request);
      const attempt = await startSignInAttempt(prisma, address);
      if (!attempt.ok) {
        const seconds = retryAfterSeconds(attempt.retryAfterMs);
        const who = attempt.scope === "address" ? "from this address" : "on this server";
        return errorResponse(
          new ApiError(429, "too_many_attempts", `Too many wrong passwords ${who} lately; try again in ${seconds} s.`, {
            retry_after_seconds: seconds,
            scope: attempt.scope,
          }),
          { "retry-after": String(seconds) },
        );
      }
      const right = passwordMatches(body.password, config.password);
      await finishSignInAttempt(prisma, attempt.id, address, right);
      if (!right) {
        await new Promise((resolve) => setTimeout(resolve, WRONG_PASSWORD_DELAY_MS));
        throw new ApiError(401, "wrong_password", "That password is not right.");
      }
      const headers = new Headers();
      await signIn(request, headers, config, prisma);
      return NextResponse.json({ signed_in: true }, { headers });
    },
  },
});
