/**
 * A loopback test double for an OpenAI-compatible LLM (docs/ARCHITECTURE.md "Tests"): a real HTTP server on
 * 127.0.0.1 speaking the chat-completions protocol as OpenAI publishes it, so the real selector
 * client is what runs. Strict where OpenAI is: a body without `model` or `messages`, a message
 * without `role`, or a key OpenAI does not know (`Unrecognized request argument supplied`) is a 400
 * in OpenAI's error envelope. Its answers carry what real servers add beside the answer
 * (`system_fingerprint`, `service_tier`, `logprobs: null`, `annotations`, usage details), and one
 * fixture per answer variant seen from OpenAI-compatible servers: `content` as a string, as an
 * array of parts (`parts`: `thinking` + `text`, as some servers answer for reasoning models),
 * `reasoning_content` beside the content with `tool_calls: []` (vLLM, DeepSeek, llama.cpp), a
 * refusal.
 *
 * In tests:
 *
 * ```ts
 * const llm = await startFakeLlm();            // port 0: a free port
 * llm.setNext({ content: '{"keep": ["m1"]}' }); // scripted answers, consumed in order
 * // … point the client at llm.baseUrl (…/v1) …
 * llm.requests[0].body.messages               // what the client sent
 * await llm.close();
 * ```
 *
 * As a script (for Playwright's `webServer`): `node --import tsx tests/support/fake-llm.ts
 * --port 4011 [--key secret]` runs until SIGTERM/SIGINT and prints
 * `fake-llm listening on http://127.0.0.1:4011/v1` once ready.
 *
 * With no scripted answer queued, the default behaviour reads the prompt (the format of
 * `buildSelectorPrompt`) and keeps the first two ids of the page, unless the query contains one
 * of these words:
 * - `timeout-please`: answers only after {@link TIMEOUT_PLEASE_DELAY_MS} (past any client timeout);
 * - `error-please`: HTTP 500;
 * - `refuse-please`: a refusal (`message.refusal`, `content: null`);
 * - `garbage-please`: prose without JSON;
 * - `drop-all-please`: `{"keep": []}`;
 * - `keep-all-please`: every id of the page;
 * - `invent-id-please`: the first id of the page and `"mem-invented-by-llm"`, which is on no page;
 * - `parts-please`: the first two ids as content parts (`thinking`, then `text`);
 * - `fenced-please`: the first two ids in a ```json fence after a line of prose;
 * - `reasoning-please`: the first two ids, with `reasoning_content` beside them.
 *
 * Standalone on purpose: only node built-ins, no app imports.
 */
import http, { type IncomingHttpHeaders } from "node:http";
import type { AddressInfo } from "node:net";
import { argValue, portArg, runDoubleAsScript, type ScriptedDouble } from "./run-double";

export interface FakeUsage {
  prompt_tokens?: number;
  completion_tokens?: number;
  total_tokens?: number;
}

/** One part of an array `content`: `text` is the answer, other types (`thinking`…) are not. */
export type FakeContentPart =
  { type: "text"; text: string } | { type: "thinking"; thinking: string } | { type: string; [key: string]: unknown };

export type FakeAnswer =
  /**
   * A normal completion. `usage: null` omits the usage block; by default it is estimated (chars / 4).
   * `reasoningContent` adds `message.reasoning_content` (and `tool_calls: []`), as reasoning servers answer.
   */
  | { content: string | null; finishReason?: string; usage?: FakeUsage | null; reasoningContent?: string }
  /** `message.content` as an array of parts. */
  | { parts: FakeContentPart[]; finishReason?: string; usage?: FakeUsage | null }
  /** A refusal: `message.refusal` set, `content: null`. */
  | { refusal: string; usage?: FakeUsage | null }
  /** Any status with a body: a string is sent as-is (text/plain), anything else as JSON; default an OpenAI-style error. */
  | { status: number; body?: unknown }
  /** Waits, then gives `then` (default: the default behaviour). The wait ends early if the client goes away. */
  | { delayMs: number; then?: FakeAnswer };

