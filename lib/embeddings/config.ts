/**
 * Which embedder the app is configured to use, by id. The default is Universal Sentence Encoder
 * lite, shipped inside npm (DESIGN §2); an OpenAI-compatible endpoint is the opt-in alternative.
 * Stored vectors record this id so a query is never compared with another model's vectors.
 */
export const USE_LITE_ID = "use-lite-512";

export function configuredEmbedderId(env: Readonly<Record<string, string | undefined>> = process.env): string {
  const model = env.EMBEDDINGS_MODEL?.trim();
  return env.EMBEDDINGS_BASE_URL?.trim() && model ? `openai-compatible:${model}` : USE_LITE_ID;
}
