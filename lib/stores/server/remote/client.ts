/**
 * HTTP client for the reference memory service's REST API (docs/memory-service-api.md):
 * recall, memory list, stats, and a health probe.
 *
 * - Every call has a timeout (`AbortSignal.timeout`, combined with the caller's signal); the
 *   body read is covered too.
 * - Nothing is retried: a recall is not idempotent (it bumps access stats and may promote
 *   memories), and the list/stats calls are cheap enough to leave retrying to the caller.
 * - Failures become `StoreError`s whose messages say what to do; they name the store, the
 *   address and the variable to change, and never contain the API key or the query.
 * - Redirects are not followed (`redirect: "manual"`), so the key is never sent to another address.
 * - Cancellation by the caller's signal rejects with the signal's reason (an `AbortError`).
 */
import { z } from "zod";
import { round3 } from "@/lib/recall/numeric";
import { RecallRequestSchema, type RecallResponse } from "@/lib/recall/schemas";
import { decodeRecallResponse } from "@/lib/recall/wire";
import { StoreError } from "@/lib/stores/types";
import { describeProblem, untrustedJsonProblem } from "@/lib/validation/input-rules";
import { AnswerTooLarge, capitalize, issueText, MAX_REMOTE_ANSWER_BYTES, readCappedText } from "./answer-reading";
import type { RemoteStoreConfig } from "./config";
import { describeStore, httpError, timedOut, tooLarge, unreachable } from "./remote-errors";
import {
  LIST_PATH,
  RECALL_PATH,
  RemoteMemoryListSchema,
  RemoteMemoryStatsSchema,
  STATS_PATH,
  type RemoteCallOptions,
  type RemoteHealth,
  type RemoteListParams,
  type RemoteMemoryList,
  type RemoteMemoryStats,
  type RemoteRecallAnswer,
  type RemoteRecallParams,
} from "./service-api";

/** Timeout of a health probe, capped by the store's own timeout. */
export const HEALTH_TIMEOUT_MS = 5_000;

export interface RemoteMemoryServiceOptions {
  fetch?: typeof fetch;
}

// ---------------------------------------------------------------------------------------------
// The client

interface Exchange {
  status: number;
  ms: number;
  json: unknown;
}

export class RemoteMemoryService {
  private readonly fetch: typeof fetch;

  constructor(
    readonly config: RemoteStoreConfig,
    options: RemoteMemoryServiceOptions = {},
  ) {
    this.fetch = options.fetch ?? globalThis.fetch;
  }

  /**
   * `POST /api/v1/memory/recall`. Never retried: each call bumps the returned memories' access
   * stats on the service.
   */
  async recall(params: RemoteRecallParams, options: RemoteCallOptions | AbortSignal = {}): Promise<RemoteRecallAnswer> {
    const opts = options instanceof AbortSignal ? { signal: options } : options;
    const body = this.recallBody(params);
    const exchange = await this.exchange("POST", RECALL_PATH, { body, ...opts, what: "recall" });
    return { ...this.decodeRecall(exchange.json), ms: exchange.ms };
  }

