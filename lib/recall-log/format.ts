/**
 * Pure display helpers for a recall's result view (confidence, results, selector panels).
 * Client-safe: no I/O, no React. Numbers use the reference's rounding (Python half-to-even on the
 * exact binary value), so a figure here reads the same as the reference service's own output.
 */
import { formatBm25, formatScore, MISSING, plural } from "@/lib/format";
import type { Basis, Level } from "@/lib/recall/confidence";
import { LEVELS } from "@/lib/recall/confidence";
import type { SearchMode } from "@/lib/recall/merge";
import { selectorReasonKind, selectorReasonKindLabel, selectorReasonLabel } from "@/lib/recall/selector-reasons";

/** The element id of a result row, which the selector panel links to. */
export function resultRowId(memoryId: string): string {
  return `result-${memoryId}`;
}

/** The link to a result row (`#result-<id>`; percent-encoded only where an id needs it). */
export function resultRowHref(memoryId: string): string {
  return `#${encodeURIComponent(resultRowId(memoryId))}`;
}

export type LevelOrUnknown = Level | "unknown";

/** A level as received (possibly null or a value from a newer service) → a known level or "unknown". */
export function normalizeLevel(level: string | null | undefined): LevelOrUnknown {
  return typeof level === "string" && (LEVELS as readonly string[]).includes(level) ? (level as Level) : "unknown";
}

const LEVEL_WORDS: Record<LevelOrUnknown, string> = {
  high: "High",
  moderate: "Moderate",
  low: "Low",
  none: "None",
  unknown: "Unknown",
};

/** The word on a level badge. */
export function levelWord(level: string | null | undefined): string {
  return LEVEL_WORDS[normalizeLevel(level)];
}

const BASIS_WORDS: Record<Basis, string> = {
  semantic: "Semantic: prominence of the top raw cosine over the candidate-pool background",
  single_semantic: "Single semantic candidate: judged by absolute cosine strength alone",
  zscore: "Keyword-only pool: z-score of the top score over the background (no raw cosines)",
  single: "Single candidate without a raw cosine: always rated moderate",
  empty: "Empty pool: no candidates were retrieved",
};

/** The confidence basis in words; an unknown basis (from a newer service) is shown verbatim. */
export function basisText(basis: string | null | undefined): string {
  if (basis === null || basis === undefined || basis === "") return "Not recorded";
  return Object.hasOwn(BASIS_WORDS, basis) ? BASIS_WORDS[basis as Basis] : basis;
}

/** True when the top score is a raw cosine (the semantic paths), false when it is a hybrid/BM25 score. */
export function topScoreIsCosine(basis: string | null | undefined): boolean {
  return basis === "semantic" || basis === "single_semantic";
}

/** What a logged top score is measured in. */
export type TopScoreUnit = "cosine" | "BM25" | "hybrid";

/**
 * The scale of a recall's `top_score` (docs/reference-rules.md "The confidence block"): on the semantic paths the
 * raw cosine; on the fallback path the largest hybrid score, raw BM25 when the search was
 * keyword-only (keyword mode, or a hybrid search degraded to its keyword arm). Null when the basis
 * is unknown or the pool was empty (no top score to read).
 */
export function topScoreUnit(
  basis: string | null | undefined,
  mode: string | null | undefined,
  degraded = false,
): TopScoreUnit | null {
  if (topScoreIsCosine(basis)) return "cosine";
  if (basis !== "zscore" && basis !== "single") return null;
  if (mode === "keyword" || degraded) return "BM25";
  if (mode === "hybrid") return "hybrid";
  return mode === "semantic" ? "cosine" : null;
}

/** A top score with its scale, as a table cell shows it: "0.528 cos", "10.875 BM25". */
export function topScoreLabel(
  score: number | null | undefined,
  unit: TopScoreUnit | null,
): { value: string; unit: string; title: string } {
  if (score === null || score === undefined || !Number.isFinite(score)) {
    return { value: MISSING, unit: "", title: "No top score (empty pool or failed recall)" };
  }
  const short = unit === "cosine" ? "cos" : unit === "BM25" ? "BM25" : unit === "hybrid" ? "hyb" : "";
  const title =
    unit === "cosine"
      ? "Raw cosine of the best candidate (−1 to 1)"
      : unit === "BM25"
        ? "Raw BM25 of the best candidate (keyword-only pool; unbounded, not comparable with cosines)"
        : unit === "hybrid"
          ? "Hybrid score of the best candidate (0.6 × semantic + 0.4 × BM25, max-normalized; no raw cosines in the pool)"
          : "The store's top score (its scale was not recorded)";
  return { value: unit === "BM25" ? formatBm25(score) : formatScore(score), unit: short, title };
}

/**
 * Why the selector did not apply, in words, from the one reason list
 * (lib/recall/selector-reasons.ts): its kind and its label ("Failed: timed out"). An unknown
 * reason is shown verbatim (it is the only information there is); a missing one says so.
 */
export function selectorReasonText(reason: string | null | undefined): string {
  if (reason === null || reason === undefined || reason.trim() === "") return "The selector did not run (no reason given)";
  const kind = selectorReasonKind(reason);
  if (kind === "unknown") return reason;
  return `${selectorReasonKindLabel(kind)}: ${selectorReasonLabel(reason)}`;
}

/**
 * The note under a capped dropped-id list, or null when every dropped id is listed.
 * `dropped` is the selector's own count; `listed` the number of ids it sent (at most 20).
 */
export function droppedListNote(dropped: number | null | undefined, listed: number): string | null {
  if (dropped === null || dropped === undefined || dropped <= listed) return null;
  if (listed === 0) return `The selector dropped ${plural(dropped, "result")} but did not list their ids.`;
  const rest = dropped - listed;
  return `The selector dropped ${dropped} results but lists only the first ${listed} ids (the list is capped at 20); ${plural(rest, "more id")} ${rest === 1 ? "is" : "are"} not listed.`;
}

/** What the `score` column holds for a search mode (the reference's `score` follows the mode). */
export function scoreMeaning(mode: SearchMode | string | null | undefined): string {
  switch (mode) {
    case "semantic":
      return "raw cosine (semantic mode)";
    case "keyword":
      return "raw BM25 (keyword mode)";
    case "hybrid":
      return "hybrid score: 0.6 × semantic + 0.4 × BM25, each max-normalized";
    default:
      return "the store's score";
  }
}

/** The `<summary>` of the collapsed list of candidates outside the returned page. */
export function outsideCandidatesLabel(count: number): string {
  return `${count} more ${count === 1 ? "candidate" : "candidates"} outside the page`;
}

/**
 * Why the returned page is empty.
 * @param poolSize how many candidates confidence saw (`result_count`), or the candidate list's
 *   length; null when unknown.
 * @param failed the recall itself failed.
 */
export function emptyResultsMessage(poolSize: number | null | undefined, failed = false): string {
  if (failed) return "No results: the recall failed.";
  if (poolSize !== null && poolSize !== undefined && poolSize > 0) {
    return `No results: the store found ${plural(poolSize, "candidate")}, but post-filters removed ${poolSize === 1 ? "it" : "them all"} from the page.`;
  }
  return "No results: the store returned nothing for this query.";
}
