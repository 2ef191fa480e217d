import { apiRoute, methodNotAllowed } from "@/lib/api/route";
import { requirePerson } from "@/lib/auth/authorize";
import { countLiveSessions, endAllSessions } from "@/lib/auth/sessions";
import { getPrisma } from "@/lib/db";

export const dynamic = "force-dynamic";

/** How many browsers are signed in now (the Settings page). Signed-in people only, never a key. */
export const GET = apiRoute({}, async ({ principal }) => {
  requirePerson(principal);
  return { live: await countLiveSessions(await getPrisma()) };
});

/** "Sign out everywhere": ends every session, this one included; each browser must sign in again. */
export const DELETE = apiRoute({}, async ({ principal }) => {
  requirePerson(principal);
  return { ended: await endAllSessions(await getPrisma()) };
});

// Other methods answer 405 in the envelope.
export const POST = methodNotAllowed(["GET", "DELETE"]);
export const PUT = methodNotAllowed(["GET", "DELETE"]);
export const PATCH = methodNotAllowed(["GET", "DELETE"]);
