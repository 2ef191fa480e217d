import { apiRoute, methodNotAllowed } from "@/lib/api/route";
import { authConfig } from "@/lib/auth/config";
import type { SessionState } from "@/lib/auth/schemas";
import { hasSession } from "@/lib/auth/session";
import { getPrisma } from "@/lib/db";

export const dynamic = "force-dynamic";

/** Whether sign-in is on and this browser is signed in (the header's Sign out, the Settings page). */
export const GET = apiRoute({}, async ({ request }): Promise<SessionState> => {
  const config = authConfig();
  return { auth_enabled: config.enabled, signed_in: config.enabled && (await hasSession(request, config, await getPrisma())) };
});

// Other methods answer 405 in the envelope.
export const POST = methodNotAllowed(["GET"]);
export const PUT = methodNotAllowed(["GET"]);
export const PATCH = methodNotAllowed(["GET"]);
export const DELETE = methodNotAllowed(["GET"]);
