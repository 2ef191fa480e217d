import { describe, expect, it } from "vitest";
import type { LoggedSelectorTrace } from "@/lib/recall-log/types";
import { scoreGapWords, selectorKindWords } from "./selector-words";

const gapTrace = (cut: boolean): LoggedSelectorTrace => ({
  model: "score-gap",
  latency_ms: 0.1,
  score_gap: {
    signal: "raw_cosine",
    min_relative_drop: 0.15,
    participants: 5,
    kept_without_signal: 1,
    largest_relative_drop: cut ? 0.25 / 0.55 : 0.02,
    cut: cut
      ? {
          above: { memory_id: "r5", rank: 5, raw_cosine: 0.55 },
          below: { memory_id: "r3", rank: 3, raw_cosine: 0.3 },
          relative_drop: 0.25 / 0.55,
        }
      : null,
  },
});

describe("selector panel words", () => {
  it("say which kind ran", () => {
    expect(selectorKindWords("score-gap", gapTrace(true))?.title).toBe("Offline heuristic (score gap)");
    expect(selectorKindWords("gpt-x", { model: "gpt-x", prompt_version: "v3" })).toMatchObject({
      kind: "llm",
      title: "LLM (gpt-x)",
    });
    expect(selectorKindWords("their-model", null)?.kind).toBe("service");
    expect(selectorKindWords(null, null)).toBeNull();
  });

  it("say the score gap's signal, gap, threshold and cut, and the order it breaks", () => {
    expect(scoreGapWords(gapTrace(true), [1, 2, 5, 6], [3, 4])).toEqual([
      "It cut on raw cosine, not on the Score column: the largest drop, 45 %, is between rank 5 (0.550, kept) and rank 3 (0.300, dropped); the threshold is 15 %. Every result at or below 0.300 raw cosine was dropped.",
      "The page is ordered by its score, not by raw cosine, so kept rank 6 sits below dropped ranks 3, 4.",
      "1 result without a raw cosine (keyword-only) kept whatever the cut.",
    ]);
    expect(scoreGapWords(gapTrace(true), [1, 2], [3])).toHaveLength(2);
    expect(scoreGapWords(gapTrace(false))[0]).toBe(
      "No clear gap: the largest drop by raw cosine is 2 %, below the 15 % threshold, so every result was kept.",
    );
    expect(scoreGapWords({ model: "gpt-x" })).toEqual([]);
  });
});
