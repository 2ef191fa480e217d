import { describe, expect, it } from "vitest";
import { prepareScoreDistribution, type ScoreDistributionInput } from "./index";
import { expectWithinDomain, marker, view } from "./test-fixtures";

/** The page: hybrid order, ranks 3 and 4 below rank 5 by raw cosine; the cut between .55 and .30. */
function withCut(): ScoreDistributionInput {
  const base = view(
    [
      { cos: 0.62, hy: 1 },
      { cos: 0.58, hy: 0.9 },
      { cos: 0.3, hy: 0.8, dropped: true },
      { cos: 0.28, hy: 0.75, dropped: true },
      { cos: 0.55, hy: 0.7 },
    ],
    "hybrid",
  );
  return {
    ...base,
    selector_trace: {
      score_gap: {
        signal: "raw_cosine",
        min_relative_drop: 0.15,
        participants: 5,
        kept_without_signal: 0,
        largest_relative_drop: 0.25 / 0.55,
        cut: {
          above: { memory_id: "m5", rank: 5, raw_cosine: 0.55 },
          below: { memory_id: "m3", rank: 3, raw_cosine: 0.3 },
          relative_drop: 0.25 / 0.55,
        },
      },
    },
  };
}

describe("the score gap's cut on the chart", () => {
  it("is a line on the raw cosine axis between the lowest kept and the highest dropped", () => {
    const p = prepareScoreDistribution(withCut(), "raw_cosine");
    const cut = marker(p, "selector_cut");
    expect(cut).toMatchObject({ kind: "selector_cut", inDomain: true, shortLabel: "selector cut" });
    expect(cut.x).toBeCloseTo(0.425, 12);
    expect(cut.label).toBe(
      "selector cut: the score-gap selector cut between rank 5 (raw cosine 0.550, kept) and rank 3 (0.300, dropped): a 45 % drop",
    );
    expect(p.ariaLabel).toContain("The line marks where the score-gap selector cut between rank 5");
    // Every dropped point lies below the line, every kept one above.
    for (const point of p.points.filter((pt) => pt.scores.raw_cosine !== null)) {
      expect(point.x < cut.x).toBe(point.memoryId === "m3" || point.memoryId === "m4");
    }
    expectWithinDomain(p);
  });

  it("on another axis: no line, a note that says where to see it", () => {
    const p = prepareScoreDistribution(withCut(), "hybrid");
    expect(p.markers.some((m) => m.kind === "selector_cut")).toBe(false);
    expect(p.note).toContain("The score-gap selector cuts on raw cosine, not on this axis");
  });

  it("without a cut (no clear gap, another selector, an old recall): nothing added", () => {
    const plain = view([{ cos: 0.62 }, { cos: 0.58 }, { cos: 0.55 }]);
    const noCut = { ...withCut(), selector_trace: { score_gap: { ...withCut().selector_trace!.score_gap!, cut: null } } };
    for (const input of [plain, noCut, { ...plain, selector_trace: null }]) {
      const p = prepareScoreDistribution(input, "raw_cosine");
      expect(p.markers.some((m) => m.kind === "selector_cut")).toBe(false);
      expect(p.note ?? "").not.toContain("score-gap");
    }
  });
});