export interface FakeLlmRequest {
  method: string;
  path: string;
  headers: IncomingHttpHeaders;
  /** The parsed JSON body, or the raw text when it is not JSON. */
  body: unknown;
  /** From the last user message, when it follows the selector prompt format. */
  query: string | null;
  pageIds: string[];
}

/** Its `requests` are the chat-completions requests received. */
export interface FakeLlm extends ScriptedDouble<FakeLlmRequest, FakeAnswer> {
  /** `http://127.0.0.1:<port>/v1`: what `SELECTOR_LLM_BASE_URL` should be. */
  baseUrl: string;
}

export interface FakeLlmOptions {
  port?: number;
  host?: string;
  /** When set, requests without `authorization: Bearer <requireKey>` get a 401. */
  requireKey?: string;
}

/** The id `invent-id-please` adds to its keep list. */
export const INVENTED_ID = "mem-invented-by-llm";

/** How long `timeout-please` makes the default behaviour wait (longer than the client's max timeout). */
export const TIMEOUT_PLEASE_DELAY_MS = 610_000;

/** Reads the query and the page ids out of a selector prompt's user message. */
export function parsePrompt(user: string): { query: string | null; pageIds: string[] } {
  const literal = String.raw`("(?:[^"\\\n]|\\.)*")`;
  const queryMatch = new RegExp(String.raw`^Query: ${literal}$`, "m").exec(user);
  const pageIds = [...user.matchAll(new RegExp(String.raw`^\d+\. id: ${literal}$`, "gm"))].map(
    (m) => JSON.parse(m[1]!) as string,
  );
  return { query: queryMatch ? (JSON.parse(queryMatch[1]!) as string) : null, pageIds };
}

/** What the server answers when no answer is queued (see the module comment). */
export function defaultAnswer(query: string | null, pageIds: readonly string[]): FakeAnswer {
  const q = query ?? "";
  if (q.includes("timeout-please")) return { delayMs: TIMEOUT_PLEASE_DELAY_MS, then: keep(pageIds.slice(0, 2)) };
  if (q.includes("error-please"))
    return { status: 500, body: { error: { message: "fake-llm: error-please", type: "server_error" } } };
  if (q.includes("refuse-please")) return { refusal: "I can't help with that." };
  if (q.includes("garbage-please")) return { content: "I think the first ones look relevant, honestly." };
  if (q.includes("drop-all-please")) return keep([]);
  if (q.includes("keep-all-please")) return keep(pageIds);
  if (q.includes("invent-id-please")) return keep([...pageIds.slice(0, 1), INVENTED_ID]);
  if (q.includes("parts-please")) {
    return {
      parts: [
        { type: "thinking", thinking: "The first two look relevant." },
        { type: "text", text: JSON.stringify({ keep: pageIds.slice(0, 2) }) },
      ],
    };
  }
  if (q.includes("fenced-please")) {
    return { content: `Here is my selection:\n\n\`\`\`json\n${JSON.stringify({ keep: pageIds.slice(0, 2) }, null, 2)}\n\`\`\`` };
  }
  if (q.includes("reasoning-please")) {
    return { content: JSON.stringify({ keep: pageIds.slice(0, 2) }), reasoningContent: `Maybe ${pageIds.at(-1)} too? No.` };
  }
  return keep(pageIds.slice(0, 2));
}

function keep(ids: readonly string[]): FakeAnswer {
  return { content: JSON.stringify({ keep: ids }) };
}

function lastUserMessage(body: unknown): string {
  const messages = (body as { messages?: unknown } | null)?.messages;
  if (!Array.isArray(messages)) return "";
  const users = messages.filter(
    (m): m is { role: "user"; content: string } => m?.role === "user" && typeof m.content === "string",
  );
  return users.at(-1)?.content ?? "";
}

function estimateTokens(text: string): number {
  return Math.max(1, Math.ceil(text.length / 4));
}

