import { apiRoutes } from "@/lib/api/server/route";
import { countLiveSessions, endAllSessions } from "@/lib/auth/server/sessions";
import { getPrisma } from "@/lib/db/server";

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
