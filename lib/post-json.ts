/**
 * One JSON POST to an external API the app calls on a recall (the reranker, the LLM selector):
 * a bearer key when one is configured, and the answer read whole as text, so the caller can
 * parse it or quote it in an error. A transport failure (refused, reset, aborted) is thrown as
 * fetch throws it; what it means (timeout, unreachable, cancelled) is the caller's to say.
 */

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
  return { status: response.status, ok: response.ok, text: await response.text() };
}
