/**
 * A loopback test double for a reranker speaking the common `/rerank` protocol (docs/ARCHITECTURE.md
 * "Tests"): a real HTTP server on 127.0.0.1, so the real client (lib/rerank/client.ts) is what runs.
 * Request `{model, query, documents, top_n}`; answer Cohere-style `{results: [{index,
 * relevance_score}]}`, best first, `top_n` of them.
 *
 * ```ts
 * const reranker = await startFakeReranker();          // port 0: a free port
 * reranker.setNext({ status: 500 });                  // scripted answers, consumed in order
 * // … RERANK_BASE_URL = reranker.baseUrl …
 * reranker.requests[0].body.documents                 // what the client sent
 * await reranker.close();
 * ```
 *
 * As a script (for Playwright's `webServer`): `node --import tsx tests/support/fake-reranker.ts
 * --port 4021 [--key secret]` runs until SIGTERM/SIGINT and prints `fake-reranker listening on
 * http://127.0.0.1:4021` once ready.
 *
 * The default relevance of a document is deterministic and easy to predict in a test: the share of
 * the query's words (lower case, 3+ letters) the document contains, plus 0.001 × its length in
 * characters capped at 0.0999 (so ties are rare and longer documents win them). The query may ask
 * for a failure with one of these words:
 * - `timeout-please`: answers only after {@link RERANK_TIMEOUT_PLEASE_DELAY_MS};
 * - `error-please`: HTTP 500 with a JSON error;
 * - `garbage-please`: a 200 whose body is not JSON;
 * - `bare-please`: text-embeddings-inference's bare array `[{index, score}]` instead of Cohere's shape.
 *
 * Standalone on purpose: only node built-ins, no app imports.
 */
import http, { type IncomingHttpHeaders } from "node:http";
import type { AddressInfo } from "node:net";
import { argValue, portArg, runDoubleAsScript, type ScriptedDouble } from "./run-double";

export const RERANK_TIMEOUT_PLEASE_DELAY_MS = 15_000;

export type FakeRerankAnswer =
  /** Any status with a body: a string is sent as-is, anything else as JSON. */
  | { status: number; body?: unknown }
  /** Explicit relevance per document index (Cohere shape unless `bare`). */
  | { scores: Record<number, number>; bare?: boolean }
  /** Waits, then gives `then` (default: the default behaviour). */
  | { delayMs: number; then?: FakeRerankAnswer };

export interface FakeRerankRequest {
  method: string;
  path: string;
  headers: IncomingHttpHeaders;
  body: { model?: string; query?: string; documents?: string[]; top_n?: number } | string;
}

export interface FakeReranker extends ScriptedDouble<FakeRerankRequest, FakeRerankAnswer> {
  /** `http://127.0.0.1:<port>`: what `RERANK_BASE_URL` should be (the client posts to `/rerank`). */
  baseUrl: string;
}

/** The default relevance of a document for a query (exported so tests predict the order). */
export function fakeRelevance(query: string, document: string): number {
  const words = [...new Set(query.toLowerCase().match(/[a-z0-9]{3,}/g) ?? [])];
  const text = document.toLowerCase();
  const share = words.length === 0 ? 0 : words.filter((w) => text.includes(w)).length / words.length;
  return share + Math.min(0.0999, document.length * 0.001);
}

export async function startFakeReranker(
  options: {
    port?: number;
    requireKey?: string;
    /** Refuse more documents a request, as text-embeddings-inference does. */ maxBatch?: number;
  } = {},
): Promise<FakeReranker> {
  const requests: FakeRerankRequest[] = [];
  let queue: FakeRerankAnswer[] = [];
  const sockets = new Set<import("node:net").Socket>();

  const send = (res: http.ServerResponse, status: number, body: unknown) => {
    if (res.writableEnded || res.destroyed) return;
    const text = typeof body === "string" ? body : JSON.stringify(body);
    res.writeHead(status, { "content-type": typeof body === "string" ? "text/plain" : "application/json" });
    res.end(text);
  };

  const answer = (res: http.ServerResponse, req: FakeRerankRequest, scripted: FakeRerankAnswer | undefined) => {
    const body = typeof req.body === "object" ? req.body : {};
    const documents = Array.isArray(body.documents) ? body.documents : [];
    const query = typeof body.query === "string" ? body.query : "";
    const topN = typeof body.top_n === "number" ? body.top_n : documents.length;
    if (scripted && "delayMs" in scripted) {
      const timer = setTimeout(() => answer(res, req, scripted.then), scripted.delayMs);
      res.once("close", () => clearTimeout(timer));
      return;
    }
    if (scripted && "status" in scripted) return send(res, scripted.status, scripted.body ?? { message: "scripted failure" });
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
    const scores = documents.map((d, index) => ({
      index,
      score: scripted && "scores" in scripted ? (scripted.scores[index] ?? 0) : fakeRelevance(query, d),
    }));
    scores.sort((a, b) => b.score - a.score || a.index - b.index);
    const top = scores.slice(0, Math.max(0, topN));
    const bare = (scripted && "scores" in scripted && scripted.bare) || (!scripted && query.includes("bare-please"));
    send(res, 200, bare ? top : { results: top.map((s) => ({ index: s.index, relevance_score: s.score })) });
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
      const record: FakeRerankRequest = { method: req.method ?? "", path: req.url ?? "", headers: req.headers, body };
      if (req.method !== "POST" || (req.url ?? "").split("?")[0] !== "/rerank") return send(res, 404, { message: "not found" });
      requests.push(record);
      if (options.requireKey && req.headers.authorization !== `Bearer ${options.requireKey}`) {
        return send(res, 401, { message: "invalid api key" });
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
  return {
    baseUrl: `http://127.0.0.1:${port}`,
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
  const double = await startFakeReranker({ port, ...(requireKey ? { requireKey } : {}) });
  return { double, url: double.baseUrl };
});
