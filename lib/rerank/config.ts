/**
 * The reranker's settings (docs/ARCHITECTURE.md "Explaining a ranking"): any endpoint speaking
 * the common `/rerank` protocol (Cohere, Jina, vLLM, text-embeddings-inference behind a
 * Cohere-style route). Read from an env record so it stays testable; `checkEnv` (lib/env.ts)
 * runs it at boot, so a bad value stops the start instead of failing the first rerank.
 */
export type Env = Readonly<Record<string, string | undefined>>;

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

function value(env: Env, name: string): string | undefined {
  const v = env[name]?.trim();
  return v ? v : undefined;
}

/** The reranker, or null when none is configured (`use_rerank` is then refused on the embedded store). */
export function readRerankConfig(env: Env = process.env): RerankConfig | null {
  const baseUrl = value(env, "RERANK_BASE_URL");
  const model = value(env, "RERANK_MODEL");
  if (!baseUrl && !model) return null;
  if (!baseUrl) throw new RerankConfigError("RERANK_BASE_URL", "RERANK_BASE_URL must be set when RERANK_MODEL is set.");
  if (!model) {
    throw new RerankConfigError(
      "RERANK_MODEL",
      "RERANK_MODEL must be set when RERANK_BASE_URL is set (the model the endpoint reranks with).",
    );
  }
  let url: URL;
  try {
    url = new URL(baseUrl);
  } catch {
    throw new RerankConfigError("RERANK_BASE_URL", "RERANK_BASE_URL is not a valid URL.");
  }
  if (url.protocol !== "http:" && url.protocol !== "https:") {
    throw new RerankConfigError("RERANK_BASE_URL", `RERANK_BASE_URL must be an http(s) URL, got "${url.protocol}".`);
  }
  if (url.username || url.password) {
    // The URL appears in messages; the key has its own variable.
    throw new RerankConfigError(
      "RERANK_BASE_URL",
      "RERANK_BASE_URL must not contain credentials; put the key in RERANK_API_KEY.",
    );
  }
  const rawTimeout = value(env, "RERANK_TIMEOUT_MS");
  let timeoutMs = RERANK_DEFAULT_TIMEOUT_MS;
  if (rawTimeout !== undefined) {
    timeoutMs = /^\d+$/.test(rawTimeout) ? Number(rawTimeout) : NaN;
    if (!Number.isSafeInteger(timeoutMs) || timeoutMs < 1 || timeoutMs > RERANK_MAX_TIMEOUT_MS) {
      throw new RerankConfigError(
        "RERANK_TIMEOUT_MS",
        `RERANK_TIMEOUT_MS must be a whole number of milliseconds in 1…${RERANK_MAX_TIMEOUT_MS}, got "${rawTimeout}".`,
      );
    }
  }
  const rawBatch = value(env, "RERANK_BATCH_SIZE");
  let batchSize = RERANK_DEFAULT_BATCH_SIZE;
  if (rawBatch !== undefined) {
    batchSize = /^\d+$/.test(rawBatch) ? Number(rawBatch) : NaN;
    if (!Number.isSafeInteger(batchSize) || batchSize < 1 || batchSize > RERANK_MAX_BATCH_SIZE) {
      throw new RerankConfigError(
        "RERANK_BATCH_SIZE",
        `RERANK_BATCH_SIZE must be a whole number of documents in 1…${RERANK_MAX_BATCH_SIZE}, got "${rawBatch}".`,
      );
    }
  }
  const apiKey = value(env, "RERANK_API_KEY");
  return { baseUrl: baseUrl.replace(/\/+$/, ""), model, ...(apiKey ? { apiKey } : {}), timeoutMs, batchSize };
}

/** `{base_url}/rerank` (Cohere's base is `…/v2`, Jina's `…/v1`, TEI's and vLLM's the server root). */
export function rerankUrl(baseUrl: string): string {
  return `${baseUrl.replace(/\/+$/, "")}/rerank`;
}
