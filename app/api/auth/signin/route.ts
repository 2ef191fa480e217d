import { NextResponse } from "next/server";
import { apiRoutes } from "@/lib/api/server/route";
import { SignInBodySchema } from "@/lib/auth/schemas";
import { signInWithPassword } from "@/lib/auth/server/sign-in";
import { getPrisma } from "@/lib/db/server";

export const dynamic = "force-dynamic";

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
      const headers = new Headers();
      await signInWithPassword(await getPrisma(), request, body.password, headers);
      return NextResponse.json({ signed_in: true }, { headers });
    },
  },
});
