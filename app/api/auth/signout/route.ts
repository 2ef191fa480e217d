import { NextResponse } from "next/server";
import { apiRoute } from "@/lib/api/route";
import { authConfig } from "@/lib/auth/config";
import { signOut } from "@/lib/auth/session";

export const dynamic = "force-dynamic";

/** Ends the session (clears the cookie). Harmless without one. */
export const POST = apiRoute({}, async ({ request }) => {
  const config = authConfig();
  const headers = new Headers();
  if (config.enabled) await signOut(request, headers, config);
  return NextResponse.json({ signed_in: false }, { headers });
});
