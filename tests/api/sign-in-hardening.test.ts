import { sealData } from "iron-session";
import { NextRequest } from "next/server";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { appUnderTest, callRoute } from "../support/app-under-test";

/**
 * Sign-in, sign-out and API keys (the auth and keys routes) through the real route handlers
 * and the request proxy, on a throw-away PGlite database: sign-in resists guessing, sign-out ends
 * the session for good, and every answer of these routes is in the envelope with the headers.
 * AUTH_PASSWORD is read per request, so each test sets it.
 */
const app = appUnderTest("sign-in");
const PASSWORD = "a long enough team password";

const signinRoute = await import("@/app/api/auth/signin/route");
const signoutRoute = await import("@/app/api/auth/signout/route");
const sessionRoute = await import("@/app/api/auth/session/route");
const keysRoute = await import("@/app/api/keys/route");
const keyRoute = await import("@/app/api/keys/[id]/route");
const recallsRoute = await import("@/app/api/recalls/route");
const { proxy } = await import("@/proxy");
const { getDatabase } = await import("@/lib/db/server");
const { authConfig } = await import("@/lib/auth/server/config");
const { SESSION_COOKIE } = await import("@/lib/auth/server/session");

type Handler = (request: NextRequest, context: { params: Promise<Record<string, string | string[]>> }) => Promise<Response>;

/** A raw call, for the status, the headers and the body as text. */
async function send(
  handler: Handler | undefined,
  url: string,
  init: { method?: string; body?: unknown; headers?: Record<string, string> } = {},
) {
  expect(handler, `a handler for ${init.method ?? "GET"} ${url}`).toBeTypeOf("function");
  const body = init.body === undefined ? undefined : JSON.stringify(init.body);
  const response = await handler!(
    new NextRequest(new URL(url, "http://localhost"), {
      method: init.method ?? (body === undefined ? "GET" : "POST"),
      body,
      headers: { ...(body === undefined ? {} : { "content-type": "application/json" }), ...init.headers },
    }),
    { params: Promise.resolve({}) },
  );
  const text = await response.text();
  return { status: response.status, headers: response.headers, text, json: text ? JSON.parse(text) : null };
}

const signIn = (password: string, headers: Record<string, string> = {}) =>
  send(signinRoute.POST, "/api/auth/signin", { body: { password }, headers });

async function signInCookie(): Promise<string> {
  process.env.AUTH_PASSWORD = PASSWORD;
  const response = await signIn(PASSWORD);
  expect(response.status).toBe(200);
  return response.headers.getSetCookie()[0]!.split(";")[0]!;
}

const readRecalls = (cookie: string) => callRoute(recallsRoute.GET, { url: "/api/recalls", headers: { cookie } });

async function openPage(cookie: string, pathname = "/recalls") {
  return proxy(new NextRequest(new URL(pathname, "http://localhost"), { headers: { cookie } }));
}

function expectSecurityHeaders(headers: Headers, what: string) {
  expect(headers.get("content-security-policy"), what).toContain("frame-ancestors 'none'");
  expect(headers.get("x-frame-options"), what).toBe("DENY");
  expect(headers.get("x-content-type-options"), what).toBe("nosniff");
  expect(headers.get("referrer-policy"), what).toBeTruthy();
}

beforeAll(async () => {
  await getDatabase();
});

afterEach(async () => {
  delete process.env.AUTH_PASSWORD;
  delete process.env.TRUSTED_PROXY_HOPS;
  const { prisma } = await getDatabase();
  await prisma.signInFailure.deleteMany({});
});

afterAll(async () => {
  await app.close();
});

