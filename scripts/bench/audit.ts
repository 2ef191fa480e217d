/**
 * `npm run bench -- audit [--sizes 10000] [--time-box 900] [--every 250] [--demo]`: the reachability audit
 * (lib/audit/README.md "Reachability audit") of a synthetic embedded store per size — time,
 * probe recalls per second, RSS — and console recalls' p95 with and without an audit running.
 * `--demo` audits the demo corpus with its labeled queries logged instead, and prints the counts.
 * The audit's modules are server-only, so the body runs under the react-server condition.
 */
import path from "node:path";
import { runWithServerConditions } from "./server-conditions";

export async function run(args: string[]): Promise<void> {
  await runWithServerConditions(path.join(__dirname, "audit-run.ts"), args);
}
