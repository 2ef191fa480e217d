import { NextResponse } from "next/server";
import { ApiError } from "@/lib/api/errors";
import { apiRoute } from "@/lib/api/route";
import { authConfig } from "@/lib/auth/config";
import { SignInBodySchema } from "@/lib/auth/schemas";
import { passwordMatches, signIn } from "@/lib/auth/session";

export const dynamic = "force-dynamic";

/** A wrong password waits this long, so guessing over HTTP is slow. */
const WRONG_PASSWORD_DELAY_MS = 500;

/** `{password}` → the session cookie. 409 when sign-in is off (there is nothing to sign in to). */
export const POST = apiRoute({ body: SignInBodySchema, maxBodyBytes: 10_000 }, async ({ body, request }) => {
  const config = authConfig();
  if (!config.enabled || !config.password) {
    throw new ApiError(409, "sign_in_off", "Sign-in is off on this server (AUTH_PASSWORD is not set).");
  }
  if (!passwordMatches(body.password, config.password)) {
    await new Promise((resolve) => setTimeout(resolve, WRONG_PASSWORD_DELAY_MS));
    throw new ApiError(401, "wrong_password", "That password is not right.");
  }
  const headers = new Headers();
  await signIn(request, headers, config);
  return NextResponse.json({ signed_in: true }, { headers });
});
