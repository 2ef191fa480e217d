import { apiRoute } from "@/lib/api/route";
import { authConfig } from "@/lib/auth/config";
import type { SessionState } from "@/lib/auth/schemas";
import { hasSession } from "@/lib/auth/session";

export const dynamic = "force-dynamic";

/** Whether sign-in is on and this browser is signed in (the header's Sign out, the Settings page). */
export const GET = apiRoute({}, async ({ request }): Promise<SessionState> => {
  const config = authConfig();
  return { auth_enabled: config.enabled, signed_in: await hasSession(request, config) };
});
