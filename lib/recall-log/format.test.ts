import { describe, expect, it } from "vitest";
import {
  topScoreLabel,
  topScoreUnit,
  basisText,
  droppedListNote,
  emptyResultsMessage,
  levelWord,
  normalizeLevel,
  outsideCandidatesLabel,
  resultRowHref,
  resultRowId,
  scoreMeaning,
  selectorReasonText,
  topScoreIsCosine,
} from "./format";

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
    expect(selectorReasonText("disabled")).toBe("Off by choice: Selector off");
    expect(selectorReasonText("timeout")).toBe("Failed: Timed out");
    expect(selectorReasonText("unknown_id")).toBe("Failed: Answer named an id not on the page");
    expect(selectorReasonText("http_503")).toBe("Failed: HTTP 503 from the endpoint");
    expect(selectorReasonText("too_few_results")).toBe("Nothing to judge: Too few results to judge");
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
    expect(emptyResultsMessage(7)).toBe(
      "No results: the store found 7 candidates, but post-filters removed them all from the page.",
    );
    expect(emptyResultsMessage(1)).toBe("No results: the store found 1 candidate, but post-filters removed it from the page.");
  });

  it("says when the recall failed", () => {
    expect(emptyResultsMessage(5, true)).toBe("No results: the recall failed.");
  });
});

describe("topScoreUnit / topScoreLabel", () => {
  it("names the scale of the top score from the basis and the search", () => {
    expect(topScoreUnit("semantic", "hybrid")).toBe("cosine");
    expect(topScoreUnit("single_semantic", "keyword")).toBe("cosine");
    expect(topScoreUnit("zscore", "keyword")).toBe("BM25");
    expect(topScoreUnit("zscore", "hybrid", true)).toBe("BM25");
    expect(topScoreUnit("zscore", "hybrid")).toBe("hybrid");
    expect(topScoreUnit("single", "keyword")).toBe("BM25");
    expect(topScoreUnit("empty", "hybrid")).toBeNull();
    expect(topScoreUnit(null, "hybrid")).toBeNull();
  });

  it("writes cosines to 3 decimals and BM25 to 2, with the unit and a title that says what it is", () => {
    expect(topScoreLabel(0.52849, "cosine")).toMatchObject({ value: "0.528", unit: "cos" });
    expect(topScoreLabel(10.875, "BM25")).toMatchObject({ value: "10.88", unit: "BM25" });
    expect(topScoreLabel(0.6, "hybrid").title).toMatch(/Hybrid/);
    expect(topScoreLabel(null, "cosine")).toMatchObject({ value: "—", unit: "" });
    expect(topScoreLabel(0.5, null)).toMatchObject({ value: "0.500", unit: "" });
  });
});
