import { z } from "zod";
import { AnswerTooLargeError, postJson, type PostedAnswer } from "@/lib/post-json";
import { assertEmbeddable, EmbeddingServiceError, normalize, type Embedder } from "./types";

export interface OpenAICompatibleOptions {
  /** e.g. https://api.openai.com/v1 or http://127.0.0.1:11434/v1 (the `/embeddings` path is appended). */
  baseUrl: string;
  model: string;
  apiKey?: string;
  /** Size of the model's vectors; an answer of another size is refused. */
  dimensions: number;
  timeoutMs?: number;
  /** Texts per request. */
  batchSize?: number;
  fetch?: typeof fetch;
}

const ResponseSchema = z.object({
  data: z.array(z.object({ index: z.number().int().min(0), embedding: z.array(z.number()) })),
});

/** Any OpenAI-compatible `/v1/embeddings` endpoint (OpenAI, Ollama, vLLM, llama.cpp server…). */
export class OpenAICompatibleEmbedder implements Embedder {
  readonly id: string;
  readonly dim: number;
  private readonly options: Required<Omit<OpenAICompatibleOptions, "apiKey">> & Pick<OpenAICompatibleOptions, "apiKey">;

  constructor(options: OpenAICompatibleOptions) {
    this.options = { timeoutMs: 30_000, batchSize: 128, fetch: globalThis.fetch, ...options };
    this.id = `openai-compatible:${options.model}`;
    this.dim = options.dimensions;
  }

  async embed(texts: readonly string[]): Promise<Float32Array[]> {
    assertEmbeddable(texts);
    const out: Float32Array[] = [];
    for (let start = 0; start < texts.length; start += this.options.batchSize) {
      out.push(...(await this.request(texts.slice(start, start + this.options.batchSize))));
    }
    return out;
  }

  private async request(input: readonly string[]): Promise<Float32Array[]> {
    const { baseUrl, model, apiKey, timeoutMs } = this.options;
    const url = `${baseUrl.replace(/\/+$/, "")}/embeddings`;
    let response: PostedAnswer;
    try {
      response = await postJson(this.options.fetch, url, {
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
          : `The embeddings endpoint ${url} could not be reached (${error instanceof Error ? error.message : String(error)}).`,
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
    const wrong = rows.find((row) => row.embedding.length !== this.dim);
    if (wrong) {
      throw new EmbeddingServiceError(
        `The embeddings endpoint ${url} returned ${wrong.embedding.length}-dimensional vectors; EMBEDDINGS_DIMENSIONS says ${this.dim}.`,
        "bad_response",
      );
    }
    return rows.map((row) => normalize(Float32Array.from(row.embedding)));
  }
}
