import "server-only";
import type { NextRequest } from "next/server";
import { ApiError } from "@/lib/api/errors";
import { getPrisma } from "@/lib/db/server";
import { bearerToken, keyAccess, SIGN_IN_REQUIRED } from "../access";
import { authConfig } from "./config";
import { findActiveKey } from "./keys";
import type { RouteScope } from "../scopes";
import { hasSession } from "./session";

export type Principal = { kind: "open" } | { kind: "public" } | { kind: "session" } | { kind: "key"; id: string; scope: string };

/**
 * Who is calling a route method declared `scope` (the route wrapper asks first, lib/auth/README.md
 * "Security"): with sign-in off, anyone; with it on, anyone for a `public` method, else a signed-in
 * browser or an active API key the scope admits (never a key for `person`). A key that is
 * presented is always checked, even beside a cookie.
 */
export async function authorizeApi(
  request: NextRequest,
  scope: RouteScope,
  options: { keyHeader?: string } = {},
): Promise<Principal> {
  const config = authConfig();
  if (!config.enabled) return { kind: "open" };
  const { pathname } = request.nextUrl;
  if (scope === "public") return { kind: "public" };
  // The recall proxy forwards the agent's own Authorization to the memory service, so the
  // dashboard's key travels in a header of its own there (lib/capture/README.md "Capture from production").
  const keyHeader = options.keyHeader ?? "authorization";
  const { token, malformed } = bearerToken(request.headers.get(keyHeader));
  if (malformed) throw new ApiError(401, "unauthorized", `The ${headerName(keyHeader)} header must be: Bearer <key>.`);
  if (token) {
    const key = await findActiveKey(await getPrisma(), token);
    if (!key) throw new ApiError(401, "invalid_api_key", "This API key is not known or was revoked.");
    const access = keyAccess(key.scope, scope, request.method, pathname);
    if (!access.ok) throw new ApiError(access.status, access.code, access.message, { scope: key.scope });
    return { kind: "key", id: key.id, scope: key.scope };
  }
  if (await hasSession(request, config, await getPrisma())) return { kind: "session" };
  throw new ApiError(SIGN_IN_REQUIRED.status, SIGN_IN_REQUIRED.code, SIGN_IN_REQUIRED.message);
}

function headerName(lower: string): string {
  return lower.replace(/(^|-)([a-z])/g, (_, dash: string, c: string) => dash + c.toUpperCase());
}
