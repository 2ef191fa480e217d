import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { appUnderTest, callRoute } from "../support/app-under-test";

/**
 * Sign-in and API keys through the real route handlers and the route wrapper, on a throw-away
 * PGlite database. AUTH_PASSWORD is read per request, so each test sets what it needs.
 */
const app = appUnderTest("auth");
const PASSWORD = "a long enough team password";

const signinRoute = await import("@/app/api/auth/signin/route");
const signoutRoute = await import("@/app/api/auth/signout/route");
const sessionRoute = await import("@/app/api/auth/session/route");
const keysRoute = await import("@/app/api/keys/route");
const keyRoute = await import("@/app/api/keys/[id]/route");
const recallsRoute = await import("@/app/api/recalls/route");
const retentionRoute = await import("@/app/api/recalls/retention/route");
const { getDatabase } = await import("@/lib/db/server");
const { hashKey } = await import("@/lib/auth/server/keys");

const INGEST = {
  recalls: [
    {
      external_id: "auth-test-1",
      store: "agent",
      request: { query: "who is on call", k: 3 },
      response: { results: [], confidence: { level: "none", result_count: 0 } },
    },
  ],
};

const bearer = (key: string) => ({ authorization: `Bearer ${key}` });

async function signInCookie(): Promise<string> {
  process.env.AUTH_PASSWORD = PASSWORD;
  const request = new Request("http://localhost/api/auth/signin", {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ password: PASSWORD }),
  });
  const { NextRequest } = await import("next/server");
  const response = await signinRoute.POST(new NextRequest(request), { params: Promise.resolve({}) });
  expect(response.status).toBe(200);
  const cookie = response.headers.getSetCookie()[0]!;
  expect(cookie).toMatch(/^recall_inspector_session=/);
  expect(cookie).toMatch(/HttpOnly/i);
  expect(cookie).toMatch(/SameSite=Lax/i);
  return cookie.split(";")[0]!;
}

async function createKey(scope: string, cookie: string): Promise<{ key: string; id: string }> {
  const created = await callRoute(keysRoute.POST, { body: { name: `${scope} key`, scope }, headers: { cookie } });
  expect(created.status).toBe(201);
  return { key: created.json.key, id: created.json.item.id };
}

beforeAll(async () => {
  await getDatabase();
});

afterEach(() => {
  delete process.env.AUTH_PASSWORD;
});

afterAll(async () => {
  await app.close();
});

describe("the route wrapper's guard (the proxy does not see the API)", () => {
  it("refuses cross-site writes, non-JSON bodies and unknown hosts in the envelope, with the security headers", async () => {
    const { NextRequest } = await import("next/server");
    const call = async (headers: Record<string, string>, body = JSON.stringify({ keep_days: 1 })) => {
      const response = await retentionRoute.POST(
        new NextRequest("http://127.0.0.1:3000/api/recalls/retention", {
          method: "POST",
          headers: { host: "127.0.0.1:3000", ...headers },
          body,
        }),
        { params: Promise.resolve({}) },
      );
      return { status: response.status, json: await response.json(), headers: response.headers };
    };
    const crossSite = await call({
      "content-type": "text/plain",
      origin: "http://127.0.0.1:3305",
      "sec-fetch-site": "same-site",
    });
    expect(crossSite.status).toBe(403);
    expect(crossSite.json.error).toBe("cross_site_request");
    expect(crossSite.headers.get("x-frame-options")).toBe("DENY");
    const plain = await call({ "content-type": "text/plain" });
    expect(plain.status).toBe(415);
    expect(plain.json.error).toBe("unsupported_media_type");
    const rebound = await call({ "content-type": "application/json", host: "rebind.attacker.example:3000" });
    expect(rebound.status).toBe(403);
    expect(rebound.json.error).toBe("host_not_allowed");
    const ok = await call(
      { "content-type": "application/json", origin: "http://127.0.0.1:3000", "sec-fetch-site": "same-origin" },
      JSON.stringify({ keep_days: 1, dry_run: true }),
    );
    expect(ok.status).toBe(200);
    expect(ok.headers.get("content-security-policy")).toContain("frame-ancestors 'none'");
    expect(ok.headers.get("x-content-type-options")).toBe("nosniff");
  });
});

describe("with sign-in off (no AUTH_PASSWORD)", () => {
  it("the API is open, as on loopback before", async () => {
    expect((await callRoute(recallsRoute.GET, { url: "/api/recalls" })).status).toBe(200);
    expect((await callRoute(sessionRoute.GET, { url: "/api/auth/session" })).json).toEqual({
      auth_enabled: false,
      signed_in: false,
    });
    const signin = await callRoute(signinRoute.POST, { url: "/api/auth/signin", body: { password: "x" } });
    expect(signin.status).toBe(409);
    expect(signin.json.error).toBe("sign_in_off");
  });
});

