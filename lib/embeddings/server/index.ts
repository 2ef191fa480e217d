import { readEmbeddingsConfig } from "./config";
import { OpenAICompatibleEmbedder } from "./openai-compatible";
import type { Embedder } from "../types";
import { UseLiteEmbedder } from "./use-lite";
import { processSingleton } from "../../server/process-singleton";

export { configuredEmbedderId, readEmbeddingsConfig, USE_LITE_ID, type EmbeddingsConfig } from "./config";
export * from "../types";

/**
 * The app's embedder, chosen by the environment: an OpenAI-compatible endpoint when
 * EMBEDDINGS_BASE_URL and EMBEDDINGS_MODEL are set, otherwise USE-lite in-process. One per
 * process (cached on globalThis: its workers hold a model each).
 */
export function getEmbedder(): Embedder {
  return processSingleton("embedder", () => createEmbedder(process.env));
}

export function createEmbedder(env: Readonly<Record<string, string | undefined>>): Embedder {
  // Throws EmbeddingsConfigError for a wrong setting (also refused at boot by lib/env.ts).
  const config = readEmbeddingsConfig(env);
  return config ? new OpenAICompatibleEmbedder(config) : new UseLiteEmbedder();
}
