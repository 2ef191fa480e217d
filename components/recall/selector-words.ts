/**
 * The selector panel's sentences (pure, client-safe): which kind of selector ran — the offline
 * score-gap heuristic or an LLM — and what that means, and for the score gap, its trace in words
 * (lib/selectors/README.md "Selector truth"; the rule in lib/selectors/score-gap.ts).
 */
import { formatScore } from "@/lib/format";
import type { LoggedSelectorTrace } from "@/lib/recall-log/types";

export const SCORE_GAP_MODEL_NAME = "score-gap";

export type SelectorKindWords = { kind: "heuristic" | "llm" | "service"; title: string; meaning: string };

const pct = (x: number) => `${Math.round(x * 100)} %`;

/** Which kind of selector ran, from its model and trace; null when none was asked. */
export function selectorKindWords(model: string | null | undefined, trace: LoggedSelectorTrace | null): SelectorKindWords | null {
  const name = model ?? trace?.model ?? null;
  if (name === SCORE_GAP_MODEL_NAME || trace?.score_gap) {
    return {
      kind: "heuristic",
      title: "Offline heuristic (score gap)",
      meaning:
        "No model was asked. It orders the page by raw cosine and cuts at the largest relative drop between neighbours, " +
        "when that drop is large enough. It judges the shape of the scores, not what the results say.",
    };
  }
  if (trace?.prompt_version !== undefined || (name !== null && trace !== null)) {
    return {
      kind: "llm",
      title: `LLM${name ? ` (${name})` : ""}`,
      meaning: "A language model read the query and the page and wrote which results to keep; what it saw and said is below.",
    };
  }
  if (name === null) return null;
  return {
    kind: "service",
    title: `The service's selector (${name})`,
    meaning: "It ran in the memory service that answered; how it decides is not known here.",
  };
}

/**
 * The score gap's decision in words: the signal, the gap it found, the threshold and where the
 * cut fell; and, when the page's order (the hybrid score) puts a kept result below a dropped one,
 * that too. `keptRanks` / `droppedRanks`: the page ranks of the kept and dropped results.
 */
export function scoreGapWords(
  trace: LoggedSelectorTrace | null,
  keptRanks: readonly number[] = [],
  droppedRanks: readonly number[] = [],
): string[] {
  const gap = trace?.score_gap;
  if (!gap) return [];
  const out: string[] = [];
  const threshold = pct(gap.min_relative_drop);
  if (gap.cut) {
    const { above, below } = gap.cut;
    out.push(
      `It cut on raw cosine, not on the Score column: the largest drop, ${pct(gap.cut.relative_drop)}, is between ` +
        `rank ${above.rank} (${formatScore(above.raw_cosine)}, kept) and rank ${below.rank} (${formatScore(below.raw_cosine)}, dropped); ` +
        `the threshold is ${threshold}. Every result at or below ${formatScore(below.raw_cosine)} raw cosine was dropped.`,
    );
    const lowestKept = Math.max(...keptRanks);
    const above_ = droppedRanks.filter((r) => r < lowestKept);
    if (keptRanks.length > 0 && above_.length > 0) {
      out.push(
        `The page is ordered by its score, not by raw cosine, so kept rank ${lowestKept} sits below dropped ` +
          `rank${above_.length === 1 ? "" : "s"} ${above_.join(", ")}.`,
      );
    }
  } else if (gap.largest_relative_drop !== null) {
    out.push(
      `No clear gap: the largest drop by raw cosine is ${pct(gap.largest_relative_drop)}, below the ${threshold} threshold, so every result was kept.`,
    );
  } else {
    out.push(
      `Only ${gap.participants} result${gap.participants === 1 ? "" : "s"} carry a raw cosine; the rule needs 3 to measure a gap.`,
    );
  }
  if (gap.kept_without_signal > 0) {
    out.push(
      `${gap.kept_without_signal} result${gap.kept_without_signal === 1 ? "" : "s"} without a raw cosine (keyword-only) kept whatever the cut.`,
    );
  }
  return out;
}
