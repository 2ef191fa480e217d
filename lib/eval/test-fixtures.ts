/** Shared builders of the eval tests (lib/eval, lib/charts/eval-report): a run item with nothing measured. */
import type { EvalRunItem } from "./run-schemas";

/** An ok item at `position` with no scores, no relevant ids and nothing returned, then `o` over it. */
export function evalRunItem(position: number, o: Partial<EvalRunItem> = {}): EvalRunItem {
  return {
    position,
    item_id: null,
    query: `q${position}`,
    kind: null,
    relevant: [],
    recall_id: "r",
    status: "ok",
    level: "low",
    reference_level: "low",
    top_score: null,
    prominence: null,
    relative_margin: null,
    first_relevant_rank: null,
    returned_ids: [],
    ...o,
  };
}
