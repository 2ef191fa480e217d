/**
 * A loopback test double of the reference memory service (docs/memory-service-api.md), for
 * contract tests of the real remote-store client (docs/ARCHITECTURE.md "Tests"): it speaks the documented REST API
 * over HTTP on 127.0.0.1. Its default answers, key, context and corpus are in
 * fake-memory-service-fixtures.ts; this file is the server (one route table, kept whole so each
 * route's validation reads top to bottom, hence a little over 400 lines).
 *
 * - Bearer auth: a missing or wrong key → 401 with the service's envelope.
 * - `POST /api/v1/memory/recall`: validates the body like the service (422 `VAL-001` with
 *   `details.errors`, 422 `HTTP-422` without `filters.context_id`, uniform 404 for another
 *   context), then answers the next scripted answer, or by default the full §3.4 response
 *   (golden case S-1 confidence) cut to `k` results.
 * - `GET /api/v1/memory/list` and `GET /api/v1/memory/stats` over a small fixed corpus.
 * - `POST /api/v1/memory/remember` (a write): validates the summary (10–500 characters) and
 *   answers `{status, memory_id, scope, lint}` with a fresh id; nothing is kept.
 * - Scripted answers (`setNext`): any JSON, an error status with the envelope, raw text
 *   (malformed JSON), a chunked stream written piece by piece, a delay, a request that never
 *   answers, a dropped connection.
 * - Every request is recorded (method, path, query, headers, body).
 * - `gzip: true` (or `--gzip`, or `POST /__fake/gzip {"on": true}`): answers compressed as
 *   behind Starlette's GZipMiddleware when the request asks for gzip (gzip-middleware.ts); a
 *   scripted answer's `encoding` forces a coding, and `bytes` answers exact bytes (a gzip bomb).
 *
 * Test-only control routes, without auth: `GET /__fake/health`, `GET /__fake/requests`,
 * `POST /__fake/next` (body: one answer or an array), `POST /__fake/reset`, `POST /__fake/gzip`.
 *
 * From a script (e.g. Playwright's webServer), runs until SIGTERM/SIGINT:
 *   node --import tsx tests/support/fake-memory-service.ts --port 4010 \
 *     [--host 127.0.0.1] [--api-key kagura_test_key] [--context-id <uuid>] [--gzip]
 * It prints `fake memory service listening on http://127.0.0.1:4010` once ready.
 *
 * Self-contained on purpose (node:http only): it must not share the client's decoders.
 */
import { randomUUID } from "node:crypto";
import { createServer, type IncomingHttpHeaders, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { FAKE_API_KEY, FAKE_CONTEXT_ID, fullRecallResponse, errorEnvelope, FAKE_MEMORIES } from "./fake-memory-service-fixtures";
import { endAnswer, negotiateGzip, startStream, type Coding } from "./gzip-middleware";
import { argValue, portArg, runDoubleAsScript, type ScriptedDouble } from "./run-double";

// ---------------------------------------------------------------------------------------------
// Scripted answers

interface AnswerBase {
  /** Only for requests to this path (e.g. "/api/v1/memory/recall"); any API path when unset. */
  path?: string;
  /** Wait this long before answering. */
  delayMs?: number;
  headers?: Record<string, string>;
  /** Compress a json, error or raw answer in this coding whatever the request asked. */
  encoding?: Coding;
}

export type ScriptedAnswer =
  | (AnswerBase & { json: unknown; status?: number })
  | (AnswerBase & { error: number; code?: string; message?: string; details?: Record<string, unknown> })
  | (AnswerBase & { raw: string; status?: number; contentType?: string })
  /** These exact bytes (with `headers`, e.g. a Content-Encoding they are already in); in-process only. */
  | (AnswerBase & { bytes: Uint8Array; status?: number; contentType?: string })
  /** Chunked, one piece every `intervalMs` (e.g. server-sent events). */
  | (AnswerBase & { stream: string[]; intervalMs?: number; status?: number; contentType?: string })
  /** Accept the request and never answer (until the client gives up or the server closes). */
  | (AnswerBase & { hang: true })
  /** Destroy the connection without an answer. */
  | (AnswerBase & { drop: true });

export interface RecordedRequest {
  method: string;
  path: string;
  query: Record<string, string | string[]>;
  headers: IncomingHttpHeaders;
  /** The parsed JSON body, or the raw text when it is not JSON, or undefined when empty. */
  body: unknown;
}

export interface FakeMemoryServiceOptions {
  /** The key the service accepts (default FAKE_API_KEY). */
  apiKey?: string;
  /** The one context this key can see; another id → uniform 404 (default FAKE_CONTEXT_ID). */
  contextId?: string;
  port?: number;
  host?: string;
  /** The default recall answer when nothing is scripted (default: the full response cut to k). */
  recall?: (body: { query: string; k: number; [key: string]: unknown }) => unknown;
  /** Behind GZipMiddleware: answers of 500 bytes or more gzip-compressed when asked (default off). */
  gzip?: boolean;
}

/** Its `requests` leave out the control routes. */
export interface FakeMemoryService extends ScriptedDouble<RecordedRequest, ScriptedAnswer> {
  /** e.g. http://127.0.0.1:43123 (the service root: give it as base_url). */
  url: string;
  apiKey: string;
  contextId: string;
  /** Turns GZipMiddleware on or off (reset() restores the option it started with). */
  setGzip: (on: boolean) => void;
}

const API_PREFIX = "/api/v1/memory";

function sendJson(
  res: ServerResponse,
  status: number,
  body: unknown,
  headers: Record<string, string> = {},
  encoding?: Coding,
): void {
  if (res.destroyed || res.headersSent) return;
  const text = JSON.stringify(body);
  endAnswer(
    res,
    status,
    { "content-type": "application/json", "content-length": Buffer.byteLength(text), ...headers },
    text,
    encoding,
  );
}

function readBody(req: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => resolve(Buffer.concat(chunks).toString("utf8")));
    req.on("error", reject);
  });
}