describe("sign-in resists guessing (#31.3)", () => {
  it("60 wrong passwords in parallel: at most 10 are tried, the rest are 429 with Retry-After in the envelope", async () => {
    process.env.AUTH_PASSWORD = PASSWORD;
    const answers = await Promise.all(Array.from({ length: 60 }, (_, i) => signIn(`guess number ${i}`)));
    const statuses = answers.map((a) => a.status);
    const tried = statuses.filter((s) => s === 401).length;
    const refused = answers.filter((a) => a.status === 429);
    expect(
      statuses.every((s) => s === 401 || s === 429),
      String(statuses),
    ).toBe(true);
    expect(tried).toBeLessThanOrEqual(10);
    expect(refused.length).toBeGreaterThanOrEqual(50);
    for (const answer of refused) {
      expect(answer.json).toEqual({
        error: "too_many_attempts",
        message: expect.stringMatching(/try again in \d+ s/),
        details: { retry_after_seconds: expect.any(Number), scope: expect.stringMatching(/^(address|overall)$/) },
      });
      const retryAfter = Number(answer.headers.get("retry-after"));
      expect(retryAfter).toBeGreaterThanOrEqual(1);
      expect(retryAfter).toBe(answer.json.details.retry_after_seconds);
      expect(retryAfter).toBeLessThanOrEqual(300);
      expectSecurityHeaders(answer.headers, "429");
    }

    // With a dozen failures just now, the address waits minutes, even with the right password:
    // a refused attempt is never checked.
    const { prisma } = await getDatabase();
    await prisma.signInFailure.createMany({ data: Array.from({ length: 12 - tried }, () => ({ address: "unknown" })) });
    const owner = await signIn(PASSWORD);
    expect(owner.status).toBe(429);
    expect(owner.json.details.retry_after_seconds).toBeGreaterThan(100);

    // Minutes later (the failures 16 minutes old), the owner gets in, and that clears the address.
    await prisma.signInFailure.updateMany({ data: { at: new Date(Date.now() - 16 * 60_000) } });
    expect((await signIn(PASSWORD)).status).toBe(200);
    expect(await prisma.signInFailure.count()).toBe(0);
  });

  it("after 5 failures an address waits, doubling, while another address still may try", async () => {
    process.env.AUTH_PASSWORD = PASSWORD;
    process.env.TRUSTED_PROXY_HOPS = "1";
    const from = (address: string) => ({ "x-forwarded-for": `203.0.113.77, ${address}` });
    for (let i = 0; i < 5; i++) expect((await signIn(`wrong ${i}`, from("198.51.100.1"))).status).toBe(401);
    const sixth = await signIn("wrong 6", from("198.51.100.1"));
    expect(sixth.status).toBe(429);
    expect(sixth.json.details).toEqual({ retry_after_seconds: 1, scope: "address" });
    // The address the client wrote itself (left of the trusted proxy's entry) is not who it is.
    expect((await signIn("wrong", { "x-forwarded-for": "198.51.100.1, 198.51.100.2" })).status).toBe(401);
    const { prisma } = await getDatabase();
    expect(await prisma.signInFailure.groupBy({ by: ["address"], _count: { _all: true }, orderBy: { address: "asc" } })).toEqual([
      { address: "198.51.100.1", _count: { _all: 5 } },
      { address: "198.51.100.2", _count: { _all: 1 } },
    ]);
  });

  it("many addresses together are limited too (50 failures in 5 minutes)", async () => {
    process.env.AUTH_PASSWORD = PASSWORD;
    process.env.TRUSTED_PROXY_HOPS = "1";
    const { prisma } = await getDatabase();
    const now = Date.now();
    await prisma.signInFailure.createMany({
      data: Array.from({ length: 50 }, (_, i) => ({ address: `192.0.2.${i}`, at: new Date(now - 60_000) })),
    });
    const next = await signIn(PASSWORD, { "x-forwarded-for": "198.51.100.9" });
    expect(next.status).toBe(429);
    expect(next.json.details.scope).toBe("overall");
    expect(next.json.details.retry_after_seconds).toBeGreaterThan(200);
    expect(next.json.details.retry_after_seconds).toBeLessThanOrEqual(240);
  });
});

