/**
 * `npm run bench -- start [--size 100000] [--queries 200] [--data DIR]`
 *
 * How soon the app can answer at a size, and what a recall then costs in the server, in fresh
 * processes under the react-server condition (the route handlers' own modules):
 * 1. fill (once; kept in DIR, default the temp folder, for the next run): a PGlite database with
 *    `size` synthetic memories (random unit vectors, Zipf-distributed text: recall.ts's corpus);
 * 2. a start with no snapshot: `getEmbeddedStore()` (database open, migrations, index rebuild)
 *    timed, then the snapshot it writes;
 * 3. a start that reads the snapshot, timed the same way, then `queries` hybrid k=10 recalls
 *    through POST /api/recall's handler (validation, store, selector, logging, the answer):
 *    wall time per request minus the query's own embedding (embed_ms), p50/p95, and RSS.
 */
import path from "node:path";
import { runWithServerConditions } from "./server-conditions";

export async function run(args: string[]): Promise<void> {
  const entry = path.join(__dirname, "start-run.ts");
  for (const phase of ["fill", "rebuild", "snapshot"]) await runWithServerConditions(entry, [...args, "--phase", phase]);
}
