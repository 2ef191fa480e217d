import { describe, expect, it } from "vitest";
import { ruleThresholds } from "./rule";

describe("ruleThresholds", () => {
  it("makes the cut the decision when prominence is 0", () => {
    const t = ruleThresholds(0.41, 0);
    expect(t).toMatchObject({ moderate_prominence: 0, abs_low_cosine: 0.41, abs_moderate_cosine: 0.41, strong_abs_cosine: 0.85 });
    expect(ruleThresholds(0.9, 0.5).strong_abs_cosine).toBe(0.9);
  });
});
