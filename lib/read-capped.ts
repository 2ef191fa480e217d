/**
 * Reading a body that may be larger than the reader accepts: refused at once when its declared
 * length is over the limit, otherwise counted while it streams and cancelled at the limit, so a
 * chunked body without a length (or one that lies about it) never costs more than `max` bytes of
 * memory. One home for the request bodies of the route wrapper (lib/api/route.ts, 413), the
 * memory services' answers (lib/stores/remote/answer-reading.ts, 502) and the answers of the
 * reranker, the LLM selector and embeddings endpoints (lib/post-json.ts).
 */

/**
 * The bytes of `body`, or the error `tooLarge(bytes)` makes (bytes: the declared length, or the
 * count when the stream passed `max`).
 */
export async function readCapped(
  body: ReadableStream<Uint8Array> | null,
  declaredLength: string | null,
  max: number,
  tooLarge: (bytes: number) => Error,
): Promise<Buffer> {
  const declared = Number(declaredLength ?? NaN);
  if (declared > max) {
    await body?.cancel().catch(() => undefined);
    throw tooLarge(declared);
  }
  if (!body) return Buffer.alloc(0);
  const reader = body.getReader();
  const chunks: Uint8Array[] = [];
  let total = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    total += value.byteLength;
    if (total > max) {
      await reader.cancel().catch(() => undefined);
      throw tooLarge(total);
    }
    chunks.push(value);
  }
  return Buffer.concat(chunks, total);
}
