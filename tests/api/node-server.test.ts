import http from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { hookHttpServers } from "@/lib/api/server/node-server";
import { PEER_HEADER, peerStamp } from "@/lib/auth/server/client-address";

/**
 * The hook on the Node HTTP server (lib/api/server/node-server.ts), on a real
 * node:http server whose listener does what Next's does first: build a fetch Request from the
 * Node request (Next answers a plain-text 500 when that throws, as it does for TRACE), then
 * answer. e2e/security.spec.ts checks the same on `next start`.
 */
let server: http.Server;
let base: { host: string; port: number };
const seen: Array<{ method: string; peer: string | undefined }> = [];

function nextLike(req: http.IncomingMessage, res: http.ServerResponse) {
  try {
    new Request(`http://localhost${req.url}`, { method: req.method });
  } catch (error) {
    res.statusCode = 500;
    res.end("Internal Server Error");
    void error;
    return;
  }
  seen.push({ method: req.method ?? "", peer: req.headers[PEER_HEADER] as string | undefined });
  // Like Next's automatic OPTIONS answer: no headers of ours.
  res.writeHead(req.method === "OPTIONS" ? 204 : 200, { allow: "GET" });
  res.end();
}

function call(method: string, headers: Record<string, string> = {}) {
  return new Promise<{ status: number; headers: http.IncomingHttpHeaders; body: string }>((resolve, reject) => {
    const req = http.request({ ...base, method, path: "/api/anything?x=1", headers }, (res) => {
      let body = "";
      res.setEncoding("utf8");
      res.on("data", (chunk) => (body += chunk));
      res.on("end", () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body }));
    });
    req.on("error", reject);
    req.end();
  });
}

function expectSecurityHeaders(headers: http.IncomingHttpHeaders) {
  expect(headers["content-security-policy"]).toContain("frame-ancestors 'none'");
  expect(headers["x-frame-options"]).toBe("DENY");
  expect(headers["x-content-type-options"]).toBe("nosniff");
  expect(headers["referrer-policy"]).toBeTruthy();
}

beforeAll(async () => {
  server = http.createServer(nextLike);
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  base = { host: "127.0.0.1", port: (server.address() as AddressInfo).port };
  expect(hookHttpServers([server])).toBe(1);
  // Once only: a second start (Next's dev server reloads) does not wrap the listener again.
  expect(hookHttpServers([server])).toBe(0);
});

afterAll(async () => {
  await new Promise((resolve) => server.close(resolve));
});

describe("the server hook", () => {
  it("answers TRACE with a 405 in the envelope instead of the 500 Next makes of it", async () => {
    const answer = await call("TRACE");
    expect(answer.status).toBe(405);
    expect(answer.headers["content-type"]).toBe("application/json");
    expect(answer.headers.allow).toContain("GET");
    expect(JSON.parse(answer.body)).toEqual({
      error: "method_not_allowed",
      message: "/api/anything does not take TRACE; no path here does.",
      details: { method: "TRACE", allowed: expect.arrayContaining(["GET", "POST"]) },
    });
    expectSecurityHeaders(answer.headers);
    expect(seen.some((s) => s.method === "TRACE")).toBe(false);
  });

  it("answers a method no route takes with a 405 in the envelope, not Next's empty 400; one Node cannot parse, a 400 in it", async () => {
    for (const method of ["PROPFIND", "MKCOL"]) {
      const answer = await call(method);
      expect(answer.status).toBe(405);
      expect(JSON.parse(answer.body)).toMatchObject({ error: "method_not_allowed", details: { method } });
      expectSecurityHeaders(answer.headers);
      expect(seen.some((s) => s.method === method)).toBe(false);
    }
    // Node's parser knows no BREW: refused before a request exists, still in the envelope.
    const brew = await call("BREW");
    expect(brew.status).toBe(400);
    expect(JSON.parse(brew.body)).toMatchObject({ error: "bad_request" });
    expectSecurityHeaders(brew.headers);
  });

  it("answers headers past Node's 16 KB cap with a 431 in the envelope, with the headers", async () => {
    const answer = await call("GET", { "x-long": "a".repeat(20_000) });
    expect(answer.status).toBe(431);
    expect(JSON.parse(answer.body)).toMatchObject({ error: "headers_too_large", details: {} });
    expectSecurityHeaders(answer.headers);
  });

  it("puts the security headers on answers the framework makes itself (the 204 of OPTIONS)", async () => {
    const answer = await call("OPTIONS");
    expect(answer.status).toBe(204);
    expectSecurityHeaders(answer.headers);
  });

  it("stamps the peer's address over any the client sent, and says so", async () => {
    seen.length = 0;
    const answer = await call("GET", { [PEER_HEADER]: "203.0.113.9", "x-forwarded-for": "203.0.113.9" });
    expect(answer.status).toBe(200);
    expectSecurityHeaders(answer.headers);
    expect(seen).toEqual([{ method: "GET", peer: "127.0.0.1" }]);
    expect(peerStamp.installed).toBe(true);
  });
});