describe("with AUTH_PASSWORD", () => {
  it("refuses anonymous calls with 401 in the envelope, but answers health-style public routes", async () => {
    process.env.AUTH_PASSWORD = PASSWORD;
    const anonymous = await callRoute(recallsRoute.GET, { url: "/api/recalls" });
    expect(anonymous.status).toBe(401);
    expect(anonymous.json).toEqual({
      error: "unauthorized",
      message: expect.stringContaining("Authorization: Bearer"),
      details: {},
    });
    expect((await callRoute(sessionRoute.GET, { url: "/api/auth/session" })).json).toEqual({
      auth_enabled: true,
      signed_in: false,
    });
  });

  it("a wrong password is refused; the right one gets a session that the API accepts", async () => {
    process.env.AUTH_PASSWORD = PASSWORD;
    const wrong = await callRoute(signinRoute.POST, { url: "/api/auth/signin", body: { password: "not it" } });
    expect(wrong.status).toBe(401);
    expect(wrong.json.error).toBe("wrong_password");
    const cookie = await signInCookie();
    expect((await callRoute(sessionRoute.GET, { url: "/api/auth/session", headers: { cookie } })).json).toEqual({
      auth_enabled: true,
      signed_in: true,
    });
    expect((await callRoute(recallsRoute.GET, { url: "/api/recalls", headers: { cookie } })).status).toBe(200);
    // A tampered cookie is no session.
    const tampered = cookie.slice(0, -4) + "AAAA";
    expect((await callRoute(recallsRoute.GET, { url: "/api/recalls", headers: { cookie: tampered } })).status).toBe(401);
    // Changing the password ends every session sealed with the old one.
    process.env.AUTH_PASSWORD = "a different long password";
    expect((await callRoute(recallsRoute.GET, { url: "/api/recalls", headers: { cookie } })).status).toBe(401);
  });

  it("sign-out clears the cookie", async () => {
    const cookie = await signInCookie();
    const { NextRequest } = await import("next/server");
    const response = await signoutRoute.POST(
      new NextRequest("http://localhost/api/auth/signout", { method: "POST", headers: { cookie } }),
      {
        params: Promise.resolve({}),
      },
    );
    expect(response.status).toBe(200);
    expect(response.headers.getSetCookie()[0]).toMatch(/^recall_inspector_session=;.*Max-Age=0/i);
  });

  it("an ingest key may ingest but not read, delete or run retention; a read key only reads", async () => {
    const cookie = await signInCookie();
    const ingest = await createKey("ingest", cookie);
    const read = await createKey("read", cookie);
    expect(ingest.key).toMatch(/^ri_[A-Za-z0-9_-]{43}$/);

    const posted = await callRoute(recallsRoute.POST, { url: "/api/recalls", body: INGEST, headers: bearer(ingest.key) });
    expect(posted.status).toBe(201);
    expect(posted.json.accepted).toBe(1);

    const readWithIngest = await callRoute(recallsRoute.GET, { url: "/api/recalls", headers: bearer(ingest.key) });
    expect(readWithIngest.status).toBe(403);
    expect(readWithIngest.json.error).toBe("forbidden_scope");
    const retention = await callRoute(retentionRoute.POST, {
      url: "/api/recalls/retention",
      body: { keep_days: 1 },
      headers: bearer(ingest.key),
    });
    expect(retention.status).toBe(403);

    expect((await callRoute(recallsRoute.GET, { url: "/api/recalls", headers: bearer(read.key) })).status).toBe(200);
    expect((await callRoute(recallsRoute.POST, { url: "/api/recalls", body: INGEST, headers: bearer(read.key) })).status).toBe(
      403,
    );
    // A presented key is checked even beside a valid cookie: the cookie does not widen its scope.
    expect((await callRoute(recallsRoute.GET, { url: "/api/recalls", headers: { ...bearer(ingest.key), cookie } })).status).toBe(
      403,
    );
  });

  it("keys cannot manage keys; unknown, malformed and revoked keys get 401", async () => {
    const cookie = await signInCookie();
    const full = await createKey("full", cookie);
    expect((await callRoute(recallsRoute.GET, { url: "/api/recalls", headers: bearer(full.key) })).status).toBe(200);
    const list = await callRoute(keysRoute.GET, { url: "/api/keys", headers: bearer(full.key) });
    expect(list.status).toBe(403);
    expect(
      (await callRoute(keysRoute.POST, { url: "/api/keys", body: { name: "sneaky", scope: "full" }, headers: bearer(full.key) }))
        .status,
    ).toBe(403);

    expect((await callRoute(recallsRoute.GET, { url: "/api/recalls", headers: bearer("ri_unknown") })).json.error).toBe(
      "invalid_api_key",
    );
    expect((await callRoute(recallsRoute.GET, { url: "/api/recalls", headers: { authorization: "Basic abc" } })).status).toBe(
      401,
    );

    const revoked = await callRoute(keyRoute.DELETE, {
      method: "DELETE",
      url: `/api/keys/${full.id}`,
      params: { id: full.id },
      headers: { cookie },
    });
    expect(revoked.status).toBe(200);
    expect(revoked.json.revoked.revoked_at).toEqual(expect.any(String));
    expect((await callRoute(recallsRoute.GET, { url: "/api/recalls", headers: bearer(full.key) })).status).toBe(401);
  });

  it("stores only the hash: the key is in no column, in no list and in no logged recall", async () => {
    const cookie = await signInCookie();
    const { key } = await createKey("ingest", cookie);
    await callRoute(recallsRoute.POST, {
      url: "/api/recalls",
      body: { recalls: [{ ...INGEST.recalls[0], external_id: "auth-test-2" }] },
      headers: bearer(key),
    });
    const db = await getDatabase();
    const rows = await db.prisma.apiKey.findMany();
    expect(JSON.stringify(rows)).not.toContain(key);
    expect(rows.some((row) => row.keyHash === hashKey(key))).toBe(true);
    const listed = await callRoute(keysRoute.GET, { url: "/api/keys", headers: { cookie } });
    expect(JSON.stringify(listed.json)).not.toContain(key);
    const recalls = await db.prisma.recall.findMany();
    expect(JSON.stringify(recalls)).not.toContain(key);
  });
});
