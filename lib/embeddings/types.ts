import { CrossBundleError } from "@/lib/errors/cross-bundle";
/** Turns texts into unit-length vectors. Every stored vector records the `id` that made it. */
export interface Embedder {
  /** Stable model id, stored with each vector (e.g. "use-lite-512"). */
  readonly id: string;
  readonly dim: number;
  /**
   * One unit-length vector per text, in input order. `priority: "bulk"` lets interactive
   * queries overtake a large import.
   */
  embed(texts: readonly string[], options?: { priority?: "query" | "bulk" }): Promise<Float32Array[]>;
  /** Loads a local model ahead of the first query (the server calls it at start); remote embedders have none. */
  warm?(): Promise<void>;
}

/** A text the model cannot embed (empty, whitespace only). */
export class EmbeddingInputError extends CrossBundleError("EmbeddingInputError") {
  constructor(
    message: string,
    readonly index: number,
  ) {
    super(message);
  }
}

/** The embedding model or service failed or timed out. */
export class EmbeddingServiceError extends CrossBundleError("EmbeddingServiceError") {
  constructor(
    message: string,
    readonly reason: "unavailable" | "timeout" | "bad_response",
    options?: { cause?: unknown },
  ) {
    super(message, options);
  }
}

/** Rejects texts the models mishandle: USE-lite throws on "" and silently drops it inside a batch. */
export function assertEmbeddable(texts: readonly string[]): void {
  texts.forEach((text, index) => {
    if (typeof text !== "string" || text.trim() === "") {
      throw new EmbeddingInputError(`Text ${index} is empty; there is nothing to embed.`, index);
    }
  });
}

/** Scales a vector to unit length in place (cosine = dot product), as a cosine index does on insert. */
export function normalize(vector: Float32Array): Float32Array {
  let sum = 0;
  for (let i = 0; i < vector.length; i++) sum += vector[i]! * vector[i]!;
  const norm = Math.sqrt(sum);
  if (norm > 0) for (let i = 0; i < vector.length; i++) vector[i]! /= norm;
  return vector;
}
