import { NextResponse } from "next/server";
import { apiRoutes } from "@/lib/api/server/route";
import { authConfig } from "@/lib/auth/server/config";
import { signOut } from "@/lib/auth/server/session";
import { getPrisma } from "@/lib/db/server";

export const dynamic = "force-dynamic";

export const { GET, POST, PUT, PATCH, DELETE } = apiRoutes({
  /** Ends this browser's session (its record too, so a copy of the cookie no longer works) and clears the cookie. Harmless without one. */
  POST: {
    scope: "public",
    handler: async ({ request }) => {
      const config = authConfig();
      const headers = new Headers();
      if (config.enabled) await signOut(request, headers, config, await getPrisma());
      return NextResponse.json({ signed_in: false }, { headers });
    },
  },
});
