/**
 * The page the agent got, and what the selector removed from it (lib/selectors/README.md "Selector
 * truth"). Pure and client-safe.
 *
 * The log keeps the page as it was answered: for a recall run here, the whole page the selector
 * was given, its removed rows marked `dropped: true`; for an ingested or remote answer, what the
 * service returned (its selector's removals known by id only, `dropped_memory_ids`). Every read
 * splits it the same way:
 *
 * - `results`: the kept rows, in page order, without the marker — what an agent reading the
 *   answer gets, so `selector.kept === results.length` whenever the block states `kept`;
 * - `dropped_results`: the removed rows, same shape, in page order; a removal known only by id
 *   gets its summary and score from the candidate list when there is one (else `""` and null).
 *
 * `rank` is the row's 1-based position on the logged page; removals known by id only have none.
 */
import type { SearchMode } from "@/lib/recall/merge";
import type { LoggedCandidate, LoggedResult } from "./types";

export interface PageSplit {
  results: LoggedResult[];
  dropped_results: LoggedResult[];
}

export function splitPage(args: {
  /** The results column as logged. */
  logged: readonly LoggedResult[];
  /** The ids the block lists as dropped (≤ 20), for removals not on the logged page. */
  droppedIds: readonly string[];
  candidates: readonly LoggedCandidate[] | null;
  searchMode: SearchMode;
}): PageSplit {
  const results: LoggedResult[] = [];
  const dropped: LoggedResult[] = [];
  const onPage = new Set<string>();
  args.logged.forEach((row, i) => {
    const { dropped: isDropped, ...rest } = row;
    onPage.add(row.memory_id);
    const out = { ...rest, rank: i + 1 };
    if (isDropped === true) dropped.push(out);
    else results.push(out);
  });
  const byId = new Map((args.candidates ?? []).map((c) => [c.memory_id, c]));
  for (const id of args.droppedIds) {
    if (onPage.has(id)) continue;
    onPage.add(id);
    const c = byId.get(id);
    dropped.push({ memory_id: id, summary: c?.summary ?? "", score: c ? candidateScore(c, args.searchMode) : null });
  }
  return { results, dropped_results: dropped };
}

/** The score the store would have answered for a candidate: the reference's `score` by mode. */
function candidateScore(c: LoggedCandidate, mode: SearchMode): number | null {
  if (mode === "semantic") return c.raw_cosine;
  if (mode === "keyword") return c.keyword_score;
  return c.hybrid_score;
}

/**
 * The page as the console shows it: kept and dropped rows together, in page order (removals
 * known by id only last), each dropped one marked.
 */
export function displayPage(view: PageSplit): (LoggedResult & { dropped: boolean })[] {
  const rows = [
    ...view.results.map((r) => ({ ...r, dropped: false })),
    ...view.dropped_results.map((r) => ({ ...r, dropped: true })),
  ];
  return rows
    .map((row, i) => ({ row, i }))
    .sort((a, b) => (a.row.rank ?? Infinity) - (b.row.rank ?? Infinity) || a.i - b.i)
    .map(({ row }) => row);
}
