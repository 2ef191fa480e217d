import { afterEach, describe, expect, it } from "vitest";
import { fakeEmbedding, startFakeEmbeddings, type FakeEmbeddings } from "@/tests/support/fake-embeddings";
import { readEmbeddingsConfig } from "./config";
import { OpenAICompatibleEmbedder } from "./openai-compatible";
import { EmbeddingServiceError } from "../types";

// The real client against the strict loopback double of the OpenAI embeddings API
// (docs/ARCHITECTURE.md "Tests"), one fixture per answer variant.
let double: FakeEmbeddings | undefined;
afterEach(async () => {
  await double?.close();
  double = undefined;
});

async function embedderFor(options: Parameters<typeof startFakeEmbeddings>[0], env: Record<string, string> = {}) {
  double = await startFakeEmbeddings(options);
  const config = readEmbeddingsConfig({
    EMBEDDINGS_BASE_URL: double.baseUrl,
    EMBEDDINGS_MODEL: "text-embedding-3-small",
    EMBEDDINGS_DIMENSIONS: String(options?.dimensions ?? 64),
    ...env,
  })!;
  return new OpenAICompatibleEmbedder(config);
}

const TEXTS = ["kafka consumer lag", "team lunch on thursdays", "deploy freeze on fridays"];

function unit(values: number[]): number[] {
  const norm = Math.sqrt(values.reduce((s, v) => s + v * v, 0));
  return values.map((v) => v / norm);
}

describe.each(["openai", "reordered", "llamacpp"] as const)("the %s answer", (variant) => {
  it("gives one vector a text, in input order", async () => {
    const embedder = await embedderFor({ dimensions: 16, variant });
    const vectors = await embedder.embed(TEXTS);
    expect(vectors).toHaveLength(3);
    vectors.forEach((v, i) => {
      const expected = unit(fakeEmbedding(TEXTS[i]!, 16));
      expect([...v].map((x) => Math.round(x * 1e5))).toEqual(expected.map((x) => Math.round(x * 1e5)));
    });
    // Only what the published API takes was sent.
    expect(Object.keys(double!.requests[0]!.body as object).sort()).toEqual(["input", "model"]);
  });
});

describe("the client", () => {
  it("sends the key as a bearer token when one is set, and none otherwise", async () => {
    const embedder = await embedderFor({ requireKey: "sk-test" }, { EMBEDDINGS_API_KEY: "sk-test" });
    await embedder.embed(["one"]);
    expect(double!.requests[0]!.headers.authorization).toBe("Bearer sk-test");
  });

  it("an answer of another size is a bad response naming EMBEDDINGS_DIMENSIONS", async () => {
    const embedder = await embedderFor({ dimensions: 16 }, { EMBEDDINGS_DIMENSIONS: "32" });
    const error = await embedder.embed(["one"]).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(EmbeddingServiceError);
    expect(error).toMatchObject({ reason: "bad_response" });
    expect((error as Error).message).toMatch(/16-dimensional.*EMBEDDINGS_DIMENSIONS says 32/);
  });

  it("a 401 is unavailable, quoting the endpoint's message", async () => {
    const embedder = await embedderFor({ requireKey: "sk-test" });
    const error = await embedder.embed(["one"]).catch((e: unknown) => e);
    expect(error).toMatchObject({ reason: "unavailable" });
    expect((error as Error).message).toMatch(/answered 401: .*didn't provide an API key/);
  });

  it("reads base64 embeddings", async () => {
    double = await startFakeEmbeddings({ dimensions: 8 });
    const floats = new Float32Array([1, 0, 0, 0, 0, 0, 0, 0]);
    double.setNext({
      status: 200,
      body: {
        object: "list",
        data: [{ object: "embedding", index: 0, embedding: Buffer.from(floats.buffer).toString("base64") }],
        model: "m",
        usage: { prompt_tokens: 1, total_tokens: 1 },
      },
    });
    const config = readEmbeddingsConfig({
      EMBEDDINGS_BASE_URL: double.baseUrl,
      EMBEDDINGS_MODEL: "m",
      EMBEDDINGS_DIMENSIONS: "8",
    })!;
    const [vector] = await new OpenAICompatibleEmbedder(config).embed(["one"]);
    expect([...vector!]).toEqual([...floats]);
  });
});
