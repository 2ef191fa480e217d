import { describe, expect, it } from "vitest";
import { computeConfidence } from "./confidence";
import { explainStep, explainTrace } from "./explain";

const explain = (hybrid: number[], semantic: number[] | null = null): string[] =>
  explainTrace(computeConfidence({ hybridScores: hybrid, semanticRaw: semantic }).trace);

describe("explainTrace: 'why this level' sentences", () => {
  it("S-1 PRESENT", () => {
    expect(explain([], [0.919, 0.676, 0.67, 0.615, 0.608, 0.537, 0.52, 0.5])).toEqual([
      "8 of 8 candidates carry a raw cosine; the level comes from the semantic rules.",
      "Background: the other 7 candidates, mean 0.589, std 0.066; top 0.919.",
      "The background mean 0.589 > 0.001, so prominence bands apply.",
      "Prominence 0.559 ≥ 0.400 → high.",
    ]);
  });

  it("S-11: the absolute guard is explained", () => {
    expect(explain([], [0.3, 0.1, 0.1, 0.1])).toContain(
      "Prominence 2.000 ≥ 0.400 would give high, but the top cosine 0.300 < 0.500 blocks it.",
    );
  });

  it("S-4: the near-duplicate floor is explained after the band", () => {
    expect(explain([], [0.9, 0.88, 0.88, 0.87, 0.88]).slice(-2)).toEqual([
      "Prominence 0.026 < 0.120 → none.",
      "The top cosine 0.900 ≥ 0.850 is a near-duplicate match, lifting none → moderate.",
    ]);
  });

  it("S-9: absolute bands on a negative background", () => {
    expect(explain([], [0.05, -0.2, -0.3, -0.25]).slice(-2)).toEqual([
      "The background mean -0.250 ≤ 0.001: no usable frame for prominence, so absolute cosine bands apply.",
      "The top cosine 0.050 < 0.300 → none.",
    ]);
  });

  it("fallback paths", () => {
    expect(explain([0.2, -0.1, -0.1])).toEqual([
      "No candidate carries a raw cosine; the level comes from the z-score of 3 scores.",
      "Background: the other 2 candidates, mean -0.100, std 0.000; top 0.200.",
      "The background std 0.000 is flat (≤ 1e-9), so z is the relative gap (top − mean) / 0.100.",
      "The relative gap 3.000 ≥ 2.000 → high.",
    ]);
    expect(explain([])).toEqual(["The candidate pool is empty.", "No candidates were retrieved → none."]);
    expect(explain([0.8])[1]).toBe("A single candidate (score 0.800) is always rated moderate.");
    expect(explain([0.1, 0.2], [0.4])[1]).toBe("The single cosine 0.400 < 0.850 → low.");
  });

  it("mentions ties with the top", () => {
    expect(explainStep({ rule: "background", count: 2, mean: 0.7, std: 0.2, top: 0.9, top_ties: 1 })).toBe(
      "Background: the other 2 candidates (1 tie with the top stays in it), mean 0.700, std 0.200; top 0.900.",
    );
    expect(explainStep({ rule: "background", count: 3, mean: 0.9, std: 0, top: 0.9, top_ties: 3 })).toMatch(
      /3 ties with the top stay in it/,
    );
  });
});