describe("sign-out ends the session (#31.4)", () => {
  it("a cookie replayed after sign-out is refused by the API and the pages", async () => {
    const cookie = await signInCookie();
    expect((await readRecalls(cookie)).status).toBe(200);
    expect((await openPage(cookie)).status).toBe(200);

    const out = await send(signoutRoute.POST, "/api/auth/signout", { method: "POST", headers: { cookie } });
    expect(out.status).toBe(200);
    expect(out.headers.getSetCookie()[0]).toMatch(/Max-Age=0/i);

    // The same cookie, kept by whoever copied it.
    const replayed = await readRecalls(cookie);
    expect(replayed.status).toBe(401);
    expect(replayed.json.error).toBe("unauthorized");
    const page = await openPage(cookie);
    expect(page.status).toBe(303);
    expect(page.headers.get("location")).toBe("http://localhost/signin?next=%2Frecalls");
    expect((await callRoute(sessionRoute.GET, { url: "/api/auth/session", headers: { cookie } })).json).toEqual({
      auth_enabled: true,
      signed_in: false,
    });
  });

  it("sign out everywhere ends every session; a key cannot do it, nor can anyone signed out", async () => {
    const sessionsRoute = await import("@/app/api/auth/sessions/route");
    const first = await signInCookie();
    const second = await signInCookie();
    const live = await callRoute(sessionsRoute.GET, { url: "/api/auth/sessions", headers: { cookie: first } });
    expect(live.status).toBe(200);
    expect(live.json.live).toBeGreaterThanOrEqual(2);

    const created = await callRoute(keysRoute.POST, { body: { name: "full key", scope: "full" }, headers: { cookie: first } });
    const byKey = await callRoute(sessionsRoute.DELETE, {
      method: "DELETE",
      url: "/api/auth/sessions",
      headers: { authorization: `Bearer ${created.json.key}` },
    });
    expect(byKey.status).toBe(403);
    expect((await callRoute(sessionsRoute.DELETE, { method: "DELETE", url: "/api/auth/sessions" })).status).toBe(401);

    const ended = await callRoute(sessionsRoute.DELETE, {
      method: "DELETE",
      url: "/api/auth/sessions",
      headers: { cookie: first },
    });
    expect(ended.status).toBe(200);
    expect(ended.json.ended).toBeGreaterThanOrEqual(2);
    for (const cookie of [first, second]) {
      expect((await readRecalls(cookie)).status).toBe(401);
      expect((await openPage(cookie, "/")).status).toBe(303);
    }
  });

  it("a session unused for a day has ended; a cookie sealed without a recorded session is none", async () => {
    const cookie = await signInCookie();
    const { prisma } = await getDatabase();
    await prisma.authSession.updateMany({ data: { lastSeenAt: new Date(Date.now() - 25 * 3600_000) } });
    expect((await readRecalls(cookie)).status).toBe(401);

    // What the cookie held before sessions were recorded: still validly sealed, but no session.
    process.env.AUTH_PASSWORD = PASSWORD;
    const old = await sealData({ signedIn: true, signedInAt: Date.now() }, { password: authConfig().sessionSecret, ttl: 3600 });
    expect((await readRecalls(`${SESSION_COOKIE}=${old}`)).status).toBe(401);
    expect((await openPage(`${SESSION_COOKIE}=${old}`)).status).toBe(303);
  });
});

describe("the auth and keys routes answer every method in the envelope, with the headers (#31.7)", () => {
  const routes: Array<[string, Record<string, unknown>, string[]]> = [
    ["/api/auth/signin", signinRoute, ["GET", "PUT", "PATCH", "DELETE"]],
    ["/api/auth/signout", signoutRoute, ["GET", "PUT", "PATCH", "DELETE"]],
    ["/api/auth/session", sessionRoute, ["POST", "PUT", "PATCH", "DELETE"]],
    ["/api/keys", keysRoute, ["PUT", "PATCH", "DELETE"]],
    ["/api/keys/0b6c1a7e-0000-4000-8000-000000000000", keyRoute, ["GET", "POST", "PUT", "PATCH"]],
  ];
  it.each(routes)("%s", async (url, route, methods) => {
    for (const method of methods) {
      const answer = await send(route[method] as Handler | undefined, url, { method });
      expect(answer.status, `${method} ${url}`).toBe(405);
      expect(answer.json).toMatchObject({ error: "method_not_allowed", details: { allowed: expect.any(Array) } });
      expect(answer.headers.get("allow")).toBeTruthy();
      expectSecurityHeaders(answer.headers, `${method} ${url}`);
    }
  });
});

describe("an API key's name follows the shared string rule (#31.2)", () => {
  it.each([
    ["NUL", "a\u0000b"],
    ["an unpaired surrogate", "a\ud800b"],
  ])("%s in the name is a 422, not a 500, and nothing is stored", async (_, name) => {
    const cookie = await signInCookie();
    const { prisma } = await getDatabase();
    const before = await prisma.apiKey.count();
    const answer = await send(keysRoute.POST, "/api/keys", { body: { name, scope: "read" }, headers: { cookie } });
    expect(answer.status).toBe(422);
    expect(answer.json).toMatchObject({ error: "validation_failed", details: { issues: [{ path: ["name"] }] } });
    expect(await prisma.apiKey.count()).toBe(before);
  });
});
