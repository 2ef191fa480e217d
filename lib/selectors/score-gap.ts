/**
 * The offline **score gap** selector (`model: "score-gap"`): no LLM, it cuts the page at the
 * largest relative drop in raw cosine. Named as what it is: a heuristic on score shape, not a
 * relevance judgement.
 *
 * The rule, exactly:
 *
 * 1. Only results with a finite `raw_cosine` take part. Results without one (keyword-only hits,
 *    or a store that does not expose cosines) are always **kept**: they made the page on BM25,
 *    and the rule has no evidence to place them on the cosine scale. Non-finite values count
 *    as missing.
 * 2. No participating result → not applied, `no_cosines`. Fewer than
 *    {@link SCORE_GAP_MIN_COSINES} (3) → not applied, `too_few_results`: with one or two
 *    scores, "the largest drop" is no more than "the only drop".
 * 3. Sort the participants by raw cosine, highest first (equal cosines keep page order). For
 *    each consecutive pair (a above b) with a > 0, the relative drop is (a − b) / a. Pairs with
 *    a ≤ 0 are skipped: a ratio to a non-positive cosine means nothing (and everything below
 *    is no better).
 * 4. The largest relative drop must be ≥ {@link SCORE_GAP_MIN_RELATIVE_DROP} (0.15, with a
 *    {@link SCORE_GAP_TIE_TOLERANCE} float tolerance); otherwise there is no clear gap and the
 *    rule keeps the whole page: **applied, 0 dropped** (it ran and judged; "not applied" is only
 *    for a rule that could not run, lib/selectors/README.md "Selector truth").
 *    When two drops tie (within the tolerance) the lower one wins: the cut keeps more.
 * 5. Every participant below that drop is dropped; everything else is kept. So the result with
 *    the highest raw cosine is always kept, at least one result stays, and never more than
 *    all-but-one participant goes. Equal cosines are never split (their drop is 0).
 * 6. Kept and dropped ids are reported in page order (the block lists ≤ 20 dropped ids).
 *
 * Hybrid scores are not used, although the page is ordered by them in hybrid mode: the hybrid
 * score is 0.6 × the max-normalized cosine + 0.4 × the max-normalized BM25, so a step in it is
 * mostly "matched a keyword or not" — a cut there would drop every semantically close result
 * that shares no word with the query. The raw cosine is the one signal on one scale for every
 * result (docs/reference-rules.md "The confidence block"). The price: a kept result can sit
 * below a dropped one on the page. So the run's trace (`score_gap`, {@link scoreGapTrace}) says
 * the signal, the gap, the threshold and the cut with both sides' ranks, the selector panel says
 * it in words and the score distribution draws the cut on the raw cosine axis.
 */
import { appliedRun, notAppliedRun, pageProblem } from "./run";
import type { ScoreGapTrace, Selector, SelectorInput, SelectorRun } from "./types";

/** The block's `model` for this strategy. */
export const SCORE_GAP_MODEL = "score-gap";
/** The rule applies only when at least this many results carry a raw cosine. */
export const SCORE_GAP_MIN_COSINES = 3;
/** The largest relative drop must be at least this ((a − b) / a). */
export const SCORE_GAP_MIN_RELATIVE_DROP = 0.15;
/** Relative drops this close count as equal (ties, and the minimum test), absorbing float noise. */
export const SCORE_GAP_TIE_TOLERANCE = 1e-9;

export interface ScoreGapCut {
  /** The result just above the cut (the lowest kept participant) and its raw cosine. */
  above: { memory_id: string; raw_cosine: number };
  /** The result just below the cut (the highest dropped) and its raw cosine. */
  below: { memory_id: string; raw_cosine: number };
  /** (above − below) / above. */
  relative_drop: number;
}

export type ScoreGapDecision =
  | {
      applied: true;
      keptIds: string[];
      droppedIds: string[];
      /** Where the page was cut; null when there was no clear gap and everything was kept. */
      cut: ScoreGapCut | null;
      /** Why nothing was dropped (`cut` null). */
      detail?: string;
      /** The largest relative drop found, when there was a pair to measure. */
      largest_relative_drop?: number;
    }
  | {
      applied: false;
      reason: "empty_page" | "invalid_page" | "no_cosines" | "too_few_results";
      detail: string;
    };

function finiteCosine(value: unknown): number | null {
  return typeof value === "number" && Number.isFinite(value) ? value : null;
}

