import { describe, expect, it } from "vitest";
import { bearerToken, isAssetPath, keyAccess, safeNextPath } from "./access";
import { API_KEY_SCOPES, isPublicApiPath, keyMayCall, legacyRouteScope, scopeAllows, type RouteScope } from "./scopes";

describe("key scopes", () => {
  const routes: Array<[string, string]> = [
    ["GET", "/api/recalls"],
    ["GET", "/api/recalls/export"],
    ["GET", "/api/memories"],
    ["POST", "/api/recalls"],
    ["POST", "/api/recall"],
    ["POST", "/api/memories"],
    ["DELETE", "/api/memories/abc"],
    ["POST", "/api/recalls/retention"],
    ["POST", "/api/confidence"],
    ["GET", "/api/keys"],
    ["POST", "/api/keys"],
    ["DELETE", "/api/keys/0b6c1a7e-0000-4000-8000-000000000000"],
    ["POST", "/v1/traces"],
    ["POST", "/proxy/prod/api/v1/memory/recall"],
    ["GET", "/proxy/prod/api/v1/memory/list"],
  ];
  const allowed = (scope: (typeof API_KEY_SCOPES)[number]) =>
    routes.filter(([m, p]) => scopeAllows(scope, m, p)).map(([m, p]) => `${m} ${p}`);

  it("ingest may only send recalls: POST /api/recalls, POST /v1/traces and the recall proxy", () => {
    expect(allowed("ingest")).toEqual([
      "POST /api/recalls",
      "POST /v1/traces",
      "POST /proxy/prod/api/v1/memory/recall",
      "GET /proxy/prod/api/v1/memory/list",
    ]);
    expect(scopeAllows("ingest", "GET", "/v1/traces")).toBe(false);
    expect(scopeAllows("ingest", "POST", "/proxyish")).toBe(false);
    expect(scopeAllows("ingest", "post", "/api/recalls/")).toBe(true);
    expect(scopeAllows("ingest", "GET", "/api/recalls")).toBe(false);
  });

  it("read may only GET (never the key list)", () => {
    expect(allowed("read")).toEqual([
      "GET /api/recalls",
      "GET /api/recalls/export",
      "GET /api/memories",
      "GET /proxy/prod/api/v1/memory/list",
    ]);
    expect(scopeAllows("read", "HEAD", "/api/recalls")).toBe(true);
  });

  it("full may do everything but manage keys", () => {
    expect(allowed("full")).toEqual(routes.filter(([, p]) => !p.startsWith("/api/keys")).map(([m, p]) => `${m} ${p}`));
    expect(scopeAllows("full", "POST", "/api/auth/signin")).toBe(false);
  });

  it("a refusal names the scope, method and path", () => {
    expect(keyAccess("ingest", "full", "delete", "/api/memories/x")).toEqual({
      ok: false,
      status: 403,
      code: "forbidden_scope",
      message: 'This API key\'s scope "ingest" does not allow DELETE /api/memories/x.',
    });
    expect(keyAccess("read", "read", "GET", "/api/recalls")).toEqual({ ok: true });
  });

  it("the path rules, as a declared scope, admit the same keys as before", () => {
    for (const [method, path] of [...routes, ["HEAD", "/proxy/prod/x"], ["OPTIONS", "/proxy/prod/x"], ["GET", "/v1/traces"]]) {
      for (const scope of API_KEY_SCOPES) {
        expect([method, path, scope, keyMayCall(scope, legacyRouteScope(method!, path!))]).toEqual([
          method,
          path,
          scope,
          scopeAllows(scope, method!, path!),
        ]);
      }
    }
  });

  it("a declared scope admits a key of that scope or a full key, a list any of its scopes, person none", () => {
    const admitted = (route: RouteScope) => API_KEY_SCOPES.filter((key) => keyMayCall(key, route));
    expect(admitted("read")).toEqual(["read", "full"]);
    expect(admitted("ingest")).toEqual(["ingest", "full"]);
    expect(admitted("full")).toEqual(["full"]);
    expect(admitted(["ingest", "read"])).toEqual(["ingest", "read", "full"]);
    expect(admitted("person")).toEqual([]);
    expect(admitted("public")).toEqual(["ingest", "read", "full"]);
  });
});

describe("bearer tokens", () => {
  it("reads Bearer <key>, any case, and flags other schemes", () => {
    expect(bearerToken("Bearer ri_abc")).toEqual({ token: "ri_abc", malformed: false });
    expect(bearerToken("bearer   ri_abc  ")).toEqual({ token: "ri_abc", malformed: false });
    expect(bearerToken(null)).toEqual({ token: null, malformed: false });
    expect(bearerToken("")).toEqual({ token: null, malformed: false });
    expect(bearerToken("Basic dXNlcjpwYXNz")).toEqual({ token: null, malformed: true });
    expect(bearerToken("Bearer a b")).toEqual({ token: null, malformed: true });
  });
});

describe("paths", () => {
  it("only health and the sign-in endpoints are public", () => {
    expect(isPublicApiPath("/api/health")).toBe(true);
    expect(isPublicApiPath("/api/auth/signin")).toBe(true);
    expect(isPublicApiPath("/api/auth/session/")).toBe(true);
    expect(isPublicApiPath("/api/keys")).toBe(false);
    expect(isPublicApiPath("/api/recalls")).toBe(false);
    expect(isAssetPath("/_next/static/chunks/x.js")).toBe(true);
    expect(isAssetPath("/icon.svg")).toBe(true);
    expect(isAssetPath("/settings")).toBe(false);
  });

  it("after sign-in, goes back only to a path on this site", () => {
    expect(safeNextPath("/recalls?level=low")).toBe("/recalls?level=low");
    expect(safeNextPath(null)).toBe("/");
    expect(safeNextPath("https://evil.example/")).toBe("/");
    expect(safeNextPath("//evil.example/")).toBe("/");
    expect(safeNextPath("/\\evil.example")).toBe("/");
    expect(safeNextPath("/signin")).toBe("/");
  });
});
