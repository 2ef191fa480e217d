import { describe, expect, it } from "vitest";
import { clientAddress, normalizeAddress, PEER_HEADER, trustedProxyHops } from "./client-address";

const headers = (values: Record<string, string>) => new Headers(values);

describe("the client address", () => {
  it("is the peer the server hook stamped, never a header the client wrote, unless proxies are trusted", () => {
    const h = headers({ [PEER_HEADER]: "::ffff:10.0.0.5", "x-forwarded-for": "1.2.3.4" });
    expect(clientAddress(h, { trustedHops: 0, stamped: true })).toBe("10.0.0.5");
    // Without the hook, the stamp could have been written by the client: one shared bucket.
    expect(clientAddress(h, { trustedHops: 0, stamped: false })).toBe("unknown");
  });

  it("behind N trusted proxies, the Nth X-Forwarded-For entry from the right", () => {
    const h = headers({ [PEER_HEADER]: "127.0.0.1", "x-forwarded-for": "6.6.6.6, 203.0.113.7, 10.0.0.2" });
    expect(clientAddress(h, { trustedHops: 1, stamped: true })).toBe("10.0.0.2");
    expect(clientAddress(h, { trustedHops: 2, stamped: true })).toBe("203.0.113.7");
    // Fewer entries than proxies: not through them all, so the peer.
    expect(clientAddress(h, { trustedHops: 4, stamped: true })).toBe("127.0.0.1");
    expect(clientAddress(headers({ "x-forwarded-for": "not an address" }), { trustedHops: 1, stamped: false })).toBe("unknown");
  });

  it("normalizes the forms an address comes in, and refuses anything else", () => {
    expect(normalizeAddress("[2001:DB8::1]:443")).toBe("2001:db8::1");
    expect(normalizeAddress("192.0.2.1:8080")).toBe("192.0.2.1");
    expect(normalizeAddress("::ffff:192.0.2.1")).toBe("192.0.2.1");
    for (const bad of ["", "a\u0000b", "example.com", "1.2.3.4.5", null]) expect(normalizeAddress(bad)).toBeNull();
  });

  it("TRUSTED_PROXY_HOPS is 0 unless a whole number 0–10", () => {
    expect(trustedProxyHops({})).toBe(0);
    expect(trustedProxyHops({ TRUSTED_PROXY_HOPS: "2" })).toBe(2);
    expect(trustedProxyHops({ TRUSTED_PROXY_HOPS: "x" })).toBe(0);
  });
});