  /** `GET /api/v1/memory/list` for the configured context. */
  async list(params: RemoteListParams = {}, options: RemoteCallOptions | AbortSignal = {}): Promise<RemoteMemoryList> {
    const opts = options instanceof AbortSignal ? { signal: options } : options;
    const query = new URLSearchParams({ context_id: this.config.contextId });
    const problems: string[] = [];
    if (params.q !== undefined) {
      if (params.q.length > 200) problems.push("q is longer than 200 characters");
      else if (params.q.trim() !== "") query.set("q", params.q);
    }
    if (params.limit !== undefined) {
      if (!Number.isInteger(params.limit) || params.limit < 1 || params.limit > 500)
        problems.push("limit must be a whole number from 1 to 500");
      else query.set("limit", String(params.limit));
    }
    if (params.offset !== undefined) {
      if (!Number.isInteger(params.offset) || params.offset < 0) problems.push("offset must be a whole number ≥ 0");
      else query.set("offset", String(params.offset));
    }
    if (params.type) query.set("type", params.type);
    if (params.scope) query.set("scope", params.scope);
    for (const tag of params.tags ?? []) if (tag) query.append("tags", tag);
    if (params.tags_match) query.set("tags_match", params.tags_match);
    if (params.order_by) query.set("order_by", params.order_by);
    if (problems.length > 0) {
      throw new StoreError(
        422,
        "invalid_list_request",
        `Cannot list the memories of ${this.describe()}: ${problems.join("; ")}.`,
        {
          store: this.config.name,
        },
      );
    }
    const exchange = await this.exchange("GET", LIST_PATH, { query, ...opts, what: "list" });
    return this.decode(RemoteMemoryListSchema, exchange.json, "a memory list");
  }

  /** `GET /api/v1/memory/stats?context_id=` for the configured context. */
  async stats(options: RemoteCallOptions | AbortSignal = {}): Promise<RemoteMemoryStats> {
    const opts = options instanceof AbortSignal ? { signal: options } : options;
    const query = new URLSearchParams({ context_id: this.config.contextId });
    const exchange = await this.exchange("GET", STATS_PATH, { query, ...opts, what: "stats" });
    return this.decode(RemoteMemoryStatsSchema, exchange.json, "memory stats");
  }

  /**
   * Whether the service is reachable and accepts the key for the context: a stats call (cheap,
   * no side effects) with a short timeout. Never throws, except on the caller's cancellation.
   */
  async health(options: RemoteCallOptions | AbortSignal = {}): Promise<RemoteHealth> {
    const opts = options instanceof AbortSignal ? { signal: options } : options;
    const started = performance.now();
    const latency = () => round3(performance.now() - started);
    try {
      const stats = await this.stats({
        ...opts,
        timeoutMs: opts.timeoutMs ?? Math.min(this.config.timeoutMs, HEALTH_TIMEOUT_MS),
      });
      return { ok: true, latency_ms: latency(), memories: stats.total_count };
    } catch (error) {
      if (error instanceof StoreError) {
        return { ok: false, latency_ms: latency(), status: error.status, code: error.code, message: error.message };
      }
      throw error;
    }
  }

  // -------------------------------------------------------------------------------------------

  private describe(): string {
    return describeStore(this.config);
  }

  private recallBody(params: RemoteRecallParams): Record<string, unknown> {
    const { context_id: contextId, ...filters } = (params.filters ?? {}) as Record<string, unknown>;
    if (contextId !== undefined && contextId !== null && contextId !== this.config.contextId) {
      throw new StoreError(
        422,
        "invalid_recall_request",
        `The remote store "${this.config.name}" is bound to context ${this.config.contextId}; a recall cannot choose another context.`,
        { store: this.config.name },
      );
    }
    const cleanFilters: Record<string, unknown> = {};
    for (const [key, value] of Object.entries(filters)) {
      if (value === undefined || value === null) continue;
      if (Array.isArray(value) && value.length === 0) continue;
      cleanFilters[key] = value;
    }
    const body: Record<string, unknown> = {
      query: params.query,
      k: params.k ?? 5,
      ...(params.search_mode ? { search_mode: params.search_mode } : {}),
      // Unset lets the service apply the context's own rerank setting (spec §2.2).
      ...(params.use_rerank === undefined ? {} : { use_rerank: params.use_rerank }),
      filters: { ...cleanFilters, context_id: this.config.contextId },
    };
    const checked = RecallRequestSchema.safeParse(body);
    if (!checked.success) {
      const problems = checked.error.issues.slice(0, 3).map((issue) => `${issue.path.join(".") || "request"}: ${issue.message}`);
      throw new StoreError(
        422,
        "invalid_recall_request",
        `This recall cannot be sent to ${this.describe()}: ${problems.join("; ")}.`,
        {
          store: this.config.name,
          issues: checked.error.issues.map((issue) => ({ path: issue.path.map(String), message: issue.message })),
        },
      );
    }
    return body;
  }

