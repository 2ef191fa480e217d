import { keyMayCall, type ApiKeyScope, type RouteScope } from "./scopes";

/**
 * Pure access rules shared by the page guard (lib/auth/page-guard.ts) and the route wrapper
 * (API keys against each method's declared scope), lib/auth/README.md "Security".
 */

/** Pages anyone may see: the sign-in page. */
export const SIGN_IN_PATH = "/signin";

export function isApiPath(pathname: string): boolean {
  return pathname === "/api" || pathname.startsWith("/api/");
}

/** Next's own assets and files every page needs before anyone signs in (the icon is app/icon.svg). */
export function isAssetPath(pathname: string): boolean {
  return pathname.startsWith("/_next/") || ["/favicon.ico", "/icon.svg", "/robots.txt"].includes(pathname);
}

/** `Authorization: Bearer <key>` → the key; anything else → null (and `malformed` when a header was there). */
export function bearerToken(header: string | null): { token: string | null; malformed: boolean } {
  if (header === null || header.trim() === "") return { token: null, malformed: false };
  const match = /^Bearer\s+(\S+)\s*$/i.exec(header);
  return match ? { token: match[1]!, malformed: false } : { token: null, malformed: true };
}

export type ApiAccess = { ok: true } | { ok: false; status: 401 | 403; code: string; message: string };

export const SIGN_IN_REQUIRED = {
  ok: false,
  status: 401,
  code: "unauthorized",
  message: "Sign in, or send an API key as Authorization: Bearer <key> (create one on the Settings page or with npm run apikey).",
} as const satisfies ApiAccess;

/** Whether a key of `scope` may call `method pathname`, a route method declared `route`. */
export function keyAccess(scope: ApiKeyScope, route: RouteScope, method: string, pathname: string): ApiAccess {
  if (keyMayCall(scope, route)) return { ok: true };
  return {
    ok: false,
    status: 403,
    code: "forbidden_scope",
    message: `This API key's scope "${scope}" does not allow ${method.toUpperCase()} ${pathname}.`,
  };
}

/** `next` after sign-in: only a path on this site, never "//evil.example" or a full URL. */
export function safeNextPath(next: string | null | undefined): string {
  if (!next || !next.startsWith("/") || next.startsWith("//") || next.startsWith("/\\")) return "/";
  if (next === SIGN_IN_PATH || next.startsWith(`${SIGN_IN_PATH}?`)) return "/";
  return next;
}
