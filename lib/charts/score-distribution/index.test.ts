import { describe, expect, it } from "vitest";
import { type ScoreDistributionInput, type ScoreMetric, prepareScoreDistribution } from "./index";
import { PRESENT, candidates, expectWithinDomain, semantic, view } from "./test-fixtures";

describe("every metric of every fixture prepares without throwing", () => {
  const fixtures: ScoreDistributionInput[] = [
    view(semantic(PRESENT)),
    view(semantic([0.7, 0.7, 0.7])),
    view(semantic([0.05, -0.2, -0.3, -0.25])),
    view([{ kw: 1 }, { kw: 1 }], "keyword"),
    view(
      [
        { cos: 0.3, kw: 2, hy: 0.7 },
        { cos: null, kw: 4, hy: 0.4 },
      ],
      "hybrid",
    ),
    { candidates: candidates([{ cos: 0.5, inPool: false, returned: false }]), confidence: null },
  ];
  it.each(fixtures.map((f, i) => [i, f] as const))("fixture %i", (_i, f) => {
    for (const metric of ["raw_cosine", "bm25", "hybrid"] as ScoreMetric[]) {
      const p = prepareScoreDistribution(f, metric);
      expect(p.ariaLabel.length).toBeGreaterThan(10);
      if (p.status === "ok") {
        expect(p.points.length).toBeGreaterThan(0);
        expectWithinDomain(p);
      } else {
        expect(p.emptyReason?.length).toBeGreaterThan(10);
      }
    }
  });
});
