/**
 * Which labeled set Evaluate's picker shows first (client-safe, pure). The newest set is not a
 * good guess: a set uploaded to try something once would take the place of the one a user runs
 * every day. So: the set of the latest run (what this user evaluates), else the only set, else
 * the demo corpus's set (it matches the demo store), else the newest.
 */
export interface PickableSet {
  id: string;
  origin: string;
}

export function defaultSetId(
  /** Newest first, as `GET /api/datasets` lists them. */
  sets: readonly PickableSet[],
  /** Newest first, as `GET /api/eval-runs` lists them. */
  runs: readonly { dataset: { id: string } }[],
): string {
  const known = new Set(sets.map((s) => s.id));
  const lastRun = runs.find((run) => known.has(run.dataset.id));
  if (lastRun) return lastRun.dataset.id;
  if (sets.length === 1) return sets[0]!.id;
  return (sets.find((s) => s.origin === "demo") ?? sets[0])?.id ?? "";
}
