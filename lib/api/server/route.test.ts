import { NextRequest } from "next/server";
import { afterEach, describe, expect, it, vi } from "vitest";
import { apiRoutes, declaredScopeOf, type MethodSpec } from "./route";

/** apiRoutes (docs/ARCHITECTURE.md "Thin handlers"): the methods given run, the others answer 405. */
describe("apiRoutes", () => {
  const routes = apiRoutes({
    GET: { scope: "read", handler: async () => ({ ok: true }) },
    DELETE: { scope: "full", handler: async () => ({ deleted: true }) },
  });

  it("answers every standard method and records each one's scope", () => {
    expect(Object.keys(routes).sort()).toEqual(["DELETE", "GET", "PATCH", "POST", "PUT"]);
    expect(declaredScopeOf(routes.GET)).toBe("read");
    expect(declaredScopeOf(routes.DELETE)).toBe("full");
    expect(declaredScopeOf(routes.POST)).toBe("method_not_allowed");
    expect(declaredScopeOf(async () => new Response())).toBeUndefined();
  });

  it("a method not given answers 405 in the envelope with Allow", async () => {
    const answer = await routes.PUT(new NextRequest("http://localhost/api/thing", { method: "PUT" }));
    expect(answer.status).toBe(405);
    expect(answer.headers.get("allow")).toBe("GET, DELETE, HEAD");
    expect(await answer.json()).toEqual({
      error: "method_not_allowed",
      message: "/api/thing does not take PUT; it takes GET, DELETE.",
      details: { allowed: ["GET", "DELETE"] },
    });
  });

  afterEach(() => vi.unstubAllEnvs());

  it("runs a method given (sign-in off: anyone)", async () => {
    vi.stubEnv("AUTH_PASSWORD", "");
    const answer = await routes.GET(new NextRequest("http://localhost/api/thing", { headers: { host: "localhost" } }));
    expect(answer.status).toBe(200);
    expect(await answer.json()).toEqual({ ok: true });
  });

  it("refuses a method without a scope when the route is defined (for callers outside the types)", () => {
    const unscoped = { handler: async () => null } as unknown as MethodSpec<undefined, undefined, undefined>;
    expect(() => apiRoutes({ POST: unscoped })).toThrow(/must declare its scope/);
  });
});
