/**
 * Which embedder the app is configured to use, by id. The default is Universal Sentence Encoder
 * lite, shipped inside npm (docs/ARCHITECTURE.md "Embeddings"); an OpenAI-compatible endpoint is the opt-in alternative.
 * Stored vectors record this id so a query is never compared with another model's vectors.
 */
export const USE_LITE_ID = "use-lite-512";

export function configuredEmbedderId(env: Readonly<Record<string, string | undefined>> = process.env): string {
  const model = env.EMBEDDINGS_MODEL?.trim();
  return env.EMBEDDINGS_BASE_URL?.trim() && model ? `openai-compatible:${model}` : USE_LITE_ID;
}

/**
 * What is wrong with the embedder settings, in one line, or undefined: an endpoint needs its
 * model and the vector size (checked at boot by lib/env.ts, and again when the embedder is made).
 */
export function embedderConfigProblem(env: Readonly<Record<string, string | undefined>>): string | undefined {
  const baseUrl = env.EMBEDDINGS_BASE_URL?.trim();
  const model = env.EMBEDDINGS_MODEL?.trim();
  if (baseUrl && !model)
    return "EMBEDDINGS_MODEL must be set when EMBEDDINGS_BASE_URL is set (the model the endpoint embeds with).";
  if (!baseUrl || !model) return undefined;
  const dims = Number(env.EMBEDDINGS_DIMENSIONS);
  if (!Number.isInteger(dims) || dims <= 0) {
    return "EMBEDDINGS_DIMENSIONS must be set to the vector size of EMBEDDINGS_MODEL (e.g. 1536) when EMBEDDINGS_BASE_URL is set.";
  }
  return undefined;
}

/** `EMBEDDING_WORKERS` when set to a positive whole number, else undefined (the caller's default). */
export function configuredEmbeddingWorkers(env: Readonly<Record<string, string | undefined>> = process.env): number | undefined {
  const value = Number(env.EMBEDDING_WORKERS);
  return Number.isInteger(value) && value > 0 ? value : undefined;
}
