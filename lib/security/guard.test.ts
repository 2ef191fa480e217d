import { describe, expect, it } from "vitest";
import {
  allowedHosts,
  checkContentType,
  checkCrossSite,
  checkHost,
  guardRequest,
  hostName,
  isJsonMediaType,
  sameOrigin,
  SECURITY_HEADERS,
  type GuardInput,
} from "./guard";

const base: GuardInput = {
  method: "POST",
  host: "127.0.0.1:3000",
  origin: null,
  secFetchSite: null,
  contentType: "application/json",
  contentLength: "2",
  transferEncoding: null,
};

describe("allowed hosts", () => {
  const loopbackOnly = allowedHosts(undefined);

  it("serves loopback names and addresses with any port", () => {
    for (const host of ["localhost:3000", "127.0.0.1:3000", "127.0.0.1", "[::1]:3000", "LOCALHOST", "app.localhost:3000"]) {
      expect(checkHost(host, loopbackOnly), host).toBeNull();
    }
  });

  it("refuses any other name: a rebinding domain, a missing Host, a lookalike", () => {
    for (const host of ["attacker.example:3000", "localhost.attacker.example", "127.0.0.1.nip.io", "", null]) {
      const refusal = checkHost(host, loopbackOnly);
      expect(refusal?.status, String(host)).toBe(403);
      expect(refusal?.code).toBe("host_not_allowed");
    }
  });

  it("adds ALLOWED_HOSTS entries, the machine's names, and .suffix wildcards", () => {
    const allowed = allowedHosts(" Recall.Example.com , .corp.example ", ["buildbox", "10.0.0.5"]);
    expect(checkHost("recall.example.com", allowed)).toBeNull();
    expect(checkHost("recall.example.com:443", allowed)).toBeNull();
    expect(checkHost("a.corp.example", allowed)).toBeNull();
    expect(checkHost("corp.example", allowed)).toBeNull();
    expect(checkHost("buildbox:3000", allowed)).toBeNull();
    expect(checkHost("10.0.0.5:3000", allowed)).toBeNull();
    expect(checkHost("evilcorp.example", allowed)?.status).toBe(403);
    expect(checkHost("other.example.com", allowed)?.status).toBe(403);
  });

  it("ALLOWED_HOSTS=* turns the check off", () => {
    expect(checkHost("anything.example", allowedHosts("*"))).toBeNull();
    expect(checkHost(null, allowedHosts("*"))).toBeNull();
  });

  it("hostName strips the port but keeps IPv6 addresses whole", () => {
    expect(hostName("Example.com:3000")).toBe("example.com");
    expect(hostName("[::1]:3000")).toBe("[::1]");
    expect(hostName("::1")).toBe("::1");
    expect(hostName("10.1.2.3")).toBe("10.1.2.3");
  });
});

describe("cross-site writes", () => {
  it("lets reads through whatever their origin", () => {
    expect(checkCrossSite({ ...base, method: "GET", secFetchSite: "cross-site", origin: "https://evil.example" })).toBeNull();
    expect(checkCrossSite({ ...base, method: "HEAD", secFetchSite: "cross-site" })).toBeNull();
    expect(checkCrossSite({ ...base, method: "OPTIONS", origin: "https://evil.example" })).toBeNull();
  });

  it("refuses cross-site and same-site (another port) writes by Sec-Fetch-Site", () => {
    for (const method of ["POST", "PUT", "PATCH", "DELETE"]) {
      for (const site of ["cross-site", "same-site"]) {
        const refusal = checkCrossSite({ ...base, method, secFetchSite: site });
        expect(refusal?.status, `${method} ${site}`).toBe(403);
        expect(refusal?.code).toBe("cross_site_request");
      }
    }
  });

  it("refuses a foreign, a null or a malformed Origin even without Sec-Fetch-Site", () => {
    for (const origin of ["http://127.0.0.1:3305", "https://evil.example", "null", "file://", "not a url"]) {
      expect(checkCrossSite({ ...base, origin })?.status, origin).toBe(403);
    }
  });

  it("accepts the dashboard's own origin and requests with neither header (scripts, curl)", () => {
    expect(checkCrossSite({ ...base, origin: "http://127.0.0.1:3000", secFetchSite: "same-origin" })).toBeNull();
    expect(checkCrossSite({ ...base, secFetchSite: "none" })).toBeNull();
    expect(checkCrossSite(base)).toBeNull();
  });

  it("treats default ports and case as the same origin, other schemes' defaults not", () => {
    expect(sameOrigin("https://recall.example.com", "recall.example.com")).toBe(true);
    expect(sameOrigin("https://recall.example.com", "Recall.Example.com:443")).toBe(true);
    expect(sameOrigin("http://recall.example.com", "recall.example.com:80")).toBe(true);
    expect(sameOrigin("http://recall.example.com", "recall.example.com:443")).toBe(false);
    expect(sameOrigin("http://[::1]:3000", "[::1]:3000")).toBe(true);
    expect(sameOrigin("http://127.0.0.1:3000", "127.0.0.1:3001")).toBe(false);
    expect(sameOrigin("http://127.0.0.1:3000", null)).toBe(false);
  });
});

