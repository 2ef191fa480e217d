import { describe, expect, it } from "vitest";
import { EMBEDDINGS_DEFAULT_TIMEOUT_MS, embeddingWorkerCount, readEmbeddingsConfig } from "./config";

const MINIMUM = {
  EMBEDDINGS_BASE_URL: "http://127.0.0.1:11434/v1/",
  EMBEDDINGS_MODEL: "nomic-embed-text",
  EMBEDDINGS_DIMENSIONS: "768",
};

describe("readEmbeddingsConfig", () => {
  it("is null without a base URL (USE-lite), even with a model", () => {
    expect(readEmbeddingsConfig({})).toBeNull();
    expect(readEmbeddingsConfig({ EMBEDDINGS_MODEL: "m" })).toBeNull();
  });

  it("applies every optional setting's default: the minimum settings make a complete config", () => {
    expect(readEmbeddingsConfig(MINIMUM)).toEqual({
      baseUrl: "http://127.0.0.1:11434/v1",
      model: "nomic-embed-text",
      dimensions: 768,
      timeoutMs: EMBEDDINGS_DEFAULT_TIMEOUT_MS,
    });
    // Blank is unset: its default, never undefined.
    expect(readEmbeddingsConfig({ ...MINIMUM, EMBEDDINGS_TIMEOUT_MS: " ", EMBEDDINGS_API_KEY: "" })).toEqual(
      readEmbeddingsConfig(MINIMUM),
    );
  });

  it("takes the optional ones when set", () => {
    expect(readEmbeddingsConfig({ ...MINIMUM, EMBEDDINGS_TIMEOUT_MS: "5000", EMBEDDINGS_API_KEY: "sk-x" })).toMatchObject({
      timeoutMs: 5000,
      apiKey: "sk-x",
    });
  });

  it.each([
    [{ EMBEDDINGS_MODEL: "" }, "EMBEDDINGS_MODEL"],
    [{ EMBEDDINGS_DIMENSIONS: "" }, "EMBEDDINGS_DIMENSIONS"],
    [{ EMBEDDINGS_DIMENSIONS: "1.5" }, "EMBEDDINGS_DIMENSIONS"],
    [{ EMBEDDINGS_TIMEOUT_MS: "0" }, "EMBEDDINGS_TIMEOUT_MS"],
    [{ EMBEDDINGS_TIMEOUT_MS: "soon" }, "EMBEDDINGS_TIMEOUT_MS"],
    [{ EMBEDDINGS_BASE_URL: "ftp://x" }, "EMBEDDINGS_BASE_URL"],
    [{ EMBEDDINGS_BASE_URL: "https://user:sk-secret@api.example.com/v1" }, "EMBEDDINGS_BASE_URL"],
  ])("refuses %o, naming %s", (change, variable) => {
    let error: unknown;
    try {
      readEmbeddingsConfig({ ...MINIMUM, ...change });
    } catch (e) {
      error = e;
    }
    expect(error).toMatchObject({ variable });
    expect((error as Error).message).not.toContain("sk-secret");
  });
});

describe("embeddingWorkerCount", () => {
  it("is EMBEDDING_WORKERS when set, else 2 (1 on one core)", () => {
    expect(embeddingWorkerCount({ EMBEDDING_WORKERS: "3" }, 8)).toBe(3);
    expect(embeddingWorkerCount({}, 8)).toBe(2);
    expect(embeddingWorkerCount({}, 1)).toBe(1);
    expect(embeddingWorkerCount({ EMBEDDING_WORKERS: "" }, 8)).toBe(2);
  });
});