  private decodeRecall(json: unknown): { response: RecallResponse; warnings: string[] } {
    // One rule for every path (lib/recall/README.md "Wire translation"): a malformed selector
    // block is dropped with a warning rather than failing the recall.
    const decoded = decodeRecallResponse(json);
    if (decoded.success) return { response: decoded.response, warnings: decoded.warnings };
    throw this.badResponse("a RecallResponse", issueText(decoded.issues));
  }

  private decode<T extends z.ZodType>(schema: T, json: unknown, what: string): z.output<T> {
    const parsed = schema.safeParse(json);
    if (!parsed.success) throw this.badResponse(what, issueText(parsed.error.issues));
    return parsed.data;
  }

  private badResponse(what: string, why: string, extra: Record<string, unknown> = {}): StoreError {
    return new StoreError(
      502,
      "remote_bad_response",
      this.config.redact(`${capitalize(this.describe())} answered with something that is not ${what} (${why}).`),
      { store: this.config.name, ...extra },
    );
  }

  /** One HTTP exchange: the answer's JSON on 2xx, a StoreError otherwise. */
  private async exchange(
    method: "GET" | "POST",
    path: string,
    options: RemoteCallOptions & { body?: unknown; query?: URLSearchParams; what: string },
  ): Promise<Exchange> {
    const { signal } = options;
    signal?.throwIfAborted();
    const timeoutMs = options.timeoutMs ?? this.config.timeoutMs;
    const timeout = AbortSignal.timeout(timeoutMs);
    const combined = signal ? AbortSignal.any([signal, timeout]) : timeout;
    const url = `${this.config.baseUrl}${path}${options.query ? `?${options.query.toString()}` : ""}`;
    const headers: Record<string, string> = {
      authorization: this.config.authorizationHeader(),
      accept: "application/json",
    };
    if (options.body !== undefined) headers["content-type"] = "application/json";

    const started = performance.now();
    let response: Response;
    let text: string;
    try {
      response = await this.fetch(url, {
        method,
        headers,
        body: options.body === undefined ? undefined : JSON.stringify(options.body),
        signal: combined,
        redirect: "manual",
        cache: "no-store",
      });
      text = await readCappedText(response, MAX_REMOTE_ANSWER_BYTES);
    } catch (error) {
      if (signal?.aborted) throw signal.reason;
      if (error instanceof AnswerTooLarge) throw tooLarge(this.config, error.bytes);
      if (timeout.aborted) throw timedOut(this.config, timeoutMs, options.timeoutMs !== undefined);
      throw unreachable(this.config, error);
    }
    const ms = round3(performance.now() - started);

    if (response.status < 200 || response.status >= 300) throw httpError(this.config, response, text);
    const what = options.what === "recall" ? "a RecallResponse" : options.what === "list" ? "a memory list" : "memory stats";
    let json: unknown;
    try {
      // JSON.parse is iterative in V8: any depth parses; the rule below bounds what goes further.
      json = JSON.parse(text);
    } catch {
      throw this.badResponse(what, text.trim() === "" ? "an empty body" : "the body is not JSON");
    }
    // The rule for untrusted JSON (docs/ARCHITECTURE.md "Bad input"), before anything decodes,
    // shows or logs the answer: a value nested too deep, too large, or with text no database
    // stores is a 502 naming the rule, logged as a failed recall.
    const problem = untrustedJsonProblem(json);
    if (problem) {
      throw this.badResponse(what, `it breaks the rule for untrusted JSON at ${describeProblem(problem)}`, {
        rule: problem.rule,
      });
    }
    return { status: response.status, ms, json };
  }
}
