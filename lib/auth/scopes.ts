import { z } from "zod";

/**
 * What an API key may do (docs/ARCHITECTURE.md "Security"). An `ingest` key is for an agent that
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

/** Paths only a signed-in person may use, whatever the key. */
export function isKeyManagementPath(pathname: string): boolean {
  return pathname === "/api/keys" || pathname.startsWith("/api/keys/") || pathname.startsWith("/api/auth/");
}

/** The recall proxy's paths, `/proxy/{store}/…`. */
export function isProxyPath(pathname: string): boolean {
  return pathname === "/proxy" || pathname.startsWith("/proxy/");
}

export function scopeAllows(scope: ApiKeyScope, method: string, pathname: string): boolean {
  const verb = method.toUpperCase();
  const path = pathname.length > 1 ? pathname.replace(/\/+$/, "") : pathname;
  if (isKeyManagementPath(path)) return false;
  switch (scope) {
    case "ingest":
      // The capture paths (docs/ARCHITECTURE.md "Capture from production"): what an agent or its
      // collector needs to ship recalls, and the recall proxy, which it calls in every method.
      return (verb === "POST" && (path === "/api/recalls" || path === "/v1/traces")) || isProxyPath(path);
    case "read":
      return verb === "GET" || verb === "HEAD";
    case "full":
      return true;
  }
}
