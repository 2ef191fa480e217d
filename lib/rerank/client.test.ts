import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { fakeRelevance, RERANK_FLAVORS, startFakeReranker, type FakeReranker } from "@/tests/support/fake-reranker";
import { rerank, RerankError } from "./client";
import { readRerankConfig, type RerankConfig } from "./config";

// The real client against the loopback doubles (docs/ARCHITECTURE.md "Tests"); this one, vLLM's,
// refuses more than 4 documents a request the way text-embeddings-inference refuses more than its
// batch limit.
let reranker: FakeReranker;
let config: RerankConfig;

beforeAll(async () => {
  reranker = await startFakeReranker({ maxBatch: 4 });
  config = readRerankConfig({ RERANK_BASE_URL: reranker.baseUrl, RERANK_MODEL: "m", RERANK_BATCH_SIZE: "4" })!;
});
afterAll(() => reranker.close());

const QUERY = "kafka consumer lag";
const DOCS = [
  "lunch on thursdays",
  "kafka lag alerts",
  "the consumer falls behind",
  "kafka consumer lag pages priya",
  "neovim light theme",
  "consumer lag on kafka dispatch, paged at night",
  "deploys frozen on friday",
  "lag",
  "kafka",
  "pgbouncer before postgres",
];

/** What one unlimited request would answer: every document by the double's relevance, best first. */
function expected(topN: number) {
  return DOCS.map((d, index) => ({ index, score: fakeRelevance(QUERY, d) }))
    .sort((a, b) => b.score - a.score || a.index - b.index)
    .slice(0, topN);
}

