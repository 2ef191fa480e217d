import "server-only";
import type { NextRequest } from "next/server";
import { ApiError, errorResponse } from "@/lib/api/errors";
import { readBodyBytes, toApiError, withSecurityHeaders } from "@/lib/api/server/route";
import type { RouteScope } from "@/lib/auth/scopes";
import { authorizeApi } from "@/lib/auth/server/authorize";
import { guardRequest } from "@/lib/security/guard";
import { guardInputOf, serverAllowedHosts } from "@/lib/security/server/hosts";
import { getRemoteStores, RemoteStoreConfigError, type RemoteStoreConfig } from "@/lib/stores/server/remote";
import { decodedBody, unsupportedCoding } from "./answer-decoding";
import { forward, UpstreamError, type UpstreamAnswer } from "./forward";
import { captureProxiedRecall, isRecallCall, MAX_CAPTURE_BYTES } from "./proxy-capture";
import {
  contentCodings,
  decodedResponseHeaders,
  downstreamResponseHeaders,
  PROXY_KEY_HEADER,
  upstreamRequestHeaders,
} from "./proxy-headers";

/**
 * The recall proxy, `/proxy/{store}/…` (lib/capture/README.md "Capture from production"): the
 * agent points its memory-service base URL here and changes nothing else. The request goes to
 * the store's service unchanged (but for Accept-Encoding: identity) and the answer comes back
 * unchanged, streamed — decoded when the service compressed it anyway, because Next drops
 * Content-Encoding from route-handler answers (proxy-headers.ts); a recall call's request and
 * answer are copied on the way and logged once the answer has been sent (source "proxy"), so
 * logging adds no wait and its failure never reaches the agent.
 *
 * The dashboard's own failures (the guard, its key, an unknown store, the service down or
 * silent) answer in the dashboard's envelope; the service's own answers, errors included, pass
 * through as it said them.
 */
export const PROXY_MAX_BODY_BYTES = 16_000_000;

/** `scope`: who may call, as the route file declares it (lib/auth/README.md "Security"). */
export async function proxyRequest(request: NextRequest, storeName: string, scope: RouteScope): Promise<Response> {
  try {
    const refusal = guardRequest(guardInputOf(request), serverAllowedHosts());
    if (refusal) throw new ApiError(refusal.status, refusal.code, refusal.message, refusal.details);
    await authorizeApi(request, scope, { keyHeader: PROXY_KEY_HEADER });
    const store = findStore(storeName);
    const body = hasBody(request.method) ? await readBodyBytes(request, PROXY_MAX_BODY_BYTES) : null;
    const rest = restOfPath(new URL(request.url).pathname, storeName);
    const search = new URL(request.url).search;
    const target = new URL(`${store.baseUrl}${rest}${search}`);
    const started = performance.now();
    const answer = await forward({
      url: target,
      method: request.method,
      headers: upstreamRequestHeaders(request.headers.entries()),
      body: body && body.length > 0 ? body : null,
      timeoutMs: store.timeoutMs,
      signal: request.signal,
    }).catch((error: unknown) => {
      throw upstreamFailure(error, store);
    });

    const { headers, body: answerBody } = await decoded(answer, store);
    headers.set("cache-control", withNoTransform(headers.get("cache-control")));
    let stream = answerBody;
    if (stream && isRecallCall(request.method, rest) && body) {
      stream = stream.pipeThrough(
        copyThenCapture((copied) =>
          captureProxiedRecall({
            store: store.name,
            requestBody: body,
            status: answer.status,
            contentType: headers.get("content-type"),
            responseBody: copied,
            latencyMs: performance.now() - started,
          }),
        ),
      );
    }
    return withSecurityHeaders(new Response(stream, { status: answer.status, headers }));
  } catch (error) {
    return withSecurityHeaders(errorResponse(error instanceof ApiError ? error : toApiError(error)));
  }
}

/**
 * The answer's headers and body as the agent gets them: as sent, or with its content codings
 * undone (a 502 in the envelope for a coding the proxy does not know: passing the bytes on
 * without their Content-Encoding would hand the agent bytes it cannot read).
 */
async function decoded(
  answer: UpstreamAnswer,
  store: RemoteStoreConfig,
): Promise<{ headers: Headers; body: ReadableStream<Uint8Array> | null }> {
  let list = downstreamResponseHeaders(answer.headers);
  const codings = contentCodings(new Headers(list).get("content-encoding"));
  let body = answer.body;
  if (codings.length > 0) {
    const unknown = unsupportedCoding(codings);
    if (unknown !== null) {
      await body?.cancel().catch(() => undefined);
      throw new ApiError(
        502,
        "upstream_unsupported_encoding",
        `The memory service of store "${store.name}" answered in a content coding the proxy cannot undo ("${unknown.slice(0, 40)}"), although it was asked for identity; gzip, deflate and br are undone.`,
        { store: store.name, content_encoding: unknown.slice(0, 100) },
      );
    }
    list = decodedResponseHeaders(list);
    if (body) body = decodedBody(body, codings);
  }
  const headers = new Headers();
  for (const [name, value] of list) headers.append(name, value);
  return { headers, body };
}

