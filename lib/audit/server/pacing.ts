/**
 * How the audit shares the process with the console (lib/audit/README.md "Reachability audit"):
 * a console recall running beside an audit must not wait longer than it waits behind an import's
 * embedding. Three rules:
 *  - the probe queries are embedded one chunk at a time at priority "bulk": at most one embedding
 *    worker works for the audit, so the query worker keeps a core, and a user's query never
 *    queues behind a probe (lib/embeddings serves queries first, on a worker of their own);
 *  - before each probe recall and each chunk, the audit waits while a foreground recall (any
 *    recall of an embedded store but a probe, `foregroundRecalls`) is in flight, at most
 *    MAX_WAIT_MS at a time, so a console under constant load slows the audit without stopping it;
 *  - it yields to the event loop after every probe recall, so a timer or a request that came in
 *    meanwhile runs before the next one.
 */
import "server-only";
import { foregroundRecalls } from "@/lib/stores/server/embedded/embedded-store";

/** Probe queries a bulk embed call carries: one USE-lite chunk, so one worker at a time. */
export const EMBED_CHUNK = 32;
/** How often a waiting audit looks again whether the foreground recalls are over. */
const POLL_MS = 3;
/** The longest one wait for foreground recalls lasts. */
export const MAX_WAIT_MS = 1_000;

const nextTurn = () => new Promise<void>((resolve) => setImmediate(resolve));
const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/**
 * Yields to the event loop, then waits while a foreground recall is in flight (at most
 * MAX_WAIT_MS). Throws the signal's reason once it is aborted.
 */
export async function giveWay(signal?: AbortSignal, inFlight: () => number = foregroundRecalls): Promise<void> {
  await nextTurn();
  const until = performance.now() + MAX_WAIT_MS;
  while (inFlight() > 0 && performance.now() < until) {
    signal?.throwIfAborted();
    await sleep(POLL_MS);
  }
  signal?.throwIfAborted();
}
