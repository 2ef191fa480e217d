/**
 * Pure decisions of the request guard (proxy.ts runs them on every request, lib/security/README.md
 * "The request guard"): which Host names are served, which state-changing requests are refused as
 * cross-site, which bodies are refused by type, and the headers every answer carries. Nothing
 * here reads the environment or the network, so each rule is unit-tested on plain values.
 */

/** A refusal, answered in the error envelope by the proxy. */
export interface Refusal {
  status: number;
  code: string;
  message: string;
  details: Record<string, unknown>;
}

/** The request facts the guard looks at (header values as sent, null when absent). */
export interface GuardInput {
  method: string;
  host: string | null;
  origin: string | null;
  secFetchSite: string | null;
  contentType: string | null;
  contentLength: string | null;
  transferEncoding: string | null;
}

/**
 * Host names served whatever ALLOWED_HOSTS says: loopback, by name and address. Requests can
 * only carry another name after DNS points it at this machine, which is exactly DNS rebinding.
 */
const LOOPBACK_HOSTS = ["localhost", "127.0.0.1", "::1", "[::1]"];

export interface AllowedHosts {
  /** Exact host names (lowercase, no port) and suffixes written as ".example.com". */
  names: string[];
  /** ALLOWED_HOSTS=* : the operator checks Host elsewhere (a reverse proxy). */
  any: boolean;
}

/** ALLOWED_HOSTS ("a.example.com, .corp.example") plus the machine's own names and addresses. */
export function allowedHosts(setting: string | undefined, machineNames: string[] = []): AllowedHosts {
  const listed = (setting ?? "")
    .split(",")
    .map((entry) => entry.trim().toLowerCase())
    .filter(Boolean);
  const any = listed.includes("*");
  const names = new Set([...LOOPBACK_HOSTS, ...machineNames.map((n) => n.toLowerCase()), ...listed.filter((n) => n !== "*")]);
  return { names: [...names].map(stripPort), any };
}

/** "Example.com:3000" → "example.com"; "[::1]:3000" → "[::1]"; "::1" stays. */
export function hostName(host: string): string {
  return stripPort(host.trim().toLowerCase());
}

function stripPort(host: string): string {
  if (host.startsWith("[")) {
    const end = host.indexOf("]");
    return end > 0 ? host.slice(0, end + 1) : host;
  }
  // More than one colon without brackets is a bare IPv6 address, which has no port.
  return host.split(":").length === 2 ? host.slice(0, host.indexOf(":")) : host;
}

export function isHostAllowed(host: string | null, allowed: AllowedHosts): boolean {
  if (allowed.any) return true;
  if (!host) return false;
  const name = hostName(host);
  if (name === "") return false;
  // *.localhost always resolves to loopback (RFC 6761), so it cannot be a rebinding name.
  if (name.endsWith(".localhost")) return true;
  return allowed.names.some((entry) =>
    entry.startsWith(".") ? name.endsWith(entry) || name === entry.slice(1) : name === entry,
  );
}

export function checkHost(host: string | null, allowed: AllowedHosts): Refusal | null {
  if (isHostAllowed(host, allowed)) return null;
  return {
    status: 403,
    code: "host_not_allowed",
    message: `This server does not answer for the host "${host ?? ""}". Add it to ALLOWED_HOSTS if it is this dashboard's name.`,
    details: { host: host ?? null },
  };
}

const SAFE_METHODS = new Set(["GET", "HEAD", "OPTIONS"]);

export function isStateChanging(method: string): boolean {
  return !SAFE_METHODS.has(method.toUpperCase());
}

/**
 * A browser says where a request comes from (`Sec-Fetch-Site`, `Origin`); a state-changing
 * request from any other origin is refused. Another port on the same host is another origin but
 * the same *site*, so `same-site` is refused too. Requests with neither header come from scripts
 * and tools, which no web page can make a browser send.
 */
export function checkCrossSite(input: Pick<GuardInput, "method" | "host" | "origin" | "secFetchSite">): Refusal | null {
  if (!isStateChanging(input.method)) return null;
  const site = input.secFetchSite?.trim().toLowerCase();
  if (site && site !== "same-origin" && site !== "none") return crossSite(`Sec-Fetch-Site: ${site}`);
  if (input.origin !== null && !sameOrigin(input.origin, input.host)) return crossSite(`Origin: ${input.origin}`);
  return null;
}

function crossSite(evidence: string): Refusal {
  return {
    status: 403,
    code: "cross_site_request",
    message: "Requests that change data must come from the dashboard itself; this one came from another site.",
    details: { evidence },
  };
}

/** Origin "https://a.example" and Host "a.example" (or "a.example:443") are the same origin. */
export function sameOrigin(origin: string, host: string | null): boolean {
  if (!host) return false;
  let url: URL;
  try {
    url = new URL(origin);
  } catch {
    return false; // "null" (sandboxed frames, file: pages) and garbage
  }
  if (url.protocol !== "http:" && url.protocol !== "https:") return false;
  const defaultPort = url.protocol === "https:" ? "443" : "80";
  const normalize = (value: string) => {
    const lower = value.toLowerCase();
    const name = stripPort(lower);
    const port = lower.slice(name.length + 1) || defaultPort;
    return `${name}:${port}`;
  };
  return normalize(url.host) === normalize(host.trim());
}

/** Body types a state-changing request may carry; none of them can be sent by an HTML form. */
const JSON_TYPES = new Set([
  "application/json",
  "application/x-ndjson",
  "application/jsonl",
  "application/x-jsonlines",
  "application/json-seq",
]);

export function isJsonMediaType(contentType: string): boolean {
  const media = contentType.split(";")[0]!.trim().toLowerCase();
  return JSON_TYPES.has(media) || /^application\/[a-z0-9.+-]+\+json$/.test(media);
}

/**
 * Only JSON bodies are read, so only JSON content types are accepted: an HTML form can send
 * text/plain, urlencoded or multipart, never these, and a fetch from another origin that sets
 * them needs a CORS preflight this server never grants. A bodyless POST/DELETE needs no type.
 */
export function checkContentType(
  input: Pick<GuardInput, "method" | "contentType" | "contentLength" | "transferEncoding">,
): Refusal | null {
  if (!isStateChanging(input.method)) return null;
  if (input.contentType !== null && input.contentType.trim() !== "") {
    if (isJsonMediaType(input.contentType)) return null;
    return unsupported(input.contentType);
  }
  const hasBody = input.transferEncoding !== null || (input.contentLength !== null && input.contentLength.trim() !== "0");
  return hasBody ? unsupported(null) : null;
}

function unsupported(contentType: string | null): Refusal {
  return {
    status: 415,
    code: "unsupported_media_type",
    message: "Send the body as JSON with Content-Type: application/json (or application/x-ndjson for JSON Lines).",
    details: { content_type: contentType },
  };
}

/** Host first (a rebinding name gets nothing), then origin, then body type. */
export function guardRequest(input: GuardInput, allowed: AllowedHosts): Refusal | null {
  return checkHost(input.host, allowed) ?? checkCrossSite(input) ?? checkContentType(input);
}

/**
 * Headers on every page and API answer: never framed (clickjacking), no MIME sniffing, no full
 * URLs (with their query strings) sent to other sites.
 */
export const SECURITY_HEADERS: Readonly<Record<string, string>> = {
  "Content-Security-Policy": "frame-ancestors 'none'; base-uri 'self'; form-action 'self'; object-src 'none'",
  "X-Frame-Options": "DENY",
  "X-Content-Type-Options": "nosniff",
  "Referrer-Policy": "same-origin",
  "Cross-Origin-Opener-Policy": "same-origin",
};
