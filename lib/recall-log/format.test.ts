import { describe, expect, it } from "vitest";
import {
  MISSING,
  basisText,
  droppedListNote,
  emptyResultsMessage,
  formatBm25,
  formatNumber,
  formatScore,
  levelWord,
  normalizeLevel,
  outsideCandidatesLabel,
  plural,
  resultRowHref,
  resultRowId,
  scoreMeaning,
  selectorReasonText,
  shortenId,
  topScoreIsCosine,
} from "./format";

describe("formatNumber", () => {
  it("formats with fixed decimals", () => {
    expect(formatNumber(0.5, 3)).toBe("0.500");
    expect(formatNumber(12.3456, 2)).toBe("12.35");
    expect(formatNumber(3, 0)).toBe("3");
  });

  it("rounds like the reference (half-to-even on the exact binary value)", () => {
    // 0.0625 is exact in binary: a true tie, rounds to even.
    expect(formatNumber(0.0625, 3)).toBe("0.062");
    // 2.675 is 2.67499999… in binary, so it rounds down.
    expect(formatNumber(2.675, 2)).toBe("2.67");
  });

  it("shows a dash for missing or non-finite values", () => {
    expect(formatNumber(null, 3)).toBe(MISSING);
    expect(formatNumber(undefined, 3)).toBe(MISSING);
    expect(formatNumber(Number.NaN, 3)).toBe(MISSING);
    expect(formatNumber(Number.POSITIVE_INFINITY, 3)).toBe(MISSING);
    expect(MISSING).toBe("—");
  });

  it("keeps negative values but never prints a negative zero", () => {
    expect(formatNumber(-0.25, 3)).toBe("-0.250");
    expect(formatNumber(-0.0001, 3)).toBe("0.000");
    expect(formatNumber(-0, 2)).toBe("0.00");
    expect(formatNumber(-0.4, 0)).toBe("0");
  });

  it("has 3-decimal score and 2-decimal BM25 shorthands", () => {
    expect(formatScore(0.81234)).toBe("0.812");
    expect(formatScore(null)).toBe("—");
    expect(formatBm25(7.4567)).toBe("7.46");
    expect(formatBm25(undefined)).toBe("—");
  });
});

describe("plural", () => {
  it("picks the singular only for exactly one", () => {
    expect(plural(0, "candidate")).toBe("0 candidates");
    expect(plural(1, "candidate")).toBe("1 candidate");
    expect(plural(2, "candidate")).toBe("2 candidates");
    expect(plural(2, "memory", "memories")).toBe("2 memories");
  });
});

describe("shortenId", () => {
  it("keeps short ids whole", () => {
    expect(shortenId("mem-42")).toBe("mem-42");
    expect(shortenId("abcdefghijklmn")).toBe("abcdefghijklmn"); // exactly 14
  });

  it("shortens long ids in the middle, keeping both ends", () => {
    expect(shortenId("3f2a1b9c-5d6e-4f70-8a9b-0c1d2e3f4a5b")).toBe("3f2a1b9c…4a5b");
    expect(shortenId("abcdefghijklmno")).toBe("abcdefgh…lmno");
  });

  it("honours custom limits", () => {
    expect(shortenId("abcdefghij", 6, 2, 2)).toBe("ab…ij");
    // Shortening that would not save anything leaves the id alone.
    expect(shortenId("abcdef", 4, 3, 2)).toBe("abcdef");
  });

  it("never splits a surrogate pair", () => {
    const id = "😀".repeat(20);
    const short = shortenId(id);
    expect(short).toBe(`${"😀".repeat(8)}…${"😀".repeat(4)}`);
  });
});

describe("result row anchors", () => {
  it("links #result-<id> to the row id", () => {
    expect(resultRowId("3f2a-1b")).toBe("result-3f2a-1b");
    expect(resultRowHref("3f2a-1b")).toBe("#result-3f2a-1b");
  });

  it("percent-encodes ids that need it", () => {
    expect(resultRowHref("a b#c")).toBe("#result-a%20b%23c");
  });
});

describe("levels", () => {
  it("normalizes known levels and maps anything else to unknown", () => {
    expect(normalizeLevel("high")).toBe("high");
    expect(normalizeLevel("none")).toBe("none");
    expect(normalizeLevel(null)).toBe("unknown");
    expect(normalizeLevel(undefined)).toBe("unknown");
    expect(normalizeLevel("certain")).toBe("unknown");
    expect(normalizeLevel("HIGH")).toBe("unknown");
  });

  it("words every level", () => {
    expect(levelWord("high")).toBe("High");
    expect(levelWord("moderate")).toBe("Moderate");
    expect(levelWord("low")).toBe("Low");
    expect(levelWord("none")).toBe("None");
    expect(levelWord(null)).toBe("Unknown");
    expect(levelWord("toString")).toBe("Unknown");
  });
});

