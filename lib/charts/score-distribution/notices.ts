import type { RecallNotice } from "@/lib/recall-log/types";
import type { ChartCallout, PreparedScoreDistribution } from "./types";

// ---------------------------------------------------------------------------------------------
// Notices: what the ranking hides (the answer's `notices[]`), named on the chart

/** The stroke of a point a notice is about (amber-700: 4.5:1 on white, apart from the level colours). */
export const NOTICE_STROKE = "#b45309";

const KIND_TITLES: Readonly<Record<string, string>> = Object.freeze({
  buried_best_hit: "Buried best hit",
  keyword_outside_fetch_window: "BM25 not fetched",
  reranked: "Reranked",
  rerank_failed: "Rerank failed",
  span_ids_derived: "Ids read from elsewhere in the span",
  span_ids_generated: "Ids made from the content",
  span_scores_missing: "No scores in the span",
  span_unread: "Not read from the span",
});

/** A notice kind as a heading: the known ones by name, others from their code. */
export function noticeTitle(kind: string): string {
  const known = KIND_TITLES[kind];
  if (known) return known;
  const words = kind.replaceAll("_", " ").trim();
  return words ? words.charAt(0).toUpperCase() + words.slice(1) : "Notice";
}

/**
 * Marks the points the recall's notices are about and lists the notices as callouts. A notice
 * whose memory is not drawn (not fetched, or no value on this axis) is still listed, `onChart:
 * false`. A BM25 a notice carries for a memory whose candidate has none becomes its display BM25
 * (computed for display, not used by the merge).
 */
export function withNotices(
  prepared: PreparedScoreDistribution,
  notices: readonly RecallNotice[] | null | undefined,
): PreparedScoreDistribution {
  if (!notices || notices.length === 0) return prepared;
  const callouts: ChartCallout[] = [];
  const points = prepared.points.map((p) => ({ ...p }));
  for (const n of notices) {
    if (typeof n?.message !== "string") continue;
    // A memory is highlighted once, by its first notice; every notice is still listed.
    const memoryId = typeof n.memory_id === "string" && n.memory_id !== "" ? n.memory_id : null;
    const point = memoryId === null ? undefined : points.find((p) => p.memoryId === memoryId);
    if (point) {
      point.notice ??= n.kind;
      const computed = n.computed_keyword_score;
      if (point.scores.bm25 === null && typeof computed === "number" && Number.isFinite(computed)) point.displayBm25 = computed;
    }
    callouts.push({ kind: String(n.kind), memoryId, message: n.message, onChart: point !== undefined });
  }
  const named = callouts.map((c) => `${noticeTitle(c.kind)}${c.memoryId ? ` (${c.memoryId})` : ""}: ${c.message}`);
  return {
    ...prepared,
    points,
    callouts,
    ariaLabel: named.length > 0 ? `${prepared.ariaLabel} ${named.join(" ")}` : prepared.ariaLabel,
  };
}
