/**
 * `npm run bench -- proxy-bomb [--mb 1024]`: what a gzip bomb through the recall proxy costs the
 * server. A memory-service double answers a recall with `--mb` MB of JSON gzip-compressed
 * (about a thousandth of that on the wire); the proxy's route handler, served as Next sends it,
 * decodes it for the agent and copies at most the capture cap for the log. Prints the bomb's
 * sizes, the bytes the agent got, the server's RSS before and at its peak (sampled every 10 ms),
 * the time taken and how the recall was logged.
 */
import path from "node:path";
import { runWithServerConditions } from "./server-conditions";

export async function run(args: string[]): Promise<void> {
  await runWithServerConditions(path.join(__dirname, "proxy-bomb-run.ts"), args);
}
