import http, { STATUS_CODES, type IncomingMessage, type ServerResponse } from "node:http";
import https from "node:https";
import type { Duplex } from "node:stream";
import { PEER_HEADER, peerStamp } from "@/lib/auth/server/client-address";
import { SECURITY_HEADERS } from "@/lib/security/guard";

/**
 * A hook on the Node HTTP server Next listens with (lib/security/README.md "The request guard"), installed
 * once at start (lib/startup.ts) for what happens before Next builds a Request, where neither
 * proxy.ts nor the route wrapper can act:
 * - the TCP peer's address is written into PEER_HEADER, over any copy the client sent (the
 *   sign-in limiter's client address, lib/auth/client-address.ts);
 * - the security headers are set on every answer first, so Next's own answers (its 404, 405,
 *   the 204 of OPTIONS, a 500) carry them too;
 * - a method no route takes gets a 405 in the error envelope: TRACE and TRACK, which the Fetch
 *   standard forbids in a Request (Next throws a TypeError and answers a plain-text 500), and any
 *   other (PROPFIND, BREW…), which Next answers with an empty 400;
 * - a request Node's parser refuses (headers past its 16 KB cap: 431; malformed: 400) gets the
 *   envelope and the headers instead of Node's bare status line.
 */
const ALLOW = "GET, HEAD, POST, PUT, PATCH, DELETE, OPTIONS";
const ALLOWED_METHODS = new Set(ALLOW.split(", "));
const HOOKED = Symbol.for("recallInspector.serverHooked");

type HookedServer = (http.Server | https.Server) & { [HOOKED]?: true };
type Listener = (req: IncomingMessage, res: ServerResponse) => void;

/** The HTTP servers this process listens with (Next listens before instrumentation runs). */
export function listeningHttpServers(): Array<http.Server | https.Server> {
  // `_getActiveHandles` is undocumented but stable (lib/auth/exposure.ts reads it the same way).
  const handles = (process as unknown as { _getActiveHandles?: () => unknown[] })._getActiveHandles?.() ?? [];
  return handles.filter(
    (h): h is http.Server | https.Server => (h instanceof http.Server || h instanceof https.Server) && h.listening,
  );
}

function envelope(error: string, message: string, details: Record<string, unknown>): string {
  return JSON.stringify({ error, message, details });
}

/** Hooks each server once; returns how many were hooked now. */
export function hookHttpServers(servers: Array<http.Server | https.Server> = listeningHttpServers()): number {
  let hooked = 0;
  for (const server of servers as HookedServer[]) {
    if (server[HOOKED]) continue;
    server[HOOKED] = true;
    const listeners = server.listeners("request") as Listener[];
    server.removeAllListeners("request");
    server.on("request", (req: IncomingMessage, res: ServerResponse) => {
      req.headers[PEER_HEADER] = req.socket.remoteAddress ?? "";
      for (const [name, value] of Object.entries(SECURITY_HEADERS)) res.setHeader(name, value);
      const method = (req.method ?? "").toUpperCase();
      if (!ALLOWED_METHODS.has(method)) {
        const path = (req.url ?? "/").split("?")[0]!;
        const body = envelope("method_not_allowed", `${path} does not take ${method}; no path here does.`, {
          method,
          allowed: ALLOW.split(", "),
        });
        res.writeHead(405, { "content-type": "application/json", "content-length": Buffer.byteLength(body), allow: ALLOW });
        res.end(body);
        req.resume();
        return;
      }
      for (const listener of listeners) listener.call(server, req, res);
    });
    server.on("clientError", (error: NodeJS.ErrnoException, socket: Duplex) => answerClientError(error, socket));
    hooked++;
  }
  if (hooked > 0) peerStamp.installed = true;
  return hooked;
}

/** What Node's own clientError default would answer, in the envelope and with the security headers. */
function answerClientError(error: NodeJS.ErrnoException, socket: Duplex): void {
  const inFlight = (socket as Duplex & { _httpMessage?: { headersSent?: boolean } })._httpMessage;
  if (error.code === "ECONNRESET" || !socket.writable || inFlight?.headersSent) {
    socket.destroy();
    return;
  }
  const [status, code, message] =
    error.code === "HPE_HEADER_OVERFLOW"
      ? [
          431,
          "headers_too_large",
          "The request's headers are larger than the server takes (16 KB); send long lists in a POST body.",
        ]
      : error.code === "ERR_HTTP_REQUEST_TIMEOUT"
        ? [408, "request_timeout", "The request took too long to arrive."]
        : [400, "bad_request", "The request is not valid HTTP."];
  const body = envelope(code, message, {});
  const head = [
    `HTTP/1.1 ${status} ${STATUS_CODES[status]}`,
    "Content-Type: application/json",
    `Content-Length: ${Buffer.byteLength(body)}`,
    "Connection: close",
    ...Object.entries(SECURITY_HEADERS).map(([name, value]) => `${name}: ${value}`),
  ];
  socket.end(`${head.join("\r\n")}\r\n\r\n${body}`);
}