describe("rerank in batches", () => {
  it("splits the documents into requests of at most the batch size and merges them best first", async () => {
    reranker.reset();
    const scores = await rerank(config, { query: QUERY, documents: DOCS, topN: DOCS.length });
    expect(scores).toEqual(expected(DOCS.length));
    const sizes = reranker.requests.map((r) => (r.body as { documents: string[] }).documents.length);
    expect(sizes.sort()).toEqual([2, 4, 4]);
    // Each batch asks for all of its documents, or the merge could miss one.
    for (const r of reranker.requests) {
      const body = r.body as { documents: string[]; top_n: number };
      expect(body.top_n).toBe(body.documents.length);
    }
  });

  it("keeps only top_n of the merged list", async () => {
    expect(await rerank(config, { query: QUERY, documents: DOCS, topN: 3 })).toEqual(expected(3));
  });

  it("sends one request when the documents fit, asking for top_n", async () => {
    reranker.reset();
    const scores = await rerank(config, { query: QUERY, documents: DOCS.slice(0, 4), topN: 2 });
    expect(reranker.requests).toHaveLength(1);
    expect((reranker.requests[0]!.body as { top_n: number }).top_n).toBe(2);
    expect(scores).toHaveLength(2);
  });

  it("fails the whole rerank when one batch fails, naming the status", async () => {
    reranker.reset();
    reranker.setNext({ status: 500, body: { message: "boom" } });
    const error = await rerank(config, { query: QUERY, documents: DOCS, topN: 10 }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(RerankError);
    expect(error).toMatchObject({ reason: "http_error", status: 500 });
  });

  it("a batch larger than the endpoint takes is its 413, said plainly", async () => {
    const tooBig = { ...config, batchSize: 10 };
    const error = await rerank(tooBig, { query: QUERY, documents: DOCS, topN: 10 }).catch((e: unknown) => e);
    expect(error).toMatchObject({ reason: "http_error", status: 413 });
    expect((error as Error).message).toContain("maximum allowed batch size 4");
  });

  it("an answer in another order than best first is read by its indexes", async () => {
    reranker.reset();
    reranker.setNext({ reordered: true });
    expect(await rerank(config, { query: QUERY, documents: DOCS.slice(0, 4), topN: 4 })).toEqual(
      DOCS.slice(0, 4)
        .map((d, index) => ({ index, score: fakeRelevance(QUERY, d) }))
        .sort((a, b) => b.score - a.score || a.index - b.index),
    );
  });

  it("an answer over 32 MiB is a bad response, not read to its end", async () => {
    reranker.reset();
    reranker.setNext({ status: 200, body: `[${"0,".repeat(17 * 1024 * 1024)}0]` });
    const error = await rerank(config, { query: QUERY, documents: DOCS.slice(0, 3), topN: 3 }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(RerankError);
    expect(error).toMatchObject({ reason: "bad_response" });
    expect((error as Error).message).toMatch(/over 32 MiB/);
  });

  it("sends nothing for no documents", async () => {
    reranker.reset();
    expect(await rerank(config, { query: QUERY, documents: [], topN: 5 })).toEqual([]);
    expect(reranker.requests).toHaveLength(0);
  });
});

describe("RERANK_BATCH_SIZE", () => {
  const base = { RERANK_BASE_URL: "http://127.0.0.1:1", RERANK_MODEL: "m" };
  it("defaults to 32, text-embeddings-inference's limit", () => {
    expect(readRerankConfig(base)!.batchSize).toBe(32);
  });
  it.each(["0", "-1", "1.5", "1001", "many"])("refuses %s", (value) => {
    expect(() => readRerankConfig({ ...base, RERANK_BATCH_SIZE: value })).toThrow(/RERANK_BATCH_SIZE/);
  });
  it("takes 1 and 1000", () => {
    expect(readRerankConfig({ ...base, RERANK_BATCH_SIZE: "1" })!.batchSize).toBe(1);
    expect(readRerankConfig({ ...base, RERANK_BATCH_SIZE: "1000" })!.batchSize).toBe(1000);
  });
});

/** Each published API, through the base URL its docs give, with the protocol it speaks. */
describe.each(RERANK_FLAVORS)("against %s", (flavor) => {
  let double: FakeReranker;
  let flavorConfig: RerankConfig;
  beforeAll(async () => {
    double = await startFakeReranker({ flavor, requireKey: "rk-secret" });
    flavorConfig = readRerankConfig({
      RERANK_BASE_URL: double.baseUrl,
      RERANK_API_KEY: "rk-secret",
      ...(flavor === "tei" ? { RERANK_PROTOCOL: "tei" } : { RERANK_MODEL: "rerank-v3.5" }),
    })!;
  });
  afterAll(() => double.close());

  it("scores every document, best first, in the flavour's protocol", async () => {
    double.reset();
    const docs = DOCS.slice(0, 5);
    expect(await rerank(flavorConfig, { query: QUERY, documents: docs, topN: 5 })).toEqual(
      docs.map((d, index) => ({ index, score: fakeRelevance(QUERY, d) })).sort((a, b) => b.score - a.score),
    );
    const sent = double.requests[0]!;
    expect(sent.headers.authorization).toBe("Bearer rk-secret");
    if (flavor === "tei") expect(sent.body).toEqual({ query: QUERY, texts: docs, truncate: true });
    else expect(sent.body).toEqual({ model: "rerank-v3.5", query: QUERY, documents: docs, top_n: 5 });
  });
});

describe("the protocol set the wrong way round", () => {
  it("Cohere-style against text-embeddings-inference is its 422, with the hint to set RERANK_PROTOCOL=tei", async () => {
    const tei = await startFakeReranker({ flavor: "tei" });
    try {
      const wrong = readRerankConfig({ RERANK_BASE_URL: tei.baseUrl, RERANK_MODEL: "bge-reranker-base" })!;
      const error = await rerank(wrong, { query: QUERY, documents: DOCS.slice(0, 2), topN: 2 }).catch((e: unknown) => e);
      expect(error).toMatchObject({ reason: "http_error", status: 422 });
      expect((error as Error).message).toMatch(/missing field `texts`.*set RERANK_PROTOCOL=tei/);
    } finally {
      await tei.close();
    }
  });
});

describe("readRerankConfig", () => {
  it("applies every optional setting's default", () => {
    expect(readRerankConfig({ RERANK_BASE_URL: "https://api.cohere.com/v2", RERANK_MODEL: "rerank-v3.5" })).toEqual({
      protocol: "cohere",
      url: "https://api.cohere.com/v2/rerank",
      model: "rerank-v3.5",
      timeoutMs: 10_000,
      batchSize: 32,
    });
  });
  it.each([
    ["http://tei:8080", "http://tei:8080/rerank"],
    ["http://tei:8080/", "http://tei:8080/rerank"],
    ["http://svc:8000/v1", "http://svc:8000/v1/rerank"],
    ["http://svc:8000/v1/rerank", "http://svc:8000/v1/rerank"],
    ["http://svc:8000/custom/rerank/", "http://svc:8000/custom/rerank"],
  ])("RERANK_BASE_URL %s posts to %s", (base, url) => {
    expect(readRerankConfig({ RERANK_BASE_URL: base, RERANK_MODEL: "m" })!.url).toBe(url);
  });
  it("tei needs no model (one a server), and names the reranker after the server", () => {
    expect(readRerankConfig({ RERANK_BASE_URL: "http://tei:8080", RERANK_PROTOCOL: "tei" })).toMatchObject({
      protocol: "tei",
      model: "text-embeddings-inference",
    });
  });
  it("cohere needs RERANK_MODEL, and says tei does not", () => {
    expect(() => readRerankConfig({ RERANK_BASE_URL: "http://x" })).toThrow(/RERANK_MODEL must be set.*RERANK_PROTOCOL=tei/);
  });
  it("refuses an unknown protocol", () => {
    expect(() => readRerankConfig({ RERANK_BASE_URL: "http://x", RERANK_MODEL: "m", RERANK_PROTOCOL: "jina" })).toThrow(
      /RERANK_PROTOCOL must be "cohere".*or "tei"/,
    );
  });
});
