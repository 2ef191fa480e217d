/**
 * The reranker's settings (lib/recall/README.md "Explaining a ranking"), read in one place with
 * every optional setting's default applied, so the client never re-defaults. Two protocols:
 *
 * - `cohere` (the default): `{model, query, documents, top_n}` → `{results: [{index,
 *   relevance_score}]}`, what Cohere (`…/v2/rerank`), Jina (`…/v1/rerank`), vLLM (`/rerank`,
 *   `/v1/rerank`) and the reference memory service's cross-encoder (`/v1/rerank`) speak;
 * - `tei`: text-embeddings-inference's own `/rerank`, `{query, texts, truncate}` → a bare array
 *   `[{index, score}]`.
 *
 * The endpoint: RERANK_BASE_URL as is when its path already ends in `/rerank`, else with
 * `/rerank` appended (so `https://api.cohere.com/v2`, `https://api.jina.ai/v1`,
 * `http://tei:8080` and `http://service:8000/v1` all work). Read from an env record so it stays
 * testable; `checkEnv` (lib/env.ts) runs it at boot, so a bad value stops the start.
 */
import { envValue, httpUrlProblem, wholeNumberIn, type Env } from "@/lib/env-values";

export type { Env };

export const RERANK_PROTOCOLS = ["cohere", "tei"] as const;
export type RerankProtocol = (typeof RERANK_PROTOCOLS)[number];

export interface RerankConfig {
  protocol: RerankProtocol;
  /** The URL posted to (see the module comment), without credentials. */
  url: string;
  /**
   * What notices and the console call the reranker: RERANK_MODEL, which the `cohere` protocol
   * also sends as `model`; for `tei` (one model a server, none sent) it may be unset, and is then
   * "text-embeddings-inference".
   */
  model: string;
  /** Sent as `Authorization: Bearer …`; never logged, stored or shown. */
  apiKey?: string;
  timeoutMs: number;
  /** At most this many documents a request (RERANK_BATCH_SIZE). */
  batchSize: number;
}

export const RERANK_DEFAULT_PROTOCOL: RerankProtocol = "cohere";
export const RERANK_DEFAULT_TIMEOUT_MS = 10_000;
/** text-embeddings-inference's default `--max-client-batch-size`; Cohere and Jina take more. */
export const RERANK_DEFAULT_BATCH_SIZE = 32;
export const RERANK_MAX_BATCH_SIZE = 1000;
export const RERANK_MAX_TIMEOUT_MS = 600_000;
/** The name shown for a `tei` reranker configured without RERANK_MODEL. */
export const TEI_DEFAULT_NAME = "text-embeddings-inference";

/** A setting that cannot be right; `variable` names it for the boot check's one line. */
export class RerankConfigError extends Error {
  override readonly name = "RerankConfigError";
  constructor(
    readonly variable: string,
    message: string,
  ) {
    super(message);
  }
}

/** A whole-number setting in 1…max, `fallback` when unset. */
function wholeSetting(env: Env, name: string, fallback: number, max: number, unit: string): number {
  const raw = envValue(env, name);
  if (raw === undefined) return fallback;
  const n = wholeNumberIn(raw, 1, max);
  if (n === undefined) throw new RerankConfigError(name, `${name} must be a whole number of ${unit} in 1…${max}, got "${raw}".`);
  return n;
}

/**
 * The reranker, or null when none is configured (`use_rerank: true` is then refused on the
 * embedded store). Minimum: RERANK_BASE_URL and RERANK_MODEL; with RERANK_PROTOCOL=tei,
 * RERANK_BASE_URL alone.
 */
export function readRerankConfig(env: Env = process.env): RerankConfig | null {
  const baseUrl = envValue(env, "RERANK_BASE_URL");
  const model = envValue(env, "RERANK_MODEL");
  const rawProtocol = envValue(env, "RERANK_PROTOCOL");
  if (!baseUrl && !model) return null;
  if (!baseUrl) throw new RerankConfigError("RERANK_BASE_URL", "RERANK_BASE_URL must be set when RERANK_MODEL is set.");
  const protocol = rawProtocol === undefined ? RERANK_DEFAULT_PROTOCOL : RERANK_PROTOCOLS.find((p) => p === rawProtocol);
  if (!protocol) {
    throw new RerankConfigError(
      "RERANK_PROTOCOL",
      `RERANK_PROTOCOL must be "cohere" (Cohere, Jina, vLLM, the memory service's /v1/rerank) or "tei" (text-embeddings-inference), got "${rawProtocol}".`,
    );
  }
  if (!model && protocol === "cohere") {
    throw new RerankConfigError(
      "RERANK_MODEL",
      "RERANK_MODEL must be set when RERANK_BASE_URL is set (the model the endpoint reranks with); for text-embeddings-inference, which serves one model, set RERANK_PROTOCOL=tei instead.",
    );
  }
  const urlProblem = httpUrlProblem(baseUrl, "RERANK_API_KEY");
  if (urlProblem) throw new RerankConfigError("RERANK_BASE_URL", `RERANK_BASE_URL ${urlProblem}.`);
  const timeoutMs = wholeSetting(env, "RERANK_TIMEOUT_MS", RERANK_DEFAULT_TIMEOUT_MS, RERANK_MAX_TIMEOUT_MS, "milliseconds");
  const batchSize = wholeSetting(env, "RERANK_BATCH_SIZE", RERANK_DEFAULT_BATCH_SIZE, RERANK_MAX_BATCH_SIZE, "documents");
  const apiKey = envValue(env, "RERANK_API_KEY");
  return {
    protocol,
    url: rerankUrl(baseUrl),
    model: model ?? TEI_DEFAULT_NAME,
    ...(apiKey ? { apiKey } : {}),
    timeoutMs,
    batchSize,
  };
}

/** RERANK_BASE_URL as is when its path ends in `/rerank`, else `{base}/rerank` (query strings kept). */
export function rerankUrl(baseUrl: string): string {
  const url = new URL(baseUrl);
  const path = url.pathname.replace(/\/+$/, "");
  url.pathname = /\/rerank$/.test(path) ? path : `${path}/rerank`;
  return url.toString();
}
