/**
 * A loopback test double for the OpenAI embeddings API (docs/ARCHITECTURE.md "Tests"), written
 * from its published schema and strict where it is strict, so the real client
 * (lib/embeddings/openai-compatible.ts) is what runs:
 *
 * - `POST /v1/embeddings` with `{input: string | string[], model, encoding_format?: "float" |
 *   "base64", dimensions?, user?}`; any other key is a 400 ("Unrecognized request argument
 *   supplied"), as OpenAI answers; a missing `model` or `input`, an empty string input, more than
 *   2048 inputs or `dimensions` above the model's size are 400s with OpenAI's error envelope
 *   `{error: {message, type, param, code}}`;
 * - the answer `{object: "list", data: [{object: "embedding", index, embedding}], model, usage:
 *   {prompt_tokens, total_tokens}}`; `embedding` is base64 of little-endian float32s when
 *   `encoding_format: "base64"` was asked (what the `openai` npm package asks by default).
 *
 * A fixture per real answer variant (`variant`): `openai` (above), `reordered` (the same rows,
 * last first: the index, not the position, says which input a row is), `llamacpp` (llama.cpp
 * server: extra keys, no `usage.prompt_tokens`, each row with extra fields).
 *
 * The vector of a text is deterministic and meaningful enough to recall with: hashed words
 * (lower case, 3+ characters) into `dimensions` buckets, so texts sharing words are close.
 *
 * As a script: `node --import tsx tests/support/fake-embeddings.ts --port 4031 [--dimensions 64]
 * [--key secret]` prints `fake-embeddings listening on http://127.0.0.1:4031/v1` once ready.
 *
 * Standalone on purpose: only node built-ins, no app imports.
 */
import http, { type IncomingHttpHeaders } from "node:http";
import type { AddressInfo } from "node:net";
import { argValue, portArg, runDoubleAsScript, type ScriptedDouble } from "./run-double";

export type FakeEmbeddingsVariant = "openai" | "reordered" | "llamacpp";

export type FakeEmbeddingsAnswer =
  /** Any status with a body: a string is sent as-is, anything else as JSON. */
  { status: number; body?: unknown };

export interface FakeEmbeddingsRequest {
  method: string;
  path: string;
  headers: IncomingHttpHeaders;
  body: unknown;
}

export interface FakeEmbeddings extends ScriptedDouble<FakeEmbeddingsRequest, FakeEmbeddingsAnswer> {
  /** `http://127.0.0.1:<port>/v1`: what `EMBEDDINGS_BASE_URL` should be. */
  baseUrl: string;
}

export interface FakeEmbeddingsOptions {
  port?: number;
  /** The model's vector size (a request's `dimensions` may shorten it). Default 64. */
  dimensions?: number;
  /** When set, requests without `Authorization: Bearer <requireKey>` get OpenAI's 401. */
  requireKey?: string;
  variant?: FakeEmbeddingsVariant;
}

/** OpenAI's limit on inputs a request. */
export const FAKE_EMBEDDINGS_MAX_INPUTS = 2048;
const KNOWN_KEYS = new Set(["input", "model", "encoding_format", "dimensions", "user"]);

/** The double's vector for a text: hashed words, unit length (exported so tests predict neighbours). */
export function fakeEmbedding(text: string, dimensions: number): number[] {
  const vector = new Array<number>(dimensions).fill(0);
  for (const word of text.toLowerCase().match(/[a-z0-9]{3,}/g) ?? []) {
    let hash = 2166136261;
    for (let i = 0; i < word.length; i++) hash = Math.imul(hash ^ word.charCodeAt(i), 16777619) >>> 0;
    vector[hash % dimensions]! += 1;
  }
  if (!vector.some((v) => v !== 0)) vector[0] = 1;
  const norm = Math.sqrt(vector.reduce((s, v) => s + v * v, 0));
  return vector.map((v) => v / norm);
}

function invalid(message: string, param: string | null, code: string | null = null) {
  return { status: 400, body: { error: { message, type: "invalid_request_error", param, code } } };
}

/** The request's problem as OpenAI words it, or null. */
function requestProblem(body: unknown, modelDims: number): FakeEmbeddingsAnswer | null {
  if (typeof body !== "object" || body === null || Array.isArray(body)) {
    return invalid("We could not parse the JSON body of your request.", null);
  }
  const b = body as Record<string, unknown>;
  const unknown = Object.keys(b).find((k) => !KNOWN_KEYS.has(k));
  if (unknown) return invalid(`Unrecognized request argument supplied: ${unknown}`, null);
  if (typeof b.model !== "string" || b.model === "") return invalid("you must provide a model parameter", null);
  if (b.input === undefined) return invalid("'input' is a required property", null);
  const inputs = typeof b.input === "string" ? [b.input] : b.input;
  if (!Array.isArray(inputs) || inputs.length === 0 || inputs.some((t) => typeof t !== "string" || t === "")) {
    return invalid("'$.input' is invalid. Please check the API reference: https://platform.openai.com/docs/api-reference.", null);
  }
  if (inputs.length > FAKE_EMBEDDINGS_MAX_INPUTS) {
    return invalid(`'$.input' is too long: ${inputs.length} > ${FAKE_EMBEDDINGS_MAX_INPUTS} inputs.`, "input");
  }
  if (b.encoding_format !== undefined && b.encoding_format !== "float" && b.encoding_format !== "base64") {
    return invalid(`'${String(b.encoding_format)}' is not one of ['float', 'base64'] - 'encoding_format'`, "encoding_format");
  }
  if (b.dimensions !== undefined) {
    if (!Number.isInteger(b.dimensions) || (b.dimensions as number) < 1 || (b.dimensions as number) > modelDims) {
      return invalid(`This model's dimensions must be in 1…${modelDims}.`, "dimensions");
    }
  }
  if (b.user !== undefined && typeof b.user !== "string") return invalid("'user' must be a string", "user");
  return null;
}