/** Chat-completions request keys OpenAI knows (any other is refused, as OpenAI refuses it). */
const CHAT_KEYS = new Set([
  "model",
  "messages",
  "temperature",
  "top_p",
  "n",
  "stream",
  "stream_options",
  "stop",
  "max_tokens",
  "max_completion_tokens",
  "presence_penalty",
  "frequency_penalty",
  "logit_bias",
  "logprobs",
  "top_logprobs",
  "user",
  "response_format",
  "seed",
  "tools",
  "tool_choice",
  "parallel_tool_calls",
  "reasoning_effort",
  "metadata",
  "store",
  "service_tier",
  "modalities",
  "audio",
  "prediction",
  "web_search_options",
]);

/** What OpenAI's API would refuse in the body, in its words, or null. */
function requestProblem(body: unknown): string | null {
  if (typeof body !== "object" || body === null || Array.isArray(body)) {
    return "We could not parse the JSON body of your request.";
  }
  const b = body as Record<string, unknown>;
  const unknown = Object.keys(b).find((k) => !CHAT_KEYS.has(k));
  if (unknown) return `Unrecognized request argument supplied: ${unknown}`;
  if (typeof b.model !== "string" || b.model === "") return "you must provide a model parameter";
  if (!Array.isArray(b.messages) || b.messages.length === 0) return "'messages' must contain at least one message.";
  for (const [i, m] of (b.messages as unknown[]).entries()) {
    const role = (m as { role?: unknown } | null)?.role;
    if (typeof role !== "string" || !["system", "developer", "user", "assistant", "tool"].includes(role)) {
      return `Invalid value for 'messages[${i}].role'.`;
    }
  }
  if (b.temperature !== undefined && (typeof b.temperature !== "number" || b.temperature < 0 || b.temperature > 2)) {
    return "Invalid 'temperature': must be a number in 0…2.";
  }
  return null;
}

