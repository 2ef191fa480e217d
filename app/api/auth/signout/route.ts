import { NextResponse } from "next/server";
import { apiRoute, methodNotAllowed } from "@/lib/api/route";
import { authConfig } from "@/lib/auth/config";
import { signOut } from "@/lib/auth/session";
import { getPrisma } from "@/lib/db";

export const dynamic = "force-dynamic";

/** Ends this browser's session (its record too, so a copy of the cookie no longer works) and clears the cookie. Harmless without one. */
export const POST = apiRoute({}, async ({ request }) => {
  const config = authConfig();
  const headers = new Headers();
  if (config.enabled) await signOut(request, headers, config, await getPrisma());
  return NextResponse.json({ signed_in: false }, { headers });
});

// Other methods answer 405 in the envelope.
export const GET = methodNotAllowed(["POST"]);
export const PUT = methodNotAllowed(["POST"]);
export const PATCH = methodNotAllowed(["POST"]);
export const DELETE = methodNotAllowed(["POST"]);
