import { processSingleton } from "../process-singleton";
import { embedderConfigProblem } from "./config";
import { OpenAICompatibleEmbedder } from "./openai-compatible";
import type { Embedder } from "./types";
import { UseLiteEmbedder } from "./use-lite";

export { configuredEmbedderId, USE_LITE_ID } from "./config";
export * from "./types";

/**
 * The app's embedder, chosen by the environment: an OpenAI-compatible endpoint when
 * EMBEDDINGS_BASE_URL and EMBEDDINGS_MODEL are set, otherwise USE-lite in-process. One per
 * process (cached on globalThis: its workers hold a model each).
 */
export function getEmbedder(): Embedder {
  return processSingleton("embedder", () => createEmbedder(process.env));
}

export function createEmbedder(env: Readonly<Record<string, string | undefined>>): Embedder {
  const baseUrl = env.EMBEDDINGS_BASE_URL?.trim();
  const model = env.EMBEDDINGS_MODEL?.trim();
  if (baseUrl && model) {
    const problem = embedderConfigProblem(env);
    if (problem) throw new Error(problem);
    const dims = Number(env.EMBEDDINGS_DIMENSIONS);
    const timeout = Number(env.EMBEDDINGS_TIMEOUT_MS);
    return new OpenAICompatibleEmbedder({
      baseUrl,
      model,
      apiKey: env.EMBEDDINGS_API_KEY?.trim() || undefined,
      dimensions: dims,
      timeoutMs: Number.isFinite(timeout) && timeout > 0 ? timeout : undefined,
    });
  }
  return new UseLiteEmbedder();
}