function queryObject(params: URLSearchParams): Record<string, string | string[]> {
  const out: Record<string, string | string[]> = {};
  for (const key of new Set(params.keys())) {
    const values = params.getAll(key);
    out[key] = values.length === 1 ? values[0]! : values;
  }
  return out;
}

type ValidationIssue = { loc: (string | number)[]; msg: string; type: string };

/** The service's pydantic checks on `RecallRequest` (spec §2.2), input never echoed. */
function validateRecall(body: unknown): ValidationIssue[] {
  if (typeof body !== "object" || body === null || Array.isArray(body)) {
    return [{ loc: ["body"], msg: "Input should be a valid dictionary", type: "dict_type" }];
  }
  const b = body as Record<string, unknown>;
  const issues: ValidationIssue[] = [];
  if (typeof b.query !== "string") issues.push({ loc: ["body", "query"], msg: "Field required", type: "missing" });
  else if (b.query.length < 1)
    issues.push({ loc: ["body", "query"], msg: "String should have at least 1 character", type: "string_too_short" });
  else if (b.query.length > 8000)
    issues.push({ loc: ["body", "query"], msg: "String should have at most 8000 characters", type: "string_too_long" });
  if (b.k !== undefined && b.k !== null) {
    if (typeof b.k !== "number" || !Number.isInteger(b.k))
      issues.push({ loc: ["body", "k"], msg: "Input should be a valid integer", type: "int_type" });
    else if (b.k < 1)
      issues.push({ loc: ["body", "k"], msg: "Input should be greater than or equal to 1", type: "greater_than_equal" });
    else if (b.k > 100)
      issues.push({ loc: ["body", "k"], msg: "Input should be less than or equal to 100", type: "less_than_equal" });
  }
  if (
    b.search_mode !== undefined &&
    b.search_mode !== null &&
    !["hybrid", "semantic", "keyword"].includes(String(b.search_mode))
  ) {
    issues.push({
      loc: ["body", "search_mode"],
      msg: "String should match pattern '^(hybrid|semantic|keyword)$'",
      type: "string_pattern_mismatch",
    });
  }
  for (const flag of ["use_rerank", "include_explore_hints", "include_superseded"] as const) {
    if (b[flag] !== undefined && typeof b[flag] !== "boolean") {
      issues.push({ loc: ["body", flag], msg: "Input should be a valid boolean", type: "bool_type" });
    }
  }
  if (b.filters !== undefined && b.filters !== null && (typeof b.filters !== "object" || Array.isArray(b.filters))) {
    issues.push({ loc: ["body", "filters"], msg: "Input should be a valid dictionary", type: "dict_type" });
  }
  return issues;
}

