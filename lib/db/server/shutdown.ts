import "server-only";
import os from "node:os";
import { closeDatabase } from "./index";
import { processSingleton } from "../../server/process-singleton";

/**
 * Closes the database when the process is told to stop (SIGTERM, SIGINT), after the requests in
 * flight have finished (lib/db/README.md "Database"). A PGlite directory that was not closed
 * replays its write-ahead log on the next open, which costs the next start hundreds of
 * milliseconds at 100k memories.
 *
 * `next start` (and the dev server's worker) handles both signals itself: it stops accepting
 * connections and awaits `server.close()` (the requests in flight finish), then
 * `nextServer.close()` (`after()` work), then calls `process.exit(130 | 143)`
 * (next/dist/server/lib/start-server.js, `cleanup`). Closing the database in our own signal
 * listener would cut those requests off, and an `exit` listener cannot wait for an async close.
 * So when someone else handles the signal, the signal only arms a deferral of the next
 * `process.exit(code)`: that call first closes the database (at most `CLOSE_TIMEOUT_MS`, so a
 * stuck close never hangs the shutdown), then exits with the same code. When nobody else handles
 * it (NEXT_MANUAL_SIG_HANDLE, a plain script), the signal is not swallowed: close, then exit
 * with 128 + the signal's number, as Node's default would.
 */
export const CLOSE_TIMEOUT_MS = 5_000;
const SIGNALS = ["SIGTERM", "SIGINT"] as const;

/**
 * Registers the shutdown handling, once per process (the dev server reloads this module; the
 * first registration's options stay).
 */
export function closeDatabaseOnShutdown({ closeTimeoutMs = CLOSE_TIMEOUT_MS } = {}): void {
  processSingleton("db-shutdown", () => {
    let stopping = false;
    const onSignal = (signal: NodeJS.Signals) => {
      // A shell's Ctrl+C reaches the process twice (the shell and the parent `next dev`).
      if (stopping) return;
      stopping = true;
      // Counted at the signal, not at registration: Next adds its listeners after it listens.
      if (process.listenerCount(signal) > 1) {
        deferNextExitUntilClosed(closeTimeoutMs);
      } else {
        const exit = process.exit.bind(process);
        void closeWithin(closeTimeoutMs).finally(() => exit(128 + os.constants.signals[signal]));
      }
    };
    for (const signal of SIGNALS) process.on(signal, onSignal);
    return true;
  });
}

/**
 * The next `process.exit(code)` closes the database first; later calls while it closes wait for
 * the same close (the first code wins). A handler that lets the event loop run dry instead of
 * calling exit gets the close from `beforeExit`.
 */
function deferNextExitUntilClosed(closeTimeoutMs: number): void {
  const exit = process.exit.bind(process);
  let closing: Promise<void> | undefined;
  process.exit = ((code?: number | string | null) => {
    if (!closing) {
      // Should the loop run dry while the close is pending, the process still ends with this code.
      if (code !== undefined && code !== null) process.exitCode = code;
      closing = closeWithin(closeTimeoutMs).finally(() => exit(code));
    }
    return undefined as never;
  }) as typeof process.exit;
  process.once("beforeExit", () => {
    closing ??= closeWithin(closeTimeoutMs);
  });
}

/** Closes the database, giving up (with a line saying so) after `ms`. Never rejects. */
async function closeWithin(ms: number): Promise<void> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  // Not unref'd: the pending timer keeps the process alive until the close settles.
  const timeout = new Promise<"timeout">((resolve) => (timer = setTimeout(() => resolve("timeout"), ms)));
  try {
    const outcome = await Promise.race([closeDatabase().then(() => "closed" as const), timeout]);
    if (outcome === "timeout")
      console.error(`Recall Inspector: the database did not close within ${ms / 1000} s; exiting without a clean close.`);
  } catch (error) {
    console.error("Recall Inspector: closing the database failed:", error);
  } finally {
    clearTimeout(timer);
  }
}
