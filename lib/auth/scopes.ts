import { z } from "zod";

/**
 * What an API key may do (lib/auth/README.md "Security"). An `ingest` key is for an agent that
 * ships its recalls here: it may only POST /api/recalls. A `read` key may only read (GET/HEAD).
 * A `full` key may do anything the API does except manage keys: a leaked key must not be able to
 * mint its own successors, so keys are managed by a signed-in person only.
 */
export const API_KEY_SCOPES = ["ingest", "read", "full"] as const;
export type ApiKeyScope = (typeof API_KEY_SCOPES)[number];
export const ApiKeyScopeSchema = z.enum(API_KEY_SCOPES);

export const SCOPE_DESCRIPTIONS: Record<ApiKeyScope, string> = {
  ingest: "may only send recalls (POST /api/recalls, POST /v1/traces, the recall proxy /proxy/…)",
  read: "may only read (GET)",
  full: "may read and write everything except API keys",
};

/**
 * Who may call a route method, declared beside it in the route file (`apiRoutes` in
 * lib/api/route.ts, lib/auth/README.md "Security"): `public` anyone, even with sign-in on;
 * `read`, `ingest`, `full` a signed-in person or a key of that scope (a `full` key may call them
 * all); `person` only a signed-in person, never a key (key management, sessions). A list of key
 * scopes admits a key of any of them: the recall proxy's reads take `ingest` and `read` keys.
 */
export type RouteScope = "public" | "person" | ApiKeyScope | readonly ApiKeyScope[];

/** Whether a key of `key` scope may call a route method declared `route` (public needs no key at all). */
export function keyMayCall(key: ApiKeyScope, route: RouteScope): boolean {
  if (route === "public") return true;
  if (route === "person") return false;
  if (key === "full") return true;
  return typeof route === "string" ? route === key : route.includes(key);
}

/** A declared scope as one word for tables and messages: `ingest+read` for a list. */
export function scopeLabel(route: RouteScope): string {
  return typeof route === "string" ? route : route.join("+");
}

/**
 * The path rules below decided who may call what before routes declared it (every route now does,
 * through apiRoutes). They stay only as the oracle of app/route-scopes.test.ts and
 * lib/auth/access.test.ts, which check that the declared scopes admit exactly the callers these
 * rules did; nothing at run time reads them.
 */
export function legacyRouteScope(method: string, pathname: string): RouteScope {
  const verb = method.toUpperCase();
  const path = pathname.length > 1 ? pathname.replace(/\/+$/, "") : pathname;
  if (LEGACY_PUBLIC_PATHS.has(path)) return "public";
  if (isKeyManagementPath(path)) return "person";
  if (isProxyPath(path)) return verb === "GET" || verb === "HEAD" ? ["ingest", "read"] : "ingest";
  if (verb === "POST" && (path === "/api/recalls" || path === "/v1/traces")) return "ingest";
  return verb === "GET" || verb === "HEAD" ? "read" : "full";
}

/** API paths anyone may call even with sign-in on: health checks, and signing in itself. */
const LEGACY_PUBLIC_PATHS = new Set(["/api/health", "/api/auth/signin", "/api/auth/signout", "/api/auth/session"]);

export function isPublicApiPath(pathname: string): boolean {
  return LEGACY_PUBLIC_PATHS.has(pathname.length > 1 ? pathname.replace(/\/+$/, "") : pathname);
}

/** Paths only a signed-in person may use, whatever the key. */
export function isKeyManagementPath(pathname: string): boolean {
  return pathname === "/api/keys" || pathname.startsWith("/api/keys/") || pathname.startsWith("/api/auth/");
}

/** The recall proxy's paths, `/proxy/{store}/…`. */
export function isProxyPath(pathname: string): boolean {
  return pathname === "/proxy" || pathname.startsWith("/proxy/");
}

/** What a key of `scope` might do on `method pathname` by the path rules (see legacyRouteScope). */
export function scopeAllows(scope: ApiKeyScope, method: string, pathname: string): boolean {
  const verb = method.toUpperCase();
  const path = pathname.length > 1 ? pathname.replace(/\/+$/, "") : pathname;
  if (isKeyManagementPath(path)) return false;
  switch (scope) {
    case "ingest":
      // The capture paths (lib/capture/README.md "Capture from production"): what an agent or its
      // collector needs to ship recalls, and the recall proxy, which it calls in every method.
      return (verb === "POST" && (path === "/api/recalls" || path === "/v1/traces")) || isProxyPath(path);
    case "read":
      return verb === "GET" || verb === "HEAD";
    case "full":
      return true;
  }
}
