import net from "node:net";
import { processSingleton } from "@/lib/server/process-singleton";

/**
 * Who is calling, as an address, for the sign-in limiter (lib/auth/README.md "Security").
 *
 * Next gives route handlers no socket address. It copies one into `X-Forwarded-For` only when the
 * request has none (`??=`), so that header is whatever the client chose to send and is never
 * trusted by default. Instead the server hook (lib/api/node-server.ts, installed at start) writes
 * the TCP peer's address into a header of our own on every request, over any copy the client
 * sent. Behind reverse proxies, TRUSTED_PROXY_HOPS=N says N proxies each append the address they
 * saw to X-Forwarded-For: the client is then the Nth entry from the right (the one the outermost
 * proxy saw); entries further left were written by the client and are ignored.
 */
export const PEER_HEADER = "x-recall-inspector-peer";

/** Whether the server hook stamps PEER_HEADER in this process (so the header can be believed). */
export const peerStamp = processSingleton("peerStamp", () => ({ installed: false }));

/** An IP address as text, compared and stored one way; anything else is null. */
export function normalizeAddress(raw: string | null | undefined): string | null {
  if (!raw) return null;
  let a = raw.trim().toLowerCase();
  if (a.startsWith("[") && a.includes("]")) a = a.slice(1, a.indexOf("]"));
  else if (/^\d+\.\d+\.\d+\.\d+:\d+$/.test(a)) a = a.slice(0, a.indexOf(":"));
  if (a.startsWith("::ffff:") && net.isIPv4(a.slice(7))) a = a.slice(7);
  return net.isIP(a) ? a : null;
}

export function clientAddress(headers: Headers, options: { trustedHops: number; stamped: boolean }): string {
  if (options.trustedHops > 0) {
    const entries = (headers.get("x-forwarded-for") ?? "")
      .split(",")
      .map((entry) => entry.trim())
      .filter(Boolean);
    // Fewer entries than proxies: the request did not come through them all; the peer says more.
    if (entries.length >= options.trustedHops) {
      return normalizeAddress(entries[entries.length - options.trustedHops]) ?? "unknown";
    }
  }
  if (options.stamped) return normalizeAddress(headers.get(PEER_HEADER)) ?? "unknown";
  return "unknown";
}

/** TRUSTED_PROXY_HOPS: a whole number 0–10 (checked at start by lib/env.ts); 0 when unset. */
export function trustedProxyHops(env: Record<string, string | undefined> = process.env): number {
  const value = Number((env.TRUSTED_PROXY_HOPS ?? "").trim() || "0");
  return Number.isInteger(value) && value >= 0 && value <= 10 ? value : 0;
}

/** The calling client's address for this request. */
export function requestClientAddress(request: Request): string {
  return clientAddress(request.headers, { trustedHops: trustedProxyHops(), stamped: peerStamp.installed });
}