/**
 * `no-transform` on every answer: Next compresses answers the client accepts compressed, which
 * would re-encode what the service chose not to (its bytes and Content-Length); an intermediary
 * leaves a `no-transform` answer as it is (RFC 9111 §5.2.2.6), and Next's compression does.
 */
export function withNoTransform(cacheControl: string | null): string {
  if (!cacheControl || cacheControl.trim() === "") return "no-transform";
  return /(^|,)\s*no-transform\s*(,|$)/i.test(cacheControl) ? cacheControl : `${cacheControl}, no-transform`;
}

function hasBody(method: string): boolean {
  return method !== "GET" && method !== "HEAD";
}

function findStore(name: string): RemoteStoreConfig {
  let stores;
  try {
    stores = getRemoteStores();
  } catch (error) {
    if (error instanceof RemoteStoreConfigError) {
      throw new ApiError(503, "remote_stores_misconfigured", error.message, { variable: error.variable });
    }
    throw error;
  }
  const store = stores.find((s) => s.name === name);
  if (!store) {
    const names = stores.map((s) => s.name);
    throw new ApiError(
      404,
      "unknown_store",
      names.length > 0
        ? `There is no remote store named "${name}" to proxy to; the configured ones are: ${names.join(", ")}.`
        : `There is no remote store named "${name}" to proxy to: no remote store is configured (REMOTE_STORES).`,
      { stores: names },
    );
  }
  return store.config;
}

/** "/proxy/prod/api/v1/memory/recall" → "/api/v1/memory/recall", percent-encoding kept as sent. */
export function restOfPath(pathname: string, storeName: string): string {
  const prefix = `/proxy/${encodeURIComponent(storeName)}`;
  const rest = pathname.startsWith(prefix) ? pathname.slice(prefix.length) : pathname.replace(/^\/proxy\/[^/]*/, "");
  return rest === "" ? "/" : rest;
}

function upstreamFailure(error: unknown, store: RemoteStoreConfig): ApiError {
  if (!(error instanceof UpstreamError)) return toApiError(error);
  const where = `the memory service of store "${store.name}" (${store.baseUrl})`;
  if (error.kind === "timeout") {
    return new ApiError(
      504,
      "upstream_timeout",
      `The proxy got no answer from ${where} within ${store.timeoutMs} ms; raise ${store.sources.timeout_ms} if the service is just slow.`,
      { store: store.name, timeout_ms: store.timeoutMs },
    );
  }
  return new ApiError(
    502,
    "upstream_unreachable",
    `The proxy could not reach ${where}${error.reason ? ` (${error.reason})` : ""}: check ${store.sources.base_url} and that the service is running.`,
    { store: store.name, ...(error.reason ? { reason: error.reason } : {}) },
  );
}

/**
 * Passes every chunk on untouched and keeps a copy (up to MAX_CAPTURE_BYTES); when the last chunk
 * has gone to the agent, hands the copy to `done`, without waiting for it. A copy cut at the cap
 * is dropped (null, logged as too large to inspect): a recall answer is kilobytes, and the copy
 * must not hold an answer that inflated a thousandfold.
 */
function copyThenCapture(done: (copied: Buffer | null) => Promise<unknown>): TransformStream<Uint8Array, Uint8Array> {
  const chunks: Uint8Array[] = [];
  let total = 0;
  let overflow = false;
  return new TransformStream({
    transform(chunk, controller) {
      controller.enqueue(chunk);
      if (overflow) return;
      total += chunk.byteLength;
      if (total > MAX_CAPTURE_BYTES) {
        overflow = true;
        chunks.length = 0;
      } else chunks.push(chunk);
    },
    flush() {
      const copied = overflow ? null : Buffer.concat(chunks, total);
      // On the next turn of the event loop: the server has then written the answer's end to the
      // agent, so logging (a synchronous PGlite write, on the embedded database) never holds it.
      trackCapture(new Promise((resolve) => setImmediate(resolve)).then(() => done(copied)));
    },
  });
}

const pending = new Set<Promise<void>>();

function trackCapture(work: Promise<unknown>): void {
  const tracked = work.then(
    () => undefined,
    (error: unknown) => {
      // Never the bodies or headers: only that logging failed.
      console.warn(`recall proxy: a recall could not be logged (${error instanceof Error ? error.name : "error"})`);
    },
  );
  pending.add(tracked);
  void tracked.finally(() => pending.delete(tracked));
}

/** Resolves when every capture started so far has been logged or given up (tests, benchmarks). */
export async function settleCaptures(): Promise<void> {
  while (pending.size > 0) await Promise.all([...pending]);
}
