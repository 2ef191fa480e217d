/**
 * The reranker's settings (docs/ARCHITECTURE.md "Explaining a ranking"): any endpoint speaking
 * the common `/rerank` protocol (Cohere, Jina, vLLM, text-embeddings-inference behind a
 * Cohere-style route). Read from an env record so it stays testable; `checkEnv` (lib/env.ts)
 * runs it at boot, so a bad value stops the start instead of failing the first rerank.
 */
import { envValue, httpUrlProblem, wholeNumberIn, type Env } from "@/lib/env-values";

export type { Env };

export interface RerankConfig {
  /** Without a trailing slash; the client posts to `{baseUrl}/rerank`. */
  baseUrl: string;
  model: string;
  /** Sent as `Authorization: Bearer …`; never logged, stored or shown. */
  apiKey?: string;
  timeoutMs: number;
  /** At most this many documents a request (RERANK_BATCH_SIZE). */
  batchSize: number;
}

export const RERANK_DEFAULT_TIMEOUT_MS = 10_000;
/** text-embeddings-inference's default `--max-client-batch-size`; Cohere and Jina take more. */
export const RERANK_DEFAULT_BATCH_SIZE = 32;
export const RERANK_MAX_BATCH_SIZE = 1000;
export const RERANK_MAX_TIMEOUT_MS = 600_000;

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

/** The reranker, or null when none is configured (`use_rerank` is then refused on the embedded store). */
export function readRerankConfig(env: Env = process.env): RerankConfig | null {
  const baseUrl = envValue(env, "RERANK_BASE_URL");
  const model = envValue(env, "RERANK_MODEL");
  if (!baseUrl && !model) return null;
  if (!baseUrl) throw new RerankConfigError("RERANK_BASE_URL", "RERANK_BASE_URL must be set when RERANK_MODEL is set.");
  if (!model) {
    throw new RerankConfigError(
      "RERANK_MODEL",
      "RERANK_MODEL must be set when RERANK_BASE_URL is set (the model the endpoint reranks with).",
    );
  }
  const urlProblem = httpUrlProblem(baseUrl, "RERANK_API_KEY");
  if (urlProblem) throw new RerankConfigError("RERANK_BASE_URL", `RERANK_BASE_URL ${urlProblem}.`);
  const timeoutMs = wholeSetting(env, "RERANK_TIMEOUT_MS", RERANK_DEFAULT_TIMEOUT_MS, RERANK_MAX_TIMEOUT_MS, "milliseconds");
  const batchSize = wholeSetting(env, "RERANK_BATCH_SIZE", RERANK_DEFAULT_BATCH_SIZE, RERANK_MAX_BATCH_SIZE, "documents");
  const apiKey = envValue(env, "RERANK_API_KEY");
  return { baseUrl: baseUrl.replace(/\/+$/, ""), model, ...(apiKey ? { apiKey } : {}), timeoutMs, batchSize };
}

/** `{base_url}/rerank` (Cohere's base is `…/v2`, Jina's `…/v1`, TEI's and vLLM's the server root). */
export function rerankUrl(baseUrl: string): string {
  return `${baseUrl.replace(/\/+$/, "")}/rerank`;
}
