import os from "node:os";
import { allowedHosts, type AllowedHosts } from "../guard";

let cached: { setting: string | undefined; value: AllowedHosts } | null = null;

/**
 * The Host names this server answers for: loopback, this machine's own name and addresses
 * (reaching it directly by them is fine), and ALLOWED_HOSTS (the names a reverse proxy or DNS
 * gives it). Recomputed only when ALLOWED_HOSTS changes.
 */
export function serverAllowedHosts(): AllowedHosts {
  const setting = process.env.ALLOWED_HOSTS;
  if (cached && cached.setting === setting) return cached.value;
  const addresses = Object.values(os.networkInterfaces())
    .flatMap((list) => list ?? [])
    .map((info) => (info.family === "IPv6" ? `[${info.address}]` : info.address));
  const value = allowedHosts(setting, [os.hostname(), ...addresses]);
  cached = { setting, value };
  return value;
}

/**
 * The header values the guard looks at. Without a Host header (HTTP/1.0, or a handler called
 * in-process by a test) the host is the request URL's: a browser always sends Host.
 */
export function guardInputOf(request: Request) {
  const h = request.headers;
  return {
    method: request.method,
    host: h.get("host") ?? new URL(request.url).host,
    origin: h.get("origin"),
    secFetchSite: h.get("sec-fetch-site"),
    contentType: h.get("content-type"),
    contentLength: h.get("content-length"),
    transferEncoding: h.get("transfer-encoding"),
  };
}
