/**
 * The reranker client, in the configured protocol (config.ts): Cohere-style `{model, query,
 * documents, top_n}` → `{results: [{index, relevance_score}]}` (extra keys such as `id`, `meta`,
 * `usage`, a result's `document` are ignored), or text-embeddings-inference's `{query, texts,
 * truncate}` → `[{index, score}]`. Either answer shape is read whatever the protocol, so an
 * endpoint that answers the other way still works. Documents go in batches of at most
 * `batchSize` (text-embeddings-inference refuses more than 32 a request unless started with
 * `--max-client-batch-size`), sent together and merged: a cross-encoder scores each (query,
 * document) pair on its own, so the batches' scores are comparable. Every failure is a
 * `RerankError` with a reason from one list, so the store can degrade visibly (the unreranked
 * pool stands, a notice says why). The key goes only into the Authorization header: never into
 * a message, a log line or the history.
 */
import { z } from "zod";
import { AnswerTooLargeError, postJson, type PostedAnswer } from "@/lib/post-json";
import type { RerankConfig } from "./config";

export type RerankFailure = "timeout" | "unreachable" | "http_error" | "bad_response";

export class RerankError extends Error {
  override readonly name = "RerankError";
  constructor(
    readonly reason: RerankFailure,
    message: string,
    readonly status?: number,
  ) {
    super(message);
  }
}

/** One document's relevance, by its index in the request's `documents`. */
export interface RerankScore {
  index: number;
  score: number;
}

const Index = z.number().int().min(0);
const Score = z.number().refine(Number.isFinite, "must be a finite number");
const CohereAnswer = z.object({ results: z.array(z.object({ index: Index, relevance_score: Score })) });
const BareAnswer = z.array(z.object({ index: Index, score: Score }));

/** How much of an error body a message quotes. */
const QUOTE_CHARS = 200;

/**
 * The relevance of each document scored, best first (ties by index). Throws RerankError on
 * a timeout, an unreachable endpoint, a non-2xx status, or an answer that is not one of the two
 * shapes (or names an index outside `documents`, or one twice).
 */
export async function rerank(
  config: RerankConfig,
  request: { query: string; documents: readonly string[]; topN: number },
  options: { signal?: AbortSignal; fetch?: typeof fetch } = {},
): Promise<RerankScore[]> {
  const { documents } = request;
  if (documents.length === 0) return [];
  const timeout = AbortSignal.timeout(config.timeoutMs);
  const signal = options.signal ? AbortSignal.any([options.signal, timeout]) : timeout;
  const call = { config, query: request.query, signal, timeout, outer: options.signal, doFetch: options.fetch ?? fetch };
  if (documents.length <= config.batchSize) {
    return bestFirst(await rerankBatch(call, documents, Math.min(request.topN, documents.length)));
  }
  const offsets: number[] = [];
  for (let start = 0; start < documents.length; start += config.batchSize) offsets.push(start);
  // Every score of every batch is needed to merge them, so each batch asks for all of its documents.
  const batches = await Promise.all(
    offsets.map(async (start) => {
      const batch = documents.slice(start, start + config.batchSize);
      return (await rerankBatch(call, batch, batch.length)).map((s) => ({ index: s.index + start, score: s.score }));
    }),
  );
  return bestFirst(batches.flat()).slice(0, Math.max(0, request.topN));
}

/** Best first, ties by index: an endpoint's own order is not relied on (Cohere's answers may come in another). */
function bestFirst(scores: RerankScore[]): RerankScore[] {
  return scores.sort((a, b) => b.score - a.score || a.index - b.index);
}

interface BatchCall {
  config: RerankConfig;
  query: string;
  signal: AbortSignal;
  timeout: AbortSignal;
  /** The caller's own signal: its abort is passed on as is, not read as a failure of the reranker. */
  outer: AbortSignal | undefined;
  doFetch: typeof fetch;
}

/** One request; indexes are into `documents`. */
async function rerankBatch(
  { config, query, signal, timeout, outer, doFetch }: BatchCall,
  documents: readonly string[],
  topN: number,
): Promise<RerankScore[]> {
  const { url } = config;
  let answer: PostedAnswer;
  try {
    answer = await postJson(doFetch, url, { apiKey: config.apiKey, body: requestBody(config, query, documents, topN), signal });
  } catch (error) {
    if (error instanceof AnswerTooLargeError) throw new RerankError("bad_response", `The reranker at ${url} ${error.message}.`);
    if (timeout.aborted) throw new RerankError("timeout", `The reranker did not answer within ${config.timeoutMs} ms.`);
    if (outer?.aborted) throw error;
    throw new RerankError("unreachable", `The reranker at ${url} could not be reached (${describe(error)}).`);
  }
  const { text } = answer;
  if (!answer.ok) {
    throw new RerankError(
      "http_error",
      `The reranker answered HTTP ${answer.status}: ${quote(text, config.apiKey)}${protocolHint(config, answer.status, text)}`,
      answer.status,
    );
  }
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    throw new RerankError("bad_response", `The reranker's answer is not JSON: ${quote(text, config.apiKey)}`);
  }
  let scores: RerankScore[];
  const cohere = CohereAnswer.safeParse(json);
  if (cohere.success) scores = cohere.data.results.map((r) => ({ index: r.index, score: r.relevance_score }));
  else {
    const bare = BareAnswer.safeParse(json);
    if (!bare.success) {
      throw new RerankError(
        "bad_response",
        "The reranker's answer is neither {results: [{index, relevance_score}]} nor [{index, score}].",
      );
    }
    scores = bare.data;
  }
  const seen = new Set<number>();
  for (const s of scores) {
    if (s.index >= documents.length) {
      throw new RerankError("bad_response", `The reranker named document ${s.index}, but only ${documents.length} were sent.`);
    }
    if (seen.has(s.index)) throw new RerankError("bad_response", `The reranker scored document ${s.index} twice.`);
    seen.add(s.index);
  }
  return scores;
}

/** The request in the configured protocol; `top_n` is at most the documents sent (the reference's rule). */
function requestBody(config: RerankConfig, query: string, documents: readonly string[], topN: number) {
  if (config.protocol === "tei") {
    // TEI answers every text (it has no top_n); `truncate` cuts a text past the model's window
    // instead of failing the whole request with a 413.
    return { query, texts: documents, truncate: true };
  }
  return { model: config.model, query, documents, top_n: Math.min(topN, documents.length) };
}

/**
 * A 422 that names the other protocol's field is the protocol set the wrong way round: said in
 * the message, which is what the user reads in the recall's notice.
 */
function protocolHint(config: RerankConfig, status: number, text: string): string {
  if (status !== 422 && status !== 400) return "";
  if (config.protocol === "cohere" && /\btexts\b/.test(text)) {
    return " (this looks like text-embeddings-inference: set RERANK_PROTOCOL=tei)";
  }
  if (config.protocol === "tei" && /\bdocuments\b/.test(text)) {
    return " (this endpoint wants Cohere-style documents: unset RERANK_PROTOCOL or set it to cohere)";
  }
  return "";
}

function describe(error: unknown): string {
  const cause = error instanceof Error && error.cause instanceof Error ? error.cause : error;
  return cause instanceof Error ? cause.message : String(cause);
}

/** A short, single-line quote of an upstream body, with the key blanked should it echo it. */
function quote(text: string, key: string | undefined): string {
  let line = text.replace(/\s+/g, " ").trim();
  if (key) line = line.split(key).join("[key]");
  if (line.length === 0) return "(empty body)";
  return line.length > QUOTE_CHARS ? `${line.slice(0, QUOTE_CHARS)}…` : line;
}