/** The score-gap rule as a pure function (see the module comment for the exact rule). */
export function decideScoreGap(page: SelectorInput["page"]): ScoreGapDecision {
  const problem = pageProblem(page);
  if (problem) return { applied: false, reason: problem.reason as "empty_page" | "invalid_page", detail: problem.detail };

  const participants = page
    .map((item, index) => ({ id: item.memory_id, index, cosine: finiteCosine(item.raw_cosine) }))
    .filter((row): row is { id: string; index: number; cosine: number } => row.cosine !== null);
  if (participants.length === 0) {
    return { applied: false, reason: "no_cosines", detail: "No result on the page carries a raw cosine." };
  }
  if (participants.length < SCORE_GAP_MIN_COSINES) {
    return {
      applied: false,
      reason: "too_few_results",
      detail: `Only ${participants.length} result(s) carry a raw cosine; the rule needs ${SCORE_GAP_MIN_COSINES}.`,
    };
  }

  // Array.prototype.sort is stable: equal cosines keep page order.
  const sorted = [...participants].sort((a, b) => b.cosine - a.cosine);
  let best = -1;
  let bestDrop = -Infinity;
  for (let i = 0; i + 1 < sorted.length; i++) {
    const a = sorted[i]!.cosine;
    const b = sorted[i + 1]!.cosine;
    if (a <= 0) continue;
    const drop = (a - b) / a;
    // `>=` with a tolerance: a later (lower) tie replaces the earlier one, so the cut keeps more.
    if (drop >= bestDrop - SCORE_GAP_TIE_TOLERANCE) {
      best = i;
      bestDrop = Math.max(bestDrop, drop);
    }
  }
  const keepAll = (detail: string, largest?: number): ScoreGapDecision => ({
    applied: true,
    keptIds: page.map((item) => item.memory_id),
    droppedIds: [],
    cut: null,
    detail,
    ...(largest === undefined ? {} : { largest_relative_drop: largest }),
  });
  if (best < 0) return keepAll("No clear gap: no positive raw cosine to measure a relative drop from; everything kept.");
  if (bestDrop + SCORE_GAP_TIE_TOLERANCE < SCORE_GAP_MIN_RELATIVE_DROP) {
    return keepAll(
      `No clear gap: the largest relative drop is ${bestDrop.toFixed(3)}, below the ${SCORE_GAP_MIN_RELATIVE_DROP} minimum; everything kept.`,
      bestDrop,
    );
  }

  const above = sorted[best]!;
  const below = sorted[best + 1]!;
  const dropped = new Set(sorted.slice(best + 1).map((row) => row.id));
  return {
    applied: true,
    keptIds: page.map((item) => item.memory_id).filter((id) => !dropped.has(id)),
    droppedIds: page.map((item) => item.memory_id).filter((id) => dropped.has(id)),
    cut: {
      above: { memory_id: above.id, raw_cosine: above.cosine },
      below: { memory_id: below.id, raw_cosine: below.cosine },
      relative_drop: (above.cosine - below.cosine) / above.cosine,
    },
    largest_relative_drop: bestDrop,
  };
}

/** The decision as the run's trace: the signal, the threshold, the gap found and the cut with each side's page rank. */
export function scoreGapTrace(page: SelectorInput["page"], decision: ScoreGapDecision): ScoreGapTrace {
  const participants = page.filter((item) => finiteCosine(item.raw_cosine) !== null).length;
  const rank = (id: string) => page.findIndex((item) => item.memory_id === id) + 1;
  const cut = decision.applied ? decision.cut : null;
  return {
    signal: "raw_cosine",
    min_relative_drop: SCORE_GAP_MIN_RELATIVE_DROP,
    participants,
    kept_without_signal: page.length - participants,
    largest_relative_drop: decision.applied ? (decision.largest_relative_drop ?? null) : null,
    cut: cut
      ? {
          above: { ...cut.above, rank: rank(cut.above.memory_id) },
          below: { ...cut.below, rank: rank(cut.below.memory_id) },
          relative_drop: cut.relative_drop,
        }
      : null,
  };
}

/** The score-gap strategy as a {@link Selector}. Pure and instant; `signal` is not consulted. */
export function createScoreGapSelector(): Selector {
  return {
    id: "gap",
    model: SCORE_GAP_MODEL,
    async select(input: SelectorInput): Promise<SelectorRun> {
      const started = performance.now();
      const decision = decideScoreGap(input.page);
      // A page the rule cannot read (empty, repeated ids) has nothing to explain.
      const trace =
        decision.applied || decision.reason === "no_cosines" || decision.reason === "too_few_results"
          ? { score_gap: scoreGapTrace(input.page, decision) }
          : undefined;
      if (!decision.applied)
        return notAppliedRun(SCORE_GAP_MODEL, input.page, decision.reason, started, {
          detail: decision.detail,
          ...(trace ? { trace } : {}),
        });
      return appliedRun(SCORE_GAP_MODEL, input.page, new Set(decision.keptIds), started, {
        ...(decision.detail ? { detail: decision.detail } : {}),
        ...(trace ? { trace } : {}),
      });
    },
  };
}
