/**
 * Which labeled set Evaluate's picker shows first (client-safe, pure). Only a set of the chosen
 * store is offered: its relevant ids name that store's memories (lib/stores/server/embedded/README.md "Embedded
 * stores"). The newest set is not a good guess: a set uploaded to try something once would take
 * the place of the one a user runs every day. So, among the store's sets: the set of the latest
 * run (what this user evaluates), else the only set, else the demo corpus's set, else the newest.
 */
export interface PickableSet {
  id: string;
  origin: string;
  /** The store the set belongs to; a set naming none is taken as the chosen store's. */
  store?: string;
}

export function defaultSetId(
  /** Newest first, as `GET /api/datasets` lists them. */
  allSets: readonly PickableSet[],
  /** Newest first, as `GET /api/eval-runs` lists them. */
  runs: readonly { dataset: { id: string } }[],
  /** The chosen store: sets of another store are never picked. */
  store?: string,
): string {
  const sets = store === undefined ? allSets : allSets.filter((s) => s.store === undefined || s.store === store);
  const known = new Set(sets.map((s) => s.id));
  const lastRun = runs.find((run) => known.has(run.dataset.id));
  if (lastRun) return lastRun.dataset.id;
  if (sets.length === 1) return sets[0]!.id;
  return (sets.find((s) => s.origin === "demo") ?? sets[0])?.id ?? "";
}
