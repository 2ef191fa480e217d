/**
 * Which embedder the app is configured to use, and the OpenAI-compatible endpoint's settings
 * (lib/embeddings/README.md "Embeddings", lib/server/README.md "Configuration"). The default is Universal Sentence Encoder
 * lite, shipped inside npm; an OpenAI-compatible endpoint is the opt-in alternative. Stored
 * vectors record the embedder's id so a query is never compared with another model's vectors.
 *
 * `readEmbeddingsConfig` is the one place the endpoint's settings are read: it returns a complete
 * config with every optional setting's default applied, so the client never re-defaults (an
 * `undefined` passed on would override a default, as `timeoutMs: undefined` once did).
 */
import os from "node:os";
import { envValue, httpUrlProblem, wholeNumberIn, type Env } from "@/lib/env-values";

export const USE_LITE_ID = "use-lite-512";

/** Used when `EMBEDDINGS_TIMEOUT_MS` is not set. */
export const EMBEDDINGS_DEFAULT_TIMEOUT_MS = 30_000;
export const EMBEDDINGS_MAX_TIMEOUT_MS = 600_000;
export const EMBEDDINGS_MAX_DIMENSIONS = 65_536;

export interface EmbeddingsConfig {
  /** e.g. https://api.openai.com/v1 or http://127.0.0.1:11434/v1, without a trailing slash (`/embeddings` is appended). */
  baseUrl: string;
  model: string;
  /** Sent as `Authorization: Bearer …`; never logged, stored or shown. */
  apiKey?: string;
  /** Size of the model's vectors; an answer of another size is refused. */
  dimensions: number;
  timeoutMs: number;
}

/** A setting that cannot be right; `variable` names it for the boot check's one line. */
export class EmbeddingsConfigError extends Error {
  override readonly name = "EmbeddingsConfigError";
  constructor(
    readonly variable: string,
    message: string,
  ) {
    super(message);
  }
}

/**
 * The endpoint's settings, or null when EMBEDDINGS_BASE_URL is unset (USE-lite in-process).
 * Required with a base URL: EMBEDDINGS_MODEL and EMBEDDINGS_DIMENSIONS. Optional:
 * EMBEDDINGS_API_KEY, EMBEDDINGS_TIMEOUT_MS (default {@link EMBEDDINGS_DEFAULT_TIMEOUT_MS}).
 * Blank counts as unset.
 *
 * @throws EmbeddingsConfigError naming the variable that is missing or wrong
 */
export function readEmbeddingsConfig(env: Env = process.env): EmbeddingsConfig | null {
  const baseUrl = envValue(env, "EMBEDDINGS_BASE_URL");
  if (!baseUrl) return null;
  const model = envValue(env, "EMBEDDINGS_MODEL");
  if (!model) {
    throw new EmbeddingsConfigError(
      "EMBEDDINGS_MODEL",
      "EMBEDDINGS_MODEL must be set when EMBEDDINGS_BASE_URL is set (the model the endpoint embeds with).",
    );
  }
  const urlProblem = httpUrlProblem(baseUrl, "EMBEDDINGS_API_KEY");
  if (urlProblem) throw new EmbeddingsConfigError("EMBEDDINGS_BASE_URL", `EMBEDDINGS_BASE_URL ${urlProblem}.`);
  const rawDims = envValue(env, "EMBEDDINGS_DIMENSIONS");
  const dimensions = rawDims === undefined ? undefined : wholeNumberIn(rawDims, 1, EMBEDDINGS_MAX_DIMENSIONS);
  if (dimensions === undefined) {
    throw new EmbeddingsConfigError(
      "EMBEDDINGS_DIMENSIONS",
      "EMBEDDINGS_DIMENSIONS must be set to the vector size of EMBEDDINGS_MODEL (e.g. 1536) when EMBEDDINGS_BASE_URL is set" +
        (rawDims === undefined ? "." : `, got "${rawDims}".`),
    );
  }
  const rawTimeout = envValue(env, "EMBEDDINGS_TIMEOUT_MS");
  const timeoutMs =
    rawTimeout === undefined ? EMBEDDINGS_DEFAULT_TIMEOUT_MS : wholeNumberIn(rawTimeout, 1, EMBEDDINGS_MAX_TIMEOUT_MS);
  if (timeoutMs === undefined) {
    throw new EmbeddingsConfigError(
      "EMBEDDINGS_TIMEOUT_MS",
      `EMBEDDINGS_TIMEOUT_MS must be a whole number of milliseconds in 1…${EMBEDDINGS_MAX_TIMEOUT_MS}, got "${rawTimeout}".`,
    );
  }
  const apiKey = envValue(env, "EMBEDDINGS_API_KEY");
  return { baseUrl: baseUrl.replace(/\/+$/, ""), model, ...(apiKey ? { apiKey } : {}), dimensions, timeoutMs };
}

/** The configured embedder's id (no check: what `/api/health` reports and vectors are stamped with). */
export function configuredEmbedderId(env: Env = process.env): string {
  const model = envValue(env, "EMBEDDINGS_MODEL");
  return envValue(env, "EMBEDDINGS_BASE_URL") && model ? `openai-compatible:${model}` : USE_LITE_ID;
}

/**
 * USE-lite's worker threads: `EMBEDDING_WORKERS` when set to a positive whole number, else 2
 * (fewer on a one-core machine).
 */
export function embeddingWorkerCount(env: Env = process.env, cores: number = os.availableParallelism()): number {
  const raw = envValue(env, "EMBEDDING_WORKERS");
  const value = raw === undefined ? undefined : wholeNumberIn(raw, 1, 64);
  return value ?? Math.max(1, Math.min(2, cores));
}

/** `EMBEDDING_QUERY_WORKER`: the query-only USE-lite worker runs unless it is `0`. */
export function queryWorkerEnabled(env: Env = process.env): boolean {
  return envValue(env, "EMBEDDING_QUERY_WORKER") !== "0";
}
