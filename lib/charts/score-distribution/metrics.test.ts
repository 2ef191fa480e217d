import { describe, expect, it } from "vitest";
import { defaultScoreMetric } from "./index";
import { MEAN_HALF, candidates, semantic, view } from "./test-fixtures";

describe("defaultScoreMetric", () => {
  it("prefers raw cosine, then the keyword-only pool's score", () => {
    expect(defaultScoreMetric(view(semantic(MEAN_HALF)))).toBe("raw_cosine");
    expect(defaultScoreMetric(view([{ kw: 3 }, { kw: 1 }], "keyword"))).toBe("bm25");
    expect(defaultScoreMetric({ candidates: null, confidence: null })).toBe("raw_cosine");
    expect(defaultScoreMetric({ candidates: candidates([{ hy: 0.5 }]), confidence: null })).toBe("hybrid");
  });
});
