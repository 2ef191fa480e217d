import { NextResponse } from "next/server";
import { apiRoutes } from "@/lib/api/route";
import { authConfig } from "@/lib/auth/config";
import { signOut } from "@/lib/auth/session";
import { getPrisma } from "@/lib/db";

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