function base64Floats(values: readonly number[]): string {
  const buffer = Buffer.alloc(values.length * 4);
  values.forEach((v, i) => buffer.writeFloatLE(v, i * 4));
  return buffer.toString("base64");
}

export async function startFakeEmbeddings(options: FakeEmbeddingsOptions = {}): Promise<FakeEmbeddings> {
  const modelDims = options.dimensions ?? 64;
  const variant = options.variant ?? "openai";
  const requests: FakeEmbeddingsRequest[] = [];
  let queue: FakeEmbeddingsAnswer[] = [];

  const send = (res: http.ServerResponse, status: number, body: unknown) => {
    if (res.writableEnded || res.destroyed) return;
    const text = typeof body === "string" ? body : JSON.stringify(body);
    res.writeHead(status, { "content-type": typeof body === "string" ? "text/plain" : "application/json" });
    res.end(text);
  };

  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      const path = (req.url ?? "").split("?")[0];
      if (path !== "/v1/embeddings") {
        return send(res, 404, { error: { message: `Invalid URL (${req.method} ${path})`, type: "invalid_request_error" } });
      }
      if (req.method !== "POST")
        return send(res, 405, { error: { message: "Method not allowed", type: "invalid_request_error" } });
      const raw = Buffer.concat(chunks).toString("utf8");
      let body: unknown = raw;
      try {
        body = JSON.parse(raw);
      } catch {
        // recorded as text; refused below
      }
      requests.push({ method: req.method, path, headers: req.headers, body });
      if (options.requireKey !== undefined) {
        const auth = req.headers.authorization;
        if (auth === undefined) {
          return send(res, 401, {
            error: { message: "You didn't provide an API key.", type: "invalid_request_error", param: null, code: null },
          });
        }
        if (auth !== `Bearer ${options.requireKey}`) {
          return send(res, 401, {
            error: {
              message: "Incorrect API key provided.",
              type: "invalid_request_error",
              param: null,
              code: "invalid_api_key",
            },
          });
        }
      }
      const scripted = queue.shift();
      if (scripted) return send(res, scripted.status, scripted.body ?? { error: { message: "scripted failure" } });
      const problem = requestProblem(body, modelDims);
      if (problem) return send(res, problem.status, problem.body);
      const b = body as { input: string | string[]; model: string; encoding_format?: string; dimensions?: number };
      const inputs = typeof b.input === "string" ? [b.input] : b.input;
      const dims = b.dimensions ?? modelDims;
      let data = inputs.map((text, index) => {
        const vector = fakeEmbedding(text, modelDims).slice(0, dims);
        const embedding = b.encoding_format === "base64" ? base64Floats(vector) : vector;
        return variant === "llamacpp"
          ? { index, embedding, object: "embedding", tokens: text.length }
          : { object: "embedding", index, embedding };
      });
      if (variant === "reordered") data = [...data].reverse();
      const tokens = inputs.reduce((n, t) => n + Math.max(1, Math.ceil(t.length / 4)), 0);
      send(
        res,
        200,
        variant === "llamacpp"
          ? { model: b.model, object: "list", usage: { total_tokens: tokens }, data, timings: { prompt_ms: 1.5 } }
          : { object: "list", data, model: b.model, usage: { prompt_tokens: tokens, total_tokens: tokens } },
      );
    });
  });
  await new Promise<void>((resolve) => server.listen(options.port ?? 0, "127.0.0.1", resolve));
  const port = (server.address() as AddressInfo).port;
  return {
    baseUrl: `http://127.0.0.1:${port}/v1`,
    port,
    requests,
    setNext: (...answers) => void queue.push(...answers),
    reset: () => {
      queue = [];
      requests.length = 0;
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}

runDoubleAsScript(import.meta.url, "fake-embeddings", async (args) => {
  const port = portArg(args);
  const requireKey = argValue(args, "--key");
  const dimensions = Number(argValue(args, "--dimensions") ?? 64);
  const double = await startFakeEmbeddings({ port, dimensions, ...(requireKey ? { requireKey } : {}) });
  return { double, url: double.baseUrl };
});
