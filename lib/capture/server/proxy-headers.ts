/**
 * Which headers the recall proxy passes on, both ways (lib/capture/README.md "Capture from
 * production"). Pure. Everything the agent sent goes to the memory service — its own
 * Authorization included — except what describes the hop to the dashboard (hop-by-hop headers,
 * the x-forwarded-* that Next adds, Host, which is the service's) and what belongs to the
 * dashboard (its key header, its session cookie). Every answer header comes back except the
 * hop-by-hop ones, which Node writes itself.
 *
 * Content codings: Next drops `Content-Encoding` and `Content-Length` from every route-handler
 * answer (its sendResponse), so compressed bytes cannot reach the agent with the header that says
 * so. The service is asked for `identity` instead of what the agent accepts, and an answer coded
 * anyway is decoded on the way (answer-decoding.ts) and described by `decodedResponseHeaders`.
 */
import { SESSION_COOKIE } from "@/lib/auth/server/session";

/** The header that carries the dashboard's API key on proxy calls (Authorization is the agent's, for the service). */
export const PROXY_KEY_HEADER = "recall-inspector-auth";

const HOP_BY_HOP = new Set([
  "connection",
  "keep-alive",
  "proxy-connection",
  "proxy-authenticate",
  "proxy-authorization",
  "te",
  "trailer",
  "transfer-encoding",
  "upgrade",
]);

/** What the proxy accepts from the service, whatever the agent accepts (see above). */
export const UPSTREAM_ACCEPT_ENCODING = "identity";

/** Request headers the dashboard's own hop adds or owns. */
const NOT_FORWARDED = new Set([
  "host",
  "content-length", // recomputed from the bytes forwarded
  "accept-encoding", // UPSTREAM_ACCEPT_ENCODING instead
  PROXY_KEY_HEADER,
  "x-forwarded-for",
  "x-forwarded-host",
  "x-forwarded-port",
  "x-forwarded-proto",
]);

function connectionTokens(value: string | null | undefined): Set<string> {
  return new Set(
    (value ?? "")
      .split(",")
      .map((t) => t.trim().toLowerCase())
      .filter(Boolean),
  );
}

/** The request headers to send upstream. `entries` are (name, value) pairs, names in any case. */
export function upstreamRequestHeaders(entries: Iterable<[string, string]>): Record<string, string> {
  const list = [...entries];
  const listed = connectionTokens(list.find(([name]) => name.toLowerCase() === "connection")?.[1]);
  const out: Record<string, string> = {};
  for (const [rawName, value] of list) {
    const name = rawName.toLowerCase();
    if (HOP_BY_HOP.has(name) || NOT_FORWARDED.has(name) || listed.has(name)) continue;
    if (name.startsWith("x-middleware-") || name.startsWith("x-nextjs-")) continue;
    if (name === "cookie") {
      const kept = withoutSessionCookie(value);
      if (kept) out[name] = kept;
      continue;
    }
    out[name] = value;
  }
  out["accept-encoding"] = UPSTREAM_ACCEPT_ENCODING;
  return out;
}

/** A Cookie header without the dashboard's session cookie ("" when nothing else is left). */
export function withoutSessionCookie(cookie: string): string {
  return cookie
    .split(";")
    .map((part) => part.trim())
    .filter((part) => part !== "" && part.split("=")[0]!.trim() !== SESSION_COOKIE)
    .join("; ");
}

/** The answer headers to return: all but hop-by-hop (and those the answer's Connection names). */
export function downstreamResponseHeaders(raw: readonly [string, string][]): [string, string][] {
  const listed = connectionTokens(raw.find(([name]) => name.toLowerCase() === "connection")?.[1]);
  return raw.filter(([rawName]) => {
    const name = rawName.toLowerCase();
    return !HOP_BY_HOP.has(name) && !listed.has(name);
  });
}

/**
 * The content codings a Content-Encoding value names, in the order they were applied, identity
 * left out: "gzip, br" → ["gzip", "br"] (undo br first). Several headers arrive joined by ", ".
 */
export function contentCodings(value: string | null | undefined): string[] {
  return (value ?? "")
    .split(",")
    .map((c) => c.trim().toLowerCase())
    .filter((c) => c !== "" && c !== "identity");
}

/**
 * The answer headers once its content codings are undone: no Content-Encoding, no Content-Length
 * (both described the coded bytes; the decoded answer is sent chunked), and a strong ETag made
 * weak (RFC 9110 §8.8.1: the bytes are no longer the ones it named).
 */
export function decodedResponseHeaders(raw: readonly [string, string][]): [string, string][] {
  return raw.flatMap(([name, value]): [string, string][] => {
    const lower = name.toLowerCase();
    if (lower === "content-encoding" || lower === "content-length") return [];
    if (lower === "etag" && !value.trimStart().startsWith("W/")) return [[name, `W/${value.trim()}`]];
    return [[name, value]];
  });
}
