import { readCapped } from "./read-capped";

/**
 * One JSON POST to an external API the app calls (the reranker, the LLM selector, an embeddings
 * endpoint): a bearer key when one is configured, and the answer read whole as text, so the
 * caller can parse it or quote it in an error. A transport failure (refused, reset, aborted) is
 * thrown as fetch throws it; what it means (timeout, unreachable, cancelled) is the caller's to
 * say. An answer over MAX_ANSWER_BYTES is refused with AnswerTooLargeError (a bad answer).
 */

/**
 * Far above any real answer (128 embeddings of 3072 floats as JSON are about 8 MiB), and low
 * enough that a misbehaving endpoint cannot exhaust the server's memory.
 */
export const MAX_ANSWER_BYTES = 32 * 1024 * 1024;

export class AnswerTooLargeError extends Error {
  override readonly name = "AnswerTooLargeError";
  constructor(
    readonly bytes: number,
    readonly max: number,
  ) {
    super(`sent an answer over ${max / 1024 / 1024} MiB (${bytes} bytes or more), which was not read further`);
  }
}

export interface PostedAnswer {
  status: number;
  ok: boolean;
  text: string;
}

export async function postJson(
  doFetch: typeof fetch,
  url: string,
  { apiKey, body, signal }: { apiKey?: string; body: unknown; signal: AbortSignal },
): Promise<PostedAnswer> {
  const response = await doFetch(url, {
    method: "POST",
    headers: {
      "content-type": "application/json",
      accept: "application/json",
      ...(apiKey ? { authorization: `Bearer ${apiKey}` } : {}),
    },
    body: JSON.stringify(body),
    signal,
  });
  const bytes = await readCapped(
    response.body,
    response.headers.get("content-length"),
    MAX_ANSWER_BYTES,
    (count) => new AnswerTooLargeError(count, MAX_ANSWER_BYTES),
  );
  return { status: response.status, ok: response.ok, text: bytes.toString("utf8") };
}
