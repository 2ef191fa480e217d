import { readdirSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { declaredScopeOf, ROUTE_METHODS } from "@/lib/api/server/route";
import { API_KEY_SCOPES, isPublicApiPath, keyMayCall, scopeAllows, scopeLabel } from "@/lib/auth/scopes";

/**
 * Every route says who may call it (lib/auth/README.md "Security"): this walks app/, imports
 * each route.ts and lists each exported method with its declared scope. A method without one
 * fails here, and so does a change of who may call what: the table below is the expected answer,
 * so a changed scope shows in review. The scopes were checked against the path rules that decided
 * before routes declared them (lib/auth/scopes.ts legacyRouteScope), for every key scope.
 */

const HTTP_METHODS = [...ROUTE_METHODS, "HEAD", "OPTIONS"] as const;

/** Each route's declared methods and scopes; every other method of GET…DELETE answers 405. */
const EXPECTED: Record<string, Record<string, string>> = {
  "/api/[...path]": { GET: "read", POST: "full", PUT: "full", PATCH: "full", DELETE: "full" },
  "/api/auth/session": { GET: "public" },
  "/api/auth/sessions": { GET: "person", DELETE: "person" },
  "/api/auth/signin": { POST: "public" },
  "/api/auth/signout": { POST: "public" },
  "/api/capture/status": { GET: "read" },
  "/api/confidence": { POST: "full" },
  "/api/datasets": { GET: "read", POST: "full" },
  "/api/datasets/[id]": { GET: "read" },
  "/api/eval-runs": { GET: "read", POST: "full" },
  "/api/eval-runs/[id]": { GET: "read" },
  "/api/eval-runs/[id]/cancel": { POST: "full" },
  "/api/eval-runs/[id]/export": { GET: "read" },
  "/api/health": { GET: "public" },
  "/api/insights": { GET: "read" },
  "/api/insights/distributions": { GET: "read" },
  "/api/insights/extent": { GET: "read" },
  "/api/keys": { GET: "person", POST: "person" },
  "/api/keys/[id]": { DELETE: "person" },
  "/api/memories": { GET: "read", POST: "full" },
  "/api/memories/[id]": { GET: "read", DELETE: "full" },
  "/api/memories/[id]/neighbours": { GET: "read" },
  "/api/memories/[id]/recalls": { GET: "read" },
  "/api/memories/lookup": { GET: "read", POST: "full" },
  "/api/memories/reembed": { POST: "full" },
  "/api/memories/stats": { GET: "read" },
  "/api/profiles": { GET: "read", POST: "full" },
  "/api/profiles/[name]": { GET: "read" },
  "/api/profiles/calibrations": { GET: "read", POST: "full" },
  "/api/profiles/fit": { POST: "full" },
  "/api/recall": { POST: "full" },
  "/api/recalls": { GET: "read", POST: "ingest" },
  "/api/recalls/[id]": { GET: "read" },
  "/api/recalls/[id]/labels": { PUT: "full" },
  "/api/recalls/[id]/why": { GET: "read" },
  "/api/recalls/count": { GET: "read" },
  "/api/recalls/export": { GET: "read" },
  "/api/recalls/facets": { GET: "read" },
  "/api/recalls/retention": { POST: "full" },
  "/api/selectors": { GET: "read" },
  "/api/stores": { GET: "read", POST: "full" },
  "/api/stores/[name]": { DELETE: "full" },
  "/api/stores/[name]/audit": { GET: "read", POST: "full", DELETE: "full" },
  "/api/stores/[name]/profile": { PUT: "full" },
  "/api/views": { GET: "read", POST: "full" },
  "/api/views/[id]": { GET: "read", DELETE: "full" },
  "/api/what-if": { POST: "full" },
  "/proxy/[store]/[[...path]]": {
    GET: "ingest+read",
    POST: "ingest",
    PUT: "ingest",
    PATCH: "ingest",
    DELETE: "ingest",
    HEAD: "ingest+read",
    OPTIONS: "ingest",
  },
  "/v1/traces": { POST: "ingest" },
};

function routeFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) return routeFiles(full);
    return entry.name === "route.ts" ? [full] : [];
  });
}

const APP = import.meta.dirname;
const routes = await Promise.all(
  routeFiles(APP)
    .sort()
    .map(async (file) => {
      const route = "/" + path.relative(APP, path.dirname(file)).split(path.sep).join("/");
      const exported = (await import(file)) as Record<string, unknown>;
      const methods = HTTP_METHODS.filter((method) => exported[method] !== undefined);
      return { route, methods: Object.fromEntries(methods.map((method) => [method, declaredScopeOf(exported[method])])) };
    }),
);

/** A path the route answers, for the old path rules. */
function samplePath(route: string): string {
  return route
    .replace("[[...path]]", "api/v1/memory/recall")
    .replace("[...path]", "nope")
    .replace("[id]", "0b6c1a7e-0000-4000-8000-000000000000")
    .replace("[name]", "demo")
    .replace("[store]", "prod");
}

describe("every route declares who may call it", () => {
  it("finds the route files", () => {
    expect(routes.length).toBeGreaterThan(40);
  });

  it("every exported method of a route has a declared scope or is an automatic 405", () => {
    const undeclared = routes.flatMap(({ route, methods }) =>
      Object.entries(methods)
        .filter(([, scope]) => scope === undefined)
        .map(([method]) => `${method} ${route}`),
    );
    expect(undeclared).toEqual([]);
  });

  it("every route answers each of GET, POST, PUT, PATCH and DELETE (405 when it does not take it)", () => {
    const missing = routes.flatMap(({ route, methods }) =>
      ROUTE_METHODS.filter((method) => !(method in methods)).map((m) => `${m} ${route}`),
    );
    expect(missing).toEqual([]);
  });

  it("declares the scopes of the table", () => {
    const declared = Object.fromEntries(
      routes.map(({ route, methods }) => [
        route,
        Object.fromEntries(
          Object.entries(methods)
            .filter(([, scope]) => scope !== undefined && scope !== "method_not_allowed")
            .map(([method, scope]) => [method, scopeLabel(scope as Exclude<typeof scope, undefined | "method_not_allowed">)]),
        ),
      ]),
    );
    expect(declared).toEqual(EXPECTED);
  });

  it("admits the same callers as the path rules did, for every key scope", () => {
    const differences: string[] = [];
    for (const { route, methods } of routes) {
      const pathname = samplePath(route);
      for (const [method, scope] of Object.entries(methods)) {
        if (scope === undefined || scope === "method_not_allowed") continue;
        // Old: a public path was open to anyone before any key was looked at.
        if ((scope === "public") !== isPublicApiPath(pathname)) differences.push(`${method} ${route}: public`);
        if (scope === "public") continue;
        for (const key of API_KEY_SCOPES) {
          if (keyMayCall(key, scope) !== scopeAllows(key, method, pathname)) differences.push(`${method} ${route}: ${key} key`);
        }
      }
    }
    expect(differences).toEqual([]);
  });
});
