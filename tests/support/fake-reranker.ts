/**
 * Loopback test doubles of the rerank APIs the app talks to (docs/ARCHITECTURE.md "Tests"), each
 * written from that server's published API and strict where it is strict, so the real client
 * (lib/rerank/client.ts) is what runs. One `flavor` a double:
 *
 * - `tei`: text-embeddings-inference's `POST /rerank`, `{query, texts, raw_scores?, return_text?,
 *   truncate?, truncation_direction?}` → a bare array `[{index, score, text?}]` of every text, best
 *   first. A body without `query` or `texts` is a 422 with the JSON extractor's plain-text message
 *   (`missing field \`texts\``), an empty `texts` a 422 `{error, error_type: "Validation"}`, more
 *   texts than `--max-client-batch-size` a 413.
 * - `cohere-v2`: Cohere's `POST /v2/rerank`, `{model, query, documents: string[], top_n?,
 *   max_tokens_per_doc?}` → `{id, results: [{index, relevance_score}], meta: {api_version,
 *   billed_units}}`; `model`, `query`, `documents` required (400 `{id, message}`).
 * - `cohere-v1`: Cohere's `POST /v1/rerank`, documents as strings or `{text}`, `return_documents`
 *   → results with `document: {text}`.
 * - `jina`: Jina's `POST /v1/rerank`, `{model, query, documents, top_n?, return_documents?}` →
 *   `{model, usage: {total_tokens}, results: [{index, document: {text}, relevance_score}]}`.
 * - `vllm` (the default): vLLM's `POST /rerank`, `/v1/rerank`, `/v2/rerank`, `model` optional →
 *   `{id, model, usage, results: [{index, document: {text}, relevance_score}]}`; errors
 *   `{object: "error", message, type, code}`.
 *
 * Every Cohere-style flavour answers `top_n` results (all when absent), best first; a `reordered`
 * answer fixture gives the same results in index order instead (the client must not rely on the
 * order).
 *
 * ```ts
 * const reranker = await startFakeReranker({ flavor: "tei" }); // port 0: a free port
 * // … RERANK_BASE_URL = reranker.baseUrl …
 * reranker.setNext({ status: 500 });                          // scripted answers, consumed in order
 * reranker.requests[0].body                                   // what the client sent
 * await reranker.close();
 * ```
 *
 * As a script (for Playwright's `webServer`): `node --import tsx tests/support/fake-reranker.ts
 * --port 4021 [--flavor tei] [--key secret]` runs until SIGTERM/SIGINT and prints
 * `fake-reranker listening on <baseUrl>` once ready.
 *
 * The default relevance of a document is deterministic and easy to predict in a test: the share of
 * the query's words (lower case, 3+ letters) the document contains, plus 0.001 × its length in
 * characters capped at 0.0999 (so ties are rare and longer documents win them). The query may ask
 * for a failure with one of these words:
 * - `timeout-please`: answers only after {@link RERANK_TIMEOUT_PLEASE_DELAY_MS};
 * - `error-please`: HTTP 500 with a JSON error;
 * - `garbage-please`: a 200 whose body is not JSON.
 *
 * Standalone on purpose: only node built-ins, no app imports.
 */
import http, { type IncomingHttpHeaders } from "node:http";
import type { AddressInfo } from "node:net";
import { argValue, DoubleUsageError, portArg, runDoubleAsScript, type ScriptedDouble } from "./run-double";

export const RERANK_TIMEOUT_PLEASE_DELAY_MS = 15_000;

export const RERANK_FLAVORS = ["tei", "cohere-v2", "cohere-v1", "jina", "vllm"] as const;
export type RerankFlavor = (typeof RERANK_FLAVORS)[number];

/** The paths each flavour serves, and the base URL its docs tell a client to use. */
const ROUTES: Record<RerankFlavor, { paths: string[]; base: string }> = {
  tei: { paths: ["/rerank"], base: "" },
  "cohere-v2": { paths: ["/v2/rerank"], base: "/v2" },
  "cohere-v1": { paths: ["/v1/rerank"], base: "/v1" },
  jina: { paths: ["/v1/rerank"], base: "/v1" },
  vllm: { paths: ["/rerank", "/v1/rerank", "/v2/rerank"], base: "" },
};

export type FakeRerankAnswer =
  /** Any status with a body: a string is sent as-is, anything else as JSON. */
  | { status: number; body?: unknown }
  /** Explicit relevance per document index, in the flavour's shape; `reordered`: results in index order. */
  | { scores: Record<number, number>; reordered?: boolean }
  /** The default relevance, results in index order rather than best first. */
  | { reordered: true }
  /** Waits, then gives `then` (default: the default behaviour). */
  | { delayMs: number; then?: FakeRerankAnswer };

export interface FakeRerankRequest {
  method: string;
  path: string;
  headers: IncomingHttpHeaders;
  /** The parsed JSON body, or the raw text when it is not JSON. */
  body: Record<string, unknown> | string;
}

