import "server-only";
import http from "node:http";
import https from "node:https";
import { Readable } from "node:stream";
import { networkReason } from "@/lib/stores/server/remote/answer-reading";

/**
 * One HTTP exchange with an upstream, byte for byte (lib/capture/README.md "Capture from
 * production"): node:http rather than fetch, because fetch decodes compressed answers and hides
 * the raw header list. Nothing is retried, redirects are not followed (the answer is the
 * agent's to follow), and the body streams as it arrives.
 */
export interface UpstreamRequest {
  url: URL;
  method: string;
  /** Header name → value(s), already stripped of hop-by-hop and the dashboard's own headers. */
  headers: Record<string, string | string[]>;
  body: Buffer | null;
  /** How long to wait for the answer's status line and headers (not for the whole body: streams may be long). */
  timeoutMs: number;
  signal?: AbortSignal;
}

export interface UpstreamAnswer {
  status: number;
  /** [name, value] pairs as sent (duplicates kept, e.g. several Set-Cookie). */
  headers: [string, string][];
  /** Null when the status or method has no body. */
  body: ReadableStream<Uint8Array> | null;
}

export class UpstreamError extends Error {
  override readonly name = "UpstreamError";
  constructor(
    readonly kind: "timeout" | "unreachable",
    /** A short reason in words ("connection refused"), never a header or a body. */
    readonly reason: string | null,
  ) {
    super(kind === "timeout" ? "upstream timed out" : `upstream unreachable${reason ? ` (${reason})` : ""}`);
  }
}

const NO_BODY_STATUSES = new Set([101, 103, 204, 205, 304]);

export function forward(request: UpstreamRequest): Promise<UpstreamAnswer> {
  const lib = request.url.protocol === "https:" ? https : http;
  return new Promise((resolve, reject) => {
    let settled = false;
    const fail = (error: UpstreamError) => {
      if (settled) return;
      settled = true;
      reject(error);
    };
    const req = lib.request(request.url, { method: request.method, headers: request.headers, signal: request.signal });
    const timer = setTimeout(() => {
      fail(new UpstreamError("timeout", null));
      req.destroy();
    }, request.timeoutMs);
    req.on("error", (error) => {
      clearTimeout(timer);
      fail(new UpstreamError("unreachable", networkReason(error)));
    });
    req.on("response", (res) => {
      clearTimeout(timer);
      if (settled) {
        res.destroy();
        return;
      }
      settled = true;
      const status = res.statusCode ?? 502;
      const headers: [string, string][] = [];
      for (let i = 0; i + 1 < res.rawHeaders.length; i += 2) headers.push([res.rawHeaders[i]!, res.rawHeaders[i + 1]!]);
      const bodyless = request.method === "HEAD" || NO_BODY_STATUSES.has(status);
      if (bodyless) res.resume();
      resolve({
        status,
        headers,
        body: bodyless ? null : (Readable.toWeb(res) as unknown as ReadableStream<Uint8Array>),
      });
    });
    req.end(request.body ?? undefined);
  });
}
