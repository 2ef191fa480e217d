/**
 * `npm run bench -- proxy [--calls 400] [--postgres]`: what the recall proxy adds to an agent's recall. The
 * same recall goes to the loopback memory-service double directly and through the proxy's
 * route handler (served by node:http in this process, as Next serves it, without Next's router),
 * alternately, over keep-alive connections; every proxied recall is logged afterwards as the
 * app would. Prints p50/p95 of each, the paired overhead, and the load average.
 */
import path from "node:path";
import { runWithServerConditions } from "./server-conditions";

export async function run(args: string[]): Promise<void> {
  await runWithServerConditions(path.join(__dirname, "proxy-run.ts"), args);
}