export interface FakeReranker extends ScriptedDouble<FakeRerankRequest, FakeRerankAnswer> {
  flavor: RerankFlavor;
  /** What `RERANK_BASE_URL` should be per the flavour's docs (e.g. `http://127.0.0.1:<port>/v2` for Cohere). */
  baseUrl: string;
  /** `http://127.0.0.1:<port>`. */
  origin: string;
}

export interface FakeRerankerOptions {
  port?: number;
  flavor?: RerankFlavor;
  requireKey?: string;
  /** Refuse more documents a request, as text-embeddings-inference does (`--max-client-batch-size`). */
  maxBatch?: number;
}

/** The default relevance of a document for a query (exported so tests predict the order). */
export function fakeRelevance(query: string, document: string): number {
  const words = [...new Set(query.toLowerCase().match(/[a-z0-9]{3,}/g) ?? [])];
  const text = document.toLowerCase();
  const share = words.length === 0 ? 0 : words.filter((w) => text.includes(w)).length / words.length;
  return share + Math.min(0.0999, document.length * 0.001);
}

type Reply = { status: number; body: unknown };

/** The request's problem as the flavour's server words it, or the parsed request. */
function readRequest(
  flavor: RerankFlavor,
  body: FakeRerankRequest["body"],
): Reply | { query: string; documents: string[]; topN: number | undefined; returnText: boolean } {
  if (typeof body !== "object" || body === null || Array.isArray(body)) {
    return flavor === "tei"
      ? { status: 400, body: "Failed to parse the request body as JSON" }
      : badRequest(flavor, "invalid request: the body is not a JSON object");
  }
  if (flavor === "tei") {
    // axum's Json extractor: a missing or mistyped field is a 422 in plain text, before TEI's own checks.
    for (const field of ["query", "texts"] as const) {
      if (!(field in body)) {
        return {
          status: 422,
          body: `Failed to deserialize the JSON body into the target type: missing field \`${field}\` at line 1 column ${JSON.stringify(body).length}`,
        };
      }
    }
    if (typeof body.query !== "string" || !Array.isArray(body.texts) || body.texts.some((t) => typeof t !== "string")) {
      return { status: 422, body: "Failed to deserialize the JSON body into the target type: texts: invalid type" };
    }
    if (body.texts.length === 0) return { status: 422, body: { error: "`texts` cannot be empty", error_type: "Validation" } };
    return { query: body.query, documents: body.texts as string[], topN: undefined, returnText: body.return_text === true };
  }
  if (flavor !== "vllm" && (typeof body.model !== "string" || body.model === "")) {
    return badRequest(flavor, "invalid request: model is required");
  }
  if (typeof body.query !== "string" || body.query === "") return badRequest(flavor, "invalid request: query is required");
  if (!Array.isArray(body.documents)) return badRequest(flavor, "invalid request: documents is required");
  const stringsOnly = flavor === "cohere-v2";
  const documents: string[] = [];
  for (const d of body.documents as unknown[]) {
    if (typeof d === "string") documents.push(d);
    else if (!stringsOnly && typeof d === "object" && d !== null && typeof (d as { text?: unknown }).text === "string") {
      documents.push((d as { text: string }).text);
    } else return badRequest(flavor, "invalid request: documents must be a list of strings");
  }
  if (documents.length === 0) return badRequest(flavor, "invalid request: documents must not be empty");
  let topN: number | undefined;
  if (body.top_n !== undefined && body.top_n !== null) {
    if (!Number.isInteger(body.top_n) || (body.top_n as number) < (flavor === "vllm" ? 0 : 1)) {
      return badRequest(flavor, "invalid request: top_n must be a positive integer");
    }
    topN = (body.top_n as number) === 0 ? undefined : (body.top_n as number);
  }
  const returnText =
    flavor === "jina" || flavor === "vllm"
      ? body.return_documents !== false
      : flavor === "cohere-v1" && body.return_documents === true;
  return { query: body.query, documents, topN, returnText };
}

function badRequest(flavor: RerankFlavor, message: string): Reply {
  if (flavor === "vllm")
    return { status: 400, body: { object: "error", message, type: "BadRequestError", param: null, code: 400 } };
  if (flavor === "jina") return { status: 422, body: { detail: message } };
  return { status: 400, body: { id: "fake-error-id", message } };
}

/** The flavour's answer for scored documents (`scores` best first unless `reordered`). */
function answerBody(
  flavor: RerankFlavor,
  scores: { index: number; score: number }[],
  documents: readonly string[],
  returnText: boolean,
  model: unknown,
): unknown {
  if (flavor === "tei")
    return scores.map((s) => ({ index: s.index, score: s.score, ...(returnText ? { text: documents[s.index] } : {}) }));
  const results = scores.map((s) => ({
    index: s.index,
    ...(returnText ? { document: { text: documents[s.index] } } : {}),
    relevance_score: s.score,
  }));
  const tokens = documents.reduce((n, d) => n + Math.ceil(d.length / 4), 0);
  switch (flavor) {
    case "cohere-v2":
      return { id: "fake-rerank-id", results, meta: { api_version: { version: "2" }, billed_units: { search_units: 1 } } };
    case "cohere-v1":
      return { id: "fake-rerank-id", results, meta: { api_version: { version: "1" }, billed_units: { search_units: 1 } } };
    case "jina":
      return { model, usage: { total_tokens: tokens }, results };
    case "vllm":
      return {
        id: "rerank-fake",
        model: typeof model === "string" ? model : "fake-cross-encoder",
        usage: { total_tokens: tokens },
        results,
      };
  }
}

