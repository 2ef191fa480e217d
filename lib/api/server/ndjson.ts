import "server-only";

/**
 * Streams an async generator's events as JSON Lines, one per line, pulled as the client reads.
 * Closing the request returns the generator (its `finally` runs, so the work stops). A failure
 * mid-stream cannot change the status any more: it becomes a last `{type:"error"}` line with a
 * message for a person, and the cause goes to the server log only (docs/ARCHITECTURE.md "Bad input").
 */
export function ndjsonResponse(events: AsyncGenerator<unknown, unknown, undefined>, what: string): Response {
  const encoder = new TextEncoder();
  const stream = new ReadableStream<Uint8Array>({
    async pull(controller) {
      try {
        const next = await events.next();
        if (next.done) controller.close();
        else controller.enqueue(encoder.encode(JSON.stringify(next.value) + "\n"));
      } catch (error) {
        console.error(`${what} failed:`, error);
        const message = `The ${what} failed on the server; see its log.`;
        controller.enqueue(encoder.encode(JSON.stringify({ type: "error", message }) + "\n"));
        controller.close();
      }
    },
    async cancel() {
      await events.return(undefined);
    },
  });
  return new Response(stream, {
    headers: { "content-type": "application/x-ndjson; charset=utf-8", "cache-control": "no-store" },
  });
}
