import { apiRoutes } from "@/lib/api/route";
import { countLiveSessions, endAllSessions } from "@/lib/auth/sessions";
import { getPrisma } from "@/lib/db";

export const dynamic = "force-dynamic";

export const { GET, POST, PUT, PATCH, DELETE } = apiRoutes({
  /** How many browsers are signed in now (the Settings page). Signed-in people only, never a key. */
  GET: {
    scope: "person",
    handler: async () => {
      return { live: await countLiveSessions(await getPrisma()) };
    },
  },
  /** "Sign out everywhere": ends every session, this one included; each browser must sign in again. */
  DELETE: {
    scope: "person",
    handler: async () => {
      return { ended: await endAllSessions(await getPrisma()) };
    },
  },
});
