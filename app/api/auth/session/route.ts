import { apiRoutes } from "@/lib/api/server/route";
import type { SessionState } from "@/lib/auth/schemas";
import { authConfig } from "@/lib/auth/server/config";
import { hasSession } from "@/lib/auth/server/session";
import { getPrisma } from "@/lib/db/server";

export const dynamic = "force-dynamic";

export const { GET, POST, PUT, PATCH, DELETE } = apiRoutes({
  /** Whether sign-in is on and this browser is signed in (the header's Sign out, the Settings page). */
  GET: {
    scope: "public",
    handler: async ({ request }): Promise<SessionState> => {
      const config = authConfig();
      return {
        auth_enabled: config.enabled,
        signed_in: config.enabled && (await hasSession(request, config, await getPrisma())),
      };
    },
  },
});