describe("basisText", () => {
  it("words each basis", () => {
    expect(basisText("semantic")).toMatch(/prominence/i);
    expect(basisText("single_semantic")).toMatch(/single semantic candidate/i);
    expect(basisText("zscore")).toMatch(/keyword-only.*z-score/i);
    expect(basisText("single")).toMatch(/single candidate/i);
    expect(basisText("empty")).toMatch(/no candidates/i);
  });

  it("shows an unknown basis verbatim and a missing one as not recorded", () => {
    expect(basisText("rerank_v2")).toBe("rerank_v2");
    expect(basisText("constructor")).toBe("constructor");
    expect(basisText(undefined)).toBe("Not recorded");
    expect(basisText(null)).toBe("Not recorded");
  });

  it("knows when the top score is a raw cosine", () => {
    expect(topScoreIsCosine("semantic")).toBe(true);
    expect(topScoreIsCosine("single_semantic")).toBe(true);
    expect(topScoreIsCosine("zscore")).toBe(false);
    expect(topScoreIsCosine("single")).toBe(false);
    expect(topScoreIsCosine(undefined)).toBe(false);
  });
});

describe("selectorReasonText", () => {
  it("words known reasons", () => {
    expect(selectorReasonText("disabled")).toBe("Selector off for this recall");
    expect(selectorReasonText("timeout")).toMatch(/timed out/);
    expect(selectorReasonText("llm_error")).toMatch(/failed/);
  });

  it("shows unknown reasons verbatim", () => {
    expect(selectorReasonText("quota_exceeded: 429 from upstream")).toBe("quota_exceeded: 429 from upstream");
    expect(selectorReasonText("hasOwnProperty")).toBe("hasOwnProperty");
  });

  it("says when no reason was given", () => {
    expect(selectorReasonText(undefined)).toMatch(/no reason given/);
    expect(selectorReasonText(null)).toMatch(/no reason given/);
    expect(selectorReasonText("  ")).toMatch(/no reason given/);
  });
});

describe("droppedListNote", () => {
  it("is null when every dropped id is listed", () => {
    expect(droppedListNote(3, 3)).toBeNull();
    expect(droppedListNote(0, 0)).toBeNull();
    expect(droppedListNote(undefined, 2)).toBeNull();
    expect(droppedListNote(null, 0)).toBeNull();
  });

  it("explains the cap when dropped exceeds the listed ids", () => {
    expect(droppedListNote(34, 20)).toBe(
      "The selector dropped 34 results but lists only the first 20 ids (the list is capped at 20); 14 more ids are not listed.",
    );
    expect(droppedListNote(21, 20)).toMatch(/1 more id is not listed\.$/);
  });

  it("says when the ids were not listed at all", () => {
    expect(droppedListNote(3, 0)).toBe("The selector dropped 3 results but did not list their ids.");
  });
});

describe("scoreMeaning", () => {
  it("follows the search mode", () => {
    expect(scoreMeaning("hybrid")).toMatch(/hybrid/);
    expect(scoreMeaning("semantic")).toMatch(/raw cosine/);
    expect(scoreMeaning("keyword")).toMatch(/BM25/);
    expect(scoreMeaning(undefined)).toBe("the store's score");
  });
});

describe("outsideCandidatesLabel", () => {
  it("counts the candidates outside the page", () => {
    expect(outsideCandidatesLabel(1)).toBe("1 more candidate outside the page");
    expect(outsideCandidatesLabel(12)).toBe("12 more candidates outside the page");
  });
});

describe("emptyResultsMessage", () => {
  it("says the store returned nothing when the pool was empty or unknown", () => {
    expect(emptyResultsMessage(0)).toBe("No results: the store returned nothing for this query.");
    expect(emptyResultsMessage(null)).toBe("No results: the store returned nothing for this query.");
    expect(emptyResultsMessage(undefined)).toBe("No results: the store returned nothing for this query.");
  });

  it("blames the post-filters when the pool had candidates", () => {
    expect(emptyResultsMessage(7)).toBe("No results: the store found 7 candidates, but post-filters removed them all from the page.");
    expect(emptyResultsMessage(1)).toBe("No results: the store found 1 candidate, but post-filters removed it from the page.");
  });

  it("says when the recall failed", () => {
    expect(emptyResultsMessage(5, true)).toBe("No results: the recall failed.");
  });
});
