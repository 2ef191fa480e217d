import { z } from "zod";
import { AnswerTooLargeError, postJson, type PostedAnswer } from "@/lib/post-json";
import type { EmbeddingsConfig } from "./config";
import { assertEmbeddable, EmbeddingServiceError, normalize, type Embedder } from "../types";

/** Texts a request: OpenAI takes up to 2048; 128 keeps each answer a few MiB at most. */
export const EMBEDDINGS_BATCH_SIZE = 128;

const ResponseSchema = z.object({
  data: z.array(
    z.object({
      index: z.number().int().min(0),
      // Floats, as asked (no `encoding_format` is sent: "float" is its default, and a server that
      // does not know the field may refuse it); base64 of little-endian float32s, what
      // `encoding_format: "base64"` answers, is read too, for a gateway that asks for it.
      embedding: z.union([z.array(z.number()), z.string()]),
    }),
  ),
});

/**
 * Any OpenAI-compatible `/v1/embeddings` endpoint (OpenAI, Ollama, vLLM, llama.cpp server…). Its
 * settings come whole from `readEmbeddingsConfig` (config.ts), defaults applied there.
 */
export class OpenAICompatibleEmbedder implements Embedder {
  readonly id: string;
  readonly dim: number;
  private readonly fetch: typeof fetch;

  constructor(
    private readonly config: EmbeddingsConfig,
    options: { fetch?: typeof fetch } = {},
  ) {
    this.fetch = options.fetch ?? globalThis.fetch;
    this.id = `openai-compatible:${config.model}`;
    this.dim = config.dimensions;
  }

  async embed(texts: readonly string[]): Promise<Float32Array[]> {
    assertEmbeddable(texts);
    const out: Float32Array[] = [];
    for (let start = 0; start < texts.length; start += EMBEDDINGS_BATCH_SIZE) {
      out.push(...(await this.request(texts.slice(start, start + EMBEDDINGS_BATCH_SIZE))));
    }
    return out;
  }

  private async request(input: readonly string[]): Promise<Float32Array[]> {
    const { baseUrl, model, apiKey, timeoutMs } = this.config;
    const url = `${baseUrl.replace(/\/+$/, "")}/embeddings`;
    let response: PostedAnswer;
    try {
      response = await postJson(this.fetch, url, {
        apiKey,
        body: { model, input },
        signal: AbortSignal.timeout(timeoutMs),
      });
    } catch (error) {
      if (error instanceof AnswerTooLargeError) {
        throw new EmbeddingServiceError(`The embeddings endpoint ${url} ${error.message}.`, "bad_response");
      }
      const timedOut = error instanceof Error && error.name === "TimeoutError";
      throw new EmbeddingServiceError(
        timedOut
          ? `The embeddings endpoint ${url} did not answer within ${timeoutMs} ms.`
          : `The embeddings endpoint ${url} could not be reached (${describe(error)}).`,
        timedOut ? "timeout" : "unavailable",
        { cause: error },
      );
    }
    const { text } = response;
    if (!response.ok) {
      throw new EmbeddingServiceError(
        `The embeddings endpoint ${url} answered ${response.status}: ${text.slice(0, 200)}`,
        "unavailable",
      );
    }
    let parsed: z.infer<typeof ResponseSchema>;
    try {
      parsed = ResponseSchema.parse(JSON.parse(text));
    } catch {
      throw new EmbeddingServiceError(
        `The embeddings endpoint ${url} sent an answer that is not an embeddings list.`,
        "bad_response",
      );
    }
    const rows = [...parsed.data].sort((a, b) => a.index - b.index);
    if (rows.length !== input.length || rows.some((row, i) => row.index !== i)) {
      throw new EmbeddingServiceError(
        `The embeddings endpoint ${url} returned ${rows.length} vectors for ${input.length} texts.`,
        "bad_response",
      );
    }
    const vectors = rows.map((row) => toFloats(row.embedding));
    const wrong = vectors.find((vector) => vector === null || vector.length !== this.dim);
    if (wrong !== undefined) {
      throw new EmbeddingServiceError(
        wrong === null
          ? `The embeddings endpoint ${url} returned a base64 embedding that is not float32s.`
          : `The embeddings endpoint ${url} returned ${wrong.length}-dimensional vectors; EMBEDDINGS_DIMENSIONS says ${this.dim}.`,
        "bad_response",
      );
    }
    return (vectors as Float32Array[]).map((vector) => normalize(vector));
  }
}

/** A row's embedding as floats; null for base64 that is not a whole number of float32s. */
function toFloats(embedding: number[] | string): Float32Array | null {
  if (typeof embedding !== "string") return Float32Array.from(embedding);
  const bytes = Buffer.from(embedding, "base64");
  if (bytes.length % 4 !== 0) return null;
  const out = new Float32Array(bytes.length / 4);
  for (let i = 0; i < out.length; i++) out[i] = bytes.readFloatLE(i * 4);
  return out;
}

/** fetch's own message ("fetch failed") with its cause's (connect ECONNREFUSED 127.0.0.1:9), which says why. */
function describe(error: unknown): string {
  if (!(error instanceof Error)) return String(error);
  const cause = error.cause instanceof Error ? error.cause.message : undefined;
  return cause && cause !== error.message ? `${error.message}: ${cause}` : error.message;
}