describe("body types", () => {
  it("accepts JSON and JSON Lines types with parameters", () => {
    for (const type of [
      "application/json",
      "application/json; charset=utf-8",
      "APPLICATION/JSON",
      "application/x-ndjson",
      "application/jsonl",
      "application/merge-patch+json",
    ]) {
      expect(isJsonMediaType(type), type).toBe(true);
      expect(checkContentType({ ...base, contentType: type }), type).toBeNull();
    }
  });

  it("refuses every type an HTML form can send, and others, with 415", () => {
    for (const type of [
      "text/plain",
      "text/plain;charset=UTF-8",
      "application/x-www-form-urlencoded",
      "multipart/form-data; boundary=x",
      "application/octet-stream",
      "text/json",
    ]) {
      const refusal = checkContentType({ ...base, contentType: type });
      expect(refusal?.status, type).toBe(415);
      expect(refusal?.code).toBe("unsupported_media_type");
      expect(refusal?.details).toEqual({ content_type: type });
    }
  });

  it("a body without a type is refused; no body needs no type", () => {
    expect(checkContentType({ ...base, contentType: null, contentLength: "12" })?.status).toBe(415);
    expect(checkContentType({ ...base, contentType: null, contentLength: null, transferEncoding: "chunked" })?.status).toBe(415);
    expect(checkContentType({ ...base, contentType: null, contentLength: "0" })).toBeNull();
    expect(checkContentType({ ...base, method: "DELETE", contentType: null, contentLength: null })).toBeNull();
  });

  it("reads are not checked", () => {
    expect(checkContentType({ ...base, method: "GET", contentType: "text/plain" })).toBeNull();
  });
});

describe("guardRequest", () => {
  const allowed = allowedHosts(undefined);
  it("checks the host first, then the origin, then the body type", () => {
    expect(
      guardRequest({ ...base, host: "evil.example", origin: "https://evil.example", contentType: "text/plain" }, allowed)?.code,
    ).toBe("host_not_allowed");
    expect(guardRequest({ ...base, secFetchSite: "cross-site", contentType: "text/plain" }, allowed)?.code).toBe(
      "cross_site_request",
    );
    expect(guardRequest({ ...base, contentType: "text/plain" }, allowed)?.code).toBe("unsupported_media_type");
    expect(guardRequest(base, allowed)).toBeNull();
  });

  it("the classic attacks: a text/plain form post and a no-cors fetch from another port", () => {
    const form = { ...base, origin: "http://127.0.0.1:3305", secFetchSite: "same-site", contentType: "text/plain" };
    expect(guardRequest(form, allowed)?.status).toBe(403);
    const noCors = {
      ...base,
      origin: "http://evil.example",
      secFetchSite: "cross-site",
      contentType: "text/plain;charset=UTF-8",
    };
    expect(guardRequest(noCors, allowed)?.status).toBe(403);
  });
});

it("security headers forbid framing and sniffing", () => {
  expect(SECURITY_HEADERS["Content-Security-Policy"]).toContain("frame-ancestors 'none'");
  expect(SECURITY_HEADERS["X-Frame-Options"]).toBe("DENY");
  expect(SECURITY_HEADERS["X-Content-Type-Options"]).toBe("nosniff");
  expect(SECURITY_HEADERS["Referrer-Policy"]).toBeTruthy();
});