export async function startFakeReranker(options: FakeRerankerOptions = {}): Promise<FakeReranker> {
  const flavor = options.flavor ?? "vllm";
  const requests: FakeRerankRequest[] = [];
  let queue: FakeRerankAnswer[] = [];
  const sockets = new Set<import("node:net").Socket>();

  const send = (res: http.ServerResponse, status: number, body: unknown) => {
    if (res.writableEnded || res.destroyed) return;
    const text = typeof body === "string" ? body : JSON.stringify(body);
    res.writeHead(status, { "content-type": typeof body === "string" ? "text/plain; charset=utf-8" : "application/json" });
    res.end(text);
  };

  const answer = (res: http.ServerResponse, req: FakeRerankRequest, scripted: FakeRerankAnswer | undefined) => {
    if (scripted && "delayMs" in scripted) {
      const timer = setTimeout(() => answer(res, req, scripted.then), scripted.delayMs);
      res.once("close", () => clearTimeout(timer));
      return;
    }
    if (scripted && "status" in scripted) return send(res, scripted.status, scripted.body ?? { message: "scripted failure" });
    const parsed = readRequest(flavor, req.body);
    if ("status" in parsed) return send(res, parsed.status, parsed.body);
    const { query, documents, topN, returnText } = parsed;
    if (options.maxBatch !== undefined && documents.length > options.maxBatch) {
      return send(res, 413, {
        error: `batch size ${documents.length} > maximum allowed batch size ${options.maxBatch}`,
        error_type: "Validation",
      });
    }
    if (!scripted) {
      if (query.includes("timeout-please")) return answer(res, req, { delayMs: RERANK_TIMEOUT_PLEASE_DELAY_MS });
      if (query.includes("error-please")) return send(res, 500, { message: "the fake reranker was asked to fail" });
      if (query.includes("garbage-please")) return send(res, 200, "this is not json");
    }
    const explicit = scripted && "scores" in scripted ? scripted.scores : undefined;
    const scores = documents.map((d, index) => ({ index, score: explicit ? (explicit[index] ?? 0) : fakeRelevance(query, d) }));
    scores.sort((a, b) => b.score - a.score || a.index - b.index);
    const top = scores.slice(0, topN ?? scores.length);
    if (scripted && "reordered" in scripted && scripted.reordered) top.sort((a, b) => a.index - b.index);
    const model = typeof req.body === "object" ? req.body.model : undefined;
    send(res, 200, answerBody(flavor, top, documents, returnText, model));
  };

  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      const raw = Buffer.concat(chunks).toString("utf8");
      let body: FakeRerankRequest["body"];
      try {
        body = JSON.parse(raw) as FakeRerankRequest["body"];
      } catch {
        body = raw;
      }
      const path = (req.url ?? "").split("?")[0]!;
      const record: FakeRerankRequest = { method: req.method ?? "", path, headers: req.headers, body };
      if (!ROUTES[flavor].paths.includes(path)) return send(res, 404, flavor === "tei" ? "" : { message: "not found" });
      if (req.method !== "POST") return send(res, 405, "");
      requests.push(record);
      if (options.requireKey && req.headers.authorization !== `Bearer ${options.requireKey}`) {
        return send(res, 401, { message: "invalid api token" });
      }
      answer(res, record, queue.shift());
    });
  });
  server.on("connection", (socket) => {
    sockets.add(socket);
    socket.once("close", () => sockets.delete(socket));
  });
  await new Promise<void>((resolve) => server.listen(options.port ?? 0, "127.0.0.1", resolve));
  const port = (server.address() as AddressInfo).port;
  const origin = `http://127.0.0.1:${port}`;
  return {
    flavor,
    baseUrl: `${origin}${ROUTES[flavor].base}`,
    origin,
    port,
    requests,
    setNext: (...answers) => queue.push(...answers),
    reset: () => {
      queue = [];
      requests.length = 0;
    },
    close: () =>
      new Promise<void>((resolve) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve());
      }),
  };
}

runDoubleAsScript(import.meta.url, "fake-reranker", async (args) => {
  const port = portArg(args);
  const requireKey = argValue(args, "--key");
  const flavor = argValue(args, "--flavor") ?? "vllm";
  if (!RERANK_FLAVORS.includes(flavor as RerankFlavor)) {
    throw new DoubleUsageError(`--flavor must be one of ${RERANK_FLAVORS.join(", ")}, got "${flavor}"`);
  }
  const double = await startFakeReranker({ port, flavor: flavor as RerankFlavor, ...(requireKey ? { requireKey } : {}) });
  return { double, url: double.baseUrl };
});