export async function startFakeMemoryService(options: FakeMemoryServiceOptions = {}): Promise<FakeMemoryService> {
  const apiKey = options.apiKey ?? FAKE_API_KEY;
  const contextId = options.contextId ?? FAKE_CONTEXT_ID;
  const requests: RecordedRequest[] = [];
  let queue: ScriptedAnswer[] = [];
  const timers = new Set<NodeJS.Timeout>();
  let gzip = options.gzip ?? false;

  const takeScripted = (path: string): ScriptedAnswer | undefined => {
    const index = queue.findIndex((a) => a.path === undefined || a.path === path);
    if (index < 0) return undefined;
    return queue.splice(index, 1)[0];
  };

  const later = (ms: number | undefined, fn: () => void): void => {
    if (!ms) return fn();
    const timer = setTimeout(() => {
      timers.delete(timer);
      fn();
    }, ms);
    timers.add(timer);
  };

  const play = (answer: ScriptedAnswer, req: IncomingMessage, res: ServerResponse): void => {
    if ("hang" in answer) return; // the socket stays open until the client aborts or close()
    later(answer.delayMs, () => {
      if (res.destroyed) return;
      if ("drop" in answer) {
        req.socket.destroy();
      } else if ("error" in answer) {
        const envelope = errorEnvelope(answer.error, {
          ...(answer.code !== undefined ? { error: answer.code } : {}),
          ...(answer.message !== undefined ? { message: answer.message } : {}),
          ...(answer.details !== undefined ? { details: answer.details } : {}),
        });
        const headers = { ...(answer.error === 503 ? { "retry-after": "5" } : {}), ...answer.headers };
        sendJson(res, answer.error, envelope, headers, answer.encoding);
      } else if ("stream" in answer) {
        if (res.headersSent) return;
        const out = startStream(res, answer.status ?? 200, {
          "content-type": answer.contentType ?? "text/event-stream",
          ...answer.headers,
        });
        const pieces = [...answer.stream];
        const next = () => {
          if (res.destroyed) return;
          const piece = pieces.shift();
          if (piece === undefined) return out.end();
          out.write(piece);
          later(answer.intervalMs ?? 20, next);
        };
        next();
      } else if ("raw" in answer) {
        if (res.headersSent) return;
        const headers = { "content-type": answer.contentType ?? "application/json", ...answer.headers };
        endAnswer(res, answer.status ?? 200, headers, answer.raw, answer.encoding);
      } else if ("bytes" in answer) {
        if (res.headersSent) return;
        const headers = { "content-type": answer.contentType ?? "application/json", ...answer.headers };
        res.writeHead(answer.status ?? 200, { ...headers, "content-length": answer.bytes.byteLength });
        res.end(answer.bytes);
      } else {
        sendJson(res, answer.status ?? 200, answer.json, answer.headers, answer.encoding);
      }
    });
  };

  const defaultRecall =
    options.recall ??
    ((body: { k: number }) => {
      const full = fullRecallResponse();
      return { ...full, results: (full.results as unknown[]).slice(0, body.k) };
    });

  const handleApi = (req: IncomingMessage, res: ServerResponse, url: URL, recorded: RecordedRequest): void => {
    const authorization = req.headers.authorization ?? "";
    const match = /^Bearer (.+)$/.exec(authorization);
    if (!match || match[1] !== apiKey) {
      const message = match ? "Invalid or expired API key" : "Not authenticated";
      return sendJson(res, 401, errorEnvelope(401, { message }), { "www-authenticate": "Bearer" });
    }
    const path = url.pathname;
    const wrongContext = (id: unknown) => typeof id === "string" && id !== contextId;

    if (path === `${API_PREFIX}/recall`) {
      if (req.method !== "POST") return sendJson(res, 405, errorEnvelope(405, { message: "Method Not Allowed" }));
      const body = recorded.body;
      if (typeof body === "string") {
        return sendJson(
          res,
          422,
          errorEnvelope(422, { details: { errors: [{ loc: ["body"], msg: "JSON decode error", type: "json_invalid" }] } }),
        );
      }
      const issues = validateRecall(body);
      if (issues.length > 0) return sendJson(res, 422, errorEnvelope(422, { details: { errors: issues } }));
      const b = body as Record<string, unknown>;
      const filters = (b.filters ?? {}) as Record<string, unknown>;
      const scripted = takeScripted(path);
      if (scripted) return play(scripted, req, res);
      if (filters.context_id === undefined || filters.context_id === null) {
        return sendJson(
          res,
          422,
          errorEnvelope(422, {
            error: "HTTP-422",
            message: "recall() requires current_workspace_id and current_context_id",
            details: {},
          }),
        );
      }
      if (wrongContext(filters.context_id)) return sendJson(res, 404, errorEnvelope(404));
      return sendJson(res, 200, defaultRecall({ ...b, query: String(b.query), k: typeof b.k === "number" ? b.k : 5 }));
    }

    if (path === `${API_PREFIX}/remember`) {
      if (req.method !== "POST") return sendJson(res, 405, errorEnvelope(405, { message: "Method Not Allowed" }));
      const scripted = takeScripted(path);
      if (scripted) return play(scripted, req, res);
      const b = (typeof recorded.body === "object" && recorded.body !== null ? recorded.body : {}) as Record<string, unknown>;
      const summary = b.summary;
      if (typeof summary !== "string" || summary.length < 10 || summary.length > 500) {
        return sendJson(
          res,
          422,
          errorEnvelope(422, {
            details: {
              errors: [
                { loc: ["body", "summary"], msg: "String should have between 10 and 500 characters", type: "string_length" },
              ],
            },
          }),
        );
      }
      return sendJson(res, 201, { status: "success", memory_id: randomUUID(), scope: "working", lint: [] });
    }

    if (path === `${API_PREFIX}/list` || path === `${API_PREFIX}/stats`) {
      if (req.method !== "GET") return sendJson(res, 405, errorEnvelope(405, { message: "Method Not Allowed" }));
      const scripted = takeScripted(path);
      if (scripted) return play(scripted, req, res);
      if (wrongContext(url.searchParams.get("context_id") ?? undefined)) return sendJson(res, 404, errorEnvelope(404));
      if (path.endsWith("/stats")) {
        const byType: Record<string, number> = {};
        for (const m of FAKE_MEMORIES) byType[m.type] = (byType[m.type] ?? 0) + 1;
        return sendJson(res, 200, {
          total_count: FAKE_MEMORIES.length,
          working_count: FAKE_MEMORIES.filter((m) => m.scope === "working").length,
          persistent_count: FAKE_MEMORIES.filter((m) => m.scope === "persistent").length,
          by_type: byType,
          by_importance: {
            high: FAKE_MEMORIES.filter((m) => m.importance >= 0.7).length,
            medium: FAKE_MEMORIES.filter((m) => m.importance >= 0.4 && m.importance < 0.7).length,
            low: FAKE_MEMORIES.filter((m) => m.importance < 0.4).length,
          },
          recent_activity: 0,
        });
      }
      const q = url.searchParams.get("q")?.toLowerCase() ?? "";
      const type = url.searchParams.get("type");
      const limit = Number(url.searchParams.get("limit") ?? 50);
      const offset = Number(url.searchParams.get("offset") ?? 0);
      if (!Number.isInteger(limit) || limit < 1 || limit > 500 || !Number.isInteger(offset) || offset < 0) {
        return sendJson(
          res,
          422,
          errorEnvelope(422, {
            details: { errors: [{ loc: ["query", "limit"], msg: "Input should be between 1 and 500", type: "value_error" }] },
          }),
        );
      }
      const matching = FAKE_MEMORIES.filter((m) => (!q || m.summary.toLowerCase().includes(q)) && (!type || m.type === type));
      const page = matching.slice(offset, offset + limit);
      return sendJson(res, 200, {
        memories: page.map(({ tags: _tags, ...m }) => m),
        total: matching.length,
        has_more: offset + page.length < matching.length,
      });
    }

    const scripted = takeScripted(path);
    if (scripted) return play(scripted, req, res);
    return sendJson(res, 404, errorEnvelope(404, { message: "Not Found" }));
  };

  const handleControl = (req: IncomingMessage, res: ServerResponse, url: URL, raw: string): void => {
    if (url.pathname === "/__fake/health") return sendJson(res, 200, { status: "ok" });
    if (url.pathname === "/__fake/requests") return sendJson(res, 200, { requests });
    if (url.pathname === "/__fake/reset" && req.method === "POST") {
      queue = [];
      requests.length = 0;
      gzip = options.gzip ?? false;
      return sendJson(res, 200, { status: "ok" });
    }
    if (url.pathname === "/__fake/gzip" && req.method === "POST") {
      try {
        const parsed = JSON.parse(raw) as { on?: unknown };
        if (typeof parsed.on !== "boolean") throw new Error("on");
        gzip = parsed.on;
        return sendJson(res, 200, { gzip });
      } catch {
        return sendJson(res, 400, { error: "bad_json", message: 'POST /__fake/gzip takes {"on": true|false}' });
      }
    }
    if (url.pathname === "/__fake/next" && req.method === "POST") {
      try {
        const parsed = JSON.parse(raw) as ScriptedAnswer | ScriptedAnswer[];
        queue.push(...(Array.isArray(parsed) ? parsed : [parsed]));
        return sendJson(res, 200, { queued: queue.length });
      } catch {
        return sendJson(res, 400, {
          error: "bad_json",
          message: "POST /__fake/next takes a scripted answer or an array of them",
        });
      }
    }
    return sendJson(res, 404, { error: "not_found", message: "unknown control route" });
  };

  const server: Server = createServer((req, res) => {
    void (async () => {
      const url = new URL(req.url ?? "/", "http://fake.invalid");
      negotiateGzip(req, res, gzip && !url.pathname.startsWith("/__fake/"));
      const raw = await readBody(req);
      if (url.pathname.startsWith("/__fake/")) return handleControl(req, res, url, raw);
      let body: unknown;
      if (raw !== "") {
        try {
          body = JSON.parse(raw);
        } catch {
          body = raw;
        }
      }
      const recorded: RecordedRequest = {
        method: req.method ?? "GET",
        path: url.pathname,
        query: queryObject(url.searchParams),
        headers: req.headers,
        body,
      };
      requests.push(recorded);
      handleApi(req, res, url, recorded);
    })().catch((error: unknown) => {
      sendJson(res, 500, errorEnvelope(500, { message: `fake memory service bug: ${String(error)}` }));
    });
  });

  const host = options.host ?? "127.0.0.1";
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(options.port ?? 0, host, () => {
      server.off("error", reject);
      resolve();
    });
  });
  const { port } = server.address() as AddressInfo;

  return {
    url: `http://${host.includes(":") ? `[${host}]` : host}:${port}`,
    port,
    apiKey,
    contextId,
    requests,
    setNext: (...answers) => {
      queue.push(...answers);
    },
    reset: () => {
      queue = [];
      requests.length = 0;
      gzip = options.gzip ?? false;
    },
    setGzip: (on: boolean) => {
      gzip = on;
    },
    close: () =>
      new Promise<void>((resolve, reject) => {
        for (const timer of timers) clearTimeout(timer);
        timers.clear();
        server.close((error) => (error ? reject(error) : resolve()));
        server.closeAllConnections();
      }),
  };
}

// ---------------------------------------------------------------------------------------------
// Command line

/** The double's options from a command line (flags first, then FAKE_MEMORY_SERVICE_* variables). */
async function startFromArgs(args: readonly string[]): Promise<{ double: FakeMemoryService; url: string }> {
  const double = await startFakeMemoryService({
    port: portArg(args, process.env.FAKE_MEMORY_SERVICE_PORT ?? "0"),
    host: argValue(args, "--host") ?? process.env.FAKE_MEMORY_SERVICE_HOST ?? "127.0.0.1",
    apiKey: argValue(args, "--api-key") ?? process.env.FAKE_MEMORY_SERVICE_API_KEY ?? FAKE_API_KEY,
    contextId: argValue(args, "--context-id") ?? process.env.FAKE_MEMORY_SERVICE_CONTEXT_ID ?? FAKE_CONTEXT_ID,
    gzip: args.includes("--gzip") || process.env.FAKE_MEMORY_SERVICE_GZIP === "1",
  });
  return { double, url: double.url };
}

runDoubleAsScript(import.meta.url, "fake memory service", startFromArgs);
