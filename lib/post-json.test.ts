import { describe, expect, it } from "vitest";
import { AnswerTooLargeError, MAX_ANSWER_BYTES, postJson } from "./post-json";

/** A fetch whose answer streams `chunks` chunks of 1 MiB without declaring a length. */
function streamingFetch(chunks: number, pulled: { count: number; cancelled: boolean }): typeof fetch {
  const chunk = new Uint8Array(1024 * 1024).fill(0x61);
  return (async () =>
    new Response(
      new ReadableStream<Uint8Array>({
        pull(controller) {
          if (pulled.count === chunks) return controller.close();
          pulled.count++;
          controller.enqueue(chunk);
        },
        cancel() {
          pulled.cancelled = true;
        },
      }),
      { status: 200 },
    )) as typeof fetch;
}

const post = (doFetch: typeof fetch) =>
  postJson(doFetch, "http://127.0.0.1:9/x", { body: {}, signal: AbortSignal.timeout(5_000) });

describe("postJson reads an answer up to MAX_ANSWER_BYTES", () => {
  it("reads an answer within the limit whole", async () => {
    const pulled = { count: 0, cancelled: false };
    const answer = await post(streamingFetch(3, pulled));
    expect(answer.ok).toBe(true);
    expect(answer.text.length).toBe(3 * 1024 * 1024);
  });

  it("stops reading a chunked answer at the limit and says how much came", async () => {
    const pulled = { count: 0, cancelled: false };
    const error = await post(streamingFetch(MAX_ANSWER_BYTES / (1024 * 1024) + 10, pulled)).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(AnswerTooLargeError);
    expect((error as AnswerTooLargeError).bytes).toBe(MAX_ANSWER_BYTES + 1024 * 1024);
    expect((error as Error).message).toMatch(/over 32 MiB/);
    expect(pulled.cancelled).toBe(true);
    expect(pulled.count).toBeLessThan(MAX_ANSWER_BYTES / (1024 * 1024) + 4);
  });

  it("refuses an answer whose declared length is over the limit before reading it", async () => {
    let read = false;
    const doFetch = (async () =>
      new Response(
        // highWaterMark 0: the stream pulls only when someone reads.
        new ReadableStream(
          {
            pull() {
              read = true;
            },
          },
          { highWaterMark: 0 },
        ),
        { status: 200, headers: { "content-length": String(MAX_ANSWER_BYTES + 1) } },
      )) as typeof fetch;
    const error = await post(doFetch).catch((e: unknown) => e);
    expect(error).toMatchObject({ name: "AnswerTooLargeError", bytes: MAX_ANSWER_BYTES + 1 });
    expect(read).toBe(false);
  });
});