export async function startFakeLlm(options: FakeLlmOptions = {}): Promise<FakeLlm> {
  const queue: FakeAnswer[] = [];
  const requests: FakeLlmRequest[] = [];
  const timers = new Set<NodeJS.Timeout>();
  let counter = 0;

  const sendJson = (res: http.ServerResponse, status: number, value: unknown) => {
    if (res.destroyed || res.writableEnded) return;
    res.writeHead(status, { "content-type": "application/json" });
    res.end(JSON.stringify(value));
  };

  const deliver = (res: http.ServerResponse, answer: FakeAnswer, request: FakeLlmRequest) => {
    if (res.destroyed || res.writableEnded) return;
    if ("delayMs" in answer) {
      const timer = setTimeout(() => {
        timers.delete(timer);
        deliver(res, answer.then ?? defaultAnswer(request.query, request.pageIds), request);
      }, answer.delayMs);
      timers.add(timer);
      res.on("close", () => {
        clearTimeout(timer);
        timers.delete(timer);
      });
      return;
    }
    if ("status" in answer) {
      if (typeof answer.body === "string") {
        res.writeHead(answer.status, { "content-type": "text/plain" });
        res.end(answer.body);
      } else {
        sendJson(
          res,
          answer.status,
          answer.body ?? { error: { message: `fake-llm: scripted ${answer.status}`, type: "fake_error" } },
        );
      }
      return;
    }
    const body = request.body as { model?: unknown; messages?: { content?: unknown }[] };
    const content = "refusal" in answer ? null : "parts" in answer ? answer.parts : answer.content;
    const promptChars = (body.messages ?? []).reduce((n, m) => n + (typeof m?.content === "string" ? m.content.length : 0), 0);
    const completion =
      typeof content === "string"
        ? content
        : Array.isArray(content)
          ? JSON.stringify(content)
          : "refusal" in answer
            ? answer.refusal
            : "";
    const estimated = { prompt_tokens: Math.max(1, Math.ceil(promptChars / 4)), completion_tokens: estimateTokens(completion) };
    const usage =
      answer.usage === null
        ? undefined
        : (answer.usage ?? { ...estimated, total_tokens: estimated.prompt_tokens + estimated.completion_tokens });
    counter += 1;
    const reasoning = "reasoningContent" in answer ? answer.reasoningContent : undefined;
    sendJson(res, 200, {
      id: `chatcmpl-fake-${counter}`,
      object: "chat.completion",
      created: Math.floor(Date.now() / 1000),
      model: typeof body.model === "string" ? body.model : "fake-llm",
      choices: [
        {
          index: 0,
          message: {
            role: "assistant",
            content,
            refusal: "refusal" in answer ? answer.refusal : null,
            annotations: [],
            ...(reasoning !== undefined ? { reasoning_content: reasoning, tool_calls: [] } : {}),
          },
          logprobs: null,
          finish_reason: "refusal" in answer ? "stop" : (answer.finishReason ?? "stop"),
        },
      ],
      ...(usage
        ? {
            usage: {
              ...usage,
              prompt_tokens_details: { cached_tokens: 0, audio_tokens: 0 },
              completion_tokens_details: { reasoning_tokens: 0, audio_tokens: 0 },
            },
          }
        : {}),
      service_tier: "default",
      system_fingerprint: "fp_fake0001",
    });
  };

  const server = http.createServer((req, res) => {
    const url = new URL(req.url ?? "/", "http://fake");
    if (req.method === "GET" && (url.pathname === "/health" || url.pathname === "/v1/models" || url.pathname === "/models")) {
      sendJson(
        res,
        200,
        url.pathname === "/health" ? { status: "ok" } : { object: "list", data: [{ id: "fake-llm", object: "model" }] },
      );
      return;
    }
    if (url.pathname !== "/v1/chat/completions" && url.pathname !== "/chat/completions") {
      sendJson(res, 404, { error: { message: `fake-llm: no route ${req.method} ${url.pathname}`, type: "not_found" } });
      return;
    }
    if (req.method !== "POST") {
      sendJson(res, 405, { error: { message: "fake-llm: POST only", type: "invalid_request_error" } });
      return;
    }
    const chunks: Buffer[] = [];
    req.on("data", (chunk: Buffer) => chunks.push(chunk));
    req.on("end", () => {
      const raw = Buffer.concat(chunks).toString("utf8");
      let body: unknown = raw;
      try {
        body = JSON.parse(raw);
      } catch {
        // recorded as text
      }
      const { query, pageIds } = parsePrompt(lastUserMessage(body));
      const request: FakeLlmRequest = {
        method: req.method ?? "POST",
        path: url.pathname,
        headers: req.headers,
        body,
        query,
        pageIds,
      };
      requests.push(request);

      if (options.requireKey !== undefined && req.headers.authorization !== `Bearer ${options.requireKey}`) {
        sendJson(res, 401, {
          error: { message: "fake-llm: invalid API key", type: "invalid_request_error", code: "invalid_api_key" },
        });
        return;
      }
      const problem = requestProblem(body);
      if (problem) {
        sendJson(res, 400, { error: { message: problem, type: "invalid_request_error", param: null, code: null } });
        return;
      }
      deliver(res, queue.shift() ?? defaultAnswer(query, pageIds), request);
    });
  });

  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(options.port ?? 0, options.host ?? "127.0.0.1", () => {
      server.off("error", reject);
      resolve();
    });
  });
  const { port } = server.address() as AddressInfo;
  const host = options.host ?? "127.0.0.1";

  return {
    baseUrl: `http://${host}:${port}/v1`,
    port,
    requests,
    setNext: (...answers) => void queue.push(...answers),
    reset() {
      queue.length = 0;
      requests.length = 0;
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

runDoubleAsScript(import.meta.url, "fake-llm", async (args) => {
  const port = portArg(args);
  const requireKey = argValue(args, "--key");
  const double = await startFakeLlm({ port, ...(requireKey ? { requireKey } : {}) });
  return { double, url: double.baseUrl };
});
