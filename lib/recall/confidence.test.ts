import { describe, expect, it } from "vitest";
import {
  backgroundMeanFromProminence,
  computeConfidence,
  levelRank,
  MAX_POOL_SCORES,
  toWireConfidence,
  triageAdvice,
  type ConfidenceResult,
  type Level,
  type TraceStep,
} from "./confidence";
import { ABSENT, GOLDEN_CASES, PRESENT } from "./confidence.golden-cases";
import { RecallInputError, ThresholdsError } from "./errors";
import { confidenceInputFromPool, mergeHybrid } from "./merge";

const C = (hybrid: number[], semantic: number[] | null = null): ConfidenceResult =>
  computeConfidence({ hybridScores: hybrid, semanticRaw: semantic });

const rules = (r: ConfidenceResult): string[] => r.trace.map((s) => s.rule);

function step<R extends TraceStep["rule"]>(r: ConfidenceResult, rule: R): Extract<TraceStep, { rule: R }> {
  const found = r.trace.find((s) => s.rule === rule);
  if (found === undefined) throw new Error(`no ${rule} step in ${rules(r).join(",")}`);
  return found as Extract<TraceStep, { rule: R }>;
}

describe("golden and regression cases (docs/reference-rules.md)", () => {
  it.each(GOLDEN_CASES)("$id", (g) => {
    const r = C(g.hybrid, g.semantic);
    expect(toWireConfidence(r)).toStrictEqual({
      level: g.level,
      top_score: g.top_score,
      prominence: g.prominence,
      relative_margin: g.relative_margin,
      result_count: g.result_count,
      rationale: g.rationale,
    });
    expect(r.thresholds).toBe("default");
  });

  it("F-3: background mean 0.30 and pstdev 0.007071", () => {
    const r = C([0.95, 0.3, 0.31, 0.29, 0.3]);
    expect(r.background_mean).toBe(0.3);
    expect(r.background_std).toBeCloseTo(0.007071, 6);
    expect(r.basis).toBe("zscore");
    expect(step(r, "zscore_band")).toMatchObject({ band: "high", method: "std", threshold: 2.0 });
  });

  it("F-4: flat background uses the relative gap 0 / 0.5", () => {
    const r = C([0.5, 0.5, 0.5, 0.5]);
    expect(step(r, "flat_background")).toMatchObject({ path: "fallback", effect: "relative_gap", denominator: 0.5 });
    expect(step(r, "zscore_band")).toMatchObject({ band: "none", value: 0, method: "relative_gap" });
  });

  it("S-1: uses fmean's background mean (not the naive …713)", () => {
    const r = C([], PRESENT);
    expect(r.background_mean).toBe(0.5894285714285715);
    expect(r.basis).toBe("semantic");
    expect(rules(r)).toEqual(["basis", "background", "background_frame", "prominence_band"]);
    expect(step(r, "prominence_band")).toMatchObject({ band: "high", threshold: 0.4 });
  });

  it("S-2: prominence bands give low even though relative_margin ≥ 2", () => {
    const r = C([], ABSENT);
    expect(r.relative_margin).toBeGreaterThanOrEqual(2);
    expect(step(r, "prominence_band")).toMatchObject({ band: "low", threshold: 0.12 });
  });

  it("S-3: flat tail makes relative_margin null", () => {
    const r = C([], [0.6, 0.55, 0.55, 0.55, 0.55, 0.55]);
    expect(step(r, "flat_background")).toMatchObject({ path: "semantic", std: 0, effect: "relative_margin_null" });
  });

  it("S-4 and [0.85,0.84,0.84]: none before the near-duplicate floor, then moderate", () => {
    for (const sem of [
      [0.9, 0.88, 0.88, 0.87, 0.88],
      [0.85, 0.84, 0.84],
    ]) {
      const r = C([], sem);
      expect(rules(r).slice(-2)).toEqual(["prominence_band", "near_duplicate_floor"]);
      expect(step(r, "prominence_band").band).toBe("none");
      expect(step(r, "near_duplicate_floor")).toMatchObject({ from: "none", band: "moderate", threshold: 0.85 });
    }
  });

  it("S-6/S-7: a single semantic candidate is judged by the 0.85 cutoff alone", () => {
    expect(step(C([], [0.91]), "single_candidate")).toMatchObject({ path: "semantic", band: "moderate", threshold: 0.85 });
    expect(step(C([], [0.4]), "single_candidate")).toMatchObject({ path: "semantic", band: "low" });
    expect(C([], [0.85]).level).toBe("moderate"); // >= at the edge
    expect(C([], [0.8499999999999999]).level).toBe("low");
    expect(C([], [0.91]).basis).toBe("single_semantic");
  });

  it("S-9/S-10: a negative background switches to absolute bands", () => {
    const s9 = C([], [0.05, -0.2, -0.3, -0.25]);
    expect(step(s9, "background_frame")).toMatchObject({ usable: false, value: -0.25, threshold: 0.001 });
    expect(step(s9, "absolute_bands")).toMatchObject({ band: "none", value: 0.05, threshold: 0.3 });
    expect(s9.background_mean).toBe(-0.25);
    const s10 = C([], [0.9, -0.1, 0.0, -0.05]);
    expect(step(s10, "absolute_bands")).toMatchObject({ band: "high", threshold: 0.85 });
  });

  it("S-11: the absolute guard blocks high (prominence 2.0, top 0.30)", () => {
    const r = C([], [0.3, 0.1, 0.1, 0.1]);
    expect(step(r, "absolute_guard")).toMatchObject({
      blocked: "high",
      value: 0.3,
      threshold: 0.5,
      prominence_threshold: 0.4,
    });
    expect(step(r, "prominence_band")).toMatchObject({ band: "moderate", threshold: 0.25 });
  });

  it("[0.9,0.3]: z is 2.0000000000000004, so >= 2.0 holds (boundary-sensitive)", () => {
    const r = C([0.9, 0.3]);
    expect(step(r, "zscore_band").value).toBe(2.0000000000000004);
    expect(r.level).toBe("high");
  });

  it("[0.2,-0.1,-0.1]: negative flat background divides by |mean|", () => {
    expect(step(C([0.2, -0.1, -0.1]), "flat_background")).toMatchObject({ denominator: 0.1 });
    expect(step(C([0.5, 0, 0]), "flat_background")).toMatchObject({ denominator: 1 });
  });

  it("merge example then confidence: moderate, top 0.9, prominence 0.125, rm null, result_count 3", () => {
    const merged = mergeHybrid({
      semantic: [
        { id: "mem1", score: 0.9 },
        { id: "mem2", score: 0.8 },
      ],
      keyword: [
        { id: "mem2", score: 0.7 },
        { id: "mem3", score: 0.6 },
      ],
    });
    const r = computeConfidence(confidenceInputFromPool(merged));
    expect(toWireConfidence(r)).toMatchObject({
      level: "moderate",
      top_score: 0.9,
      prominence: 0.125,
      relative_margin: null,
      result_count: 3,
    });
    expect(step(r, "near_duplicate_floor").from).toBe("low");
  });
});

describe("edge cases", () => {
  it("ties at the top: only one copy leaves the background", () => {
    const r = C([], [0.9, 0.9, 0.5]);
    // Background [0.9, 0.5]: mean 0.7, prominence 0.2857 → moderate. (Removing both copies
    // would leave [0.5] and prominence 0.8 → high.)
    expect(r.background_mean).toBe(0.7);
    expect(r.level).toBe("moderate");
    expect(step(r, "background")).toMatchObject({ count: 2, top_ties: 1 });
    const flat = C([0.4, 0.4, 0.4]);
    expect(step(flat, "background")).toMatchObject({ count: 2, top_ties: 2 });
  });

  it("all semantic cosines equal: none, unless top ≥ 0.85 → moderate; relative_margin null", () => {
    expect(C([], [0.6, 0.6, 0.6, 0.6])).toMatchObject({ level: "none", prominence: 0, relative_margin: null });
    expect(C([], [0.86, 0.86, 0.86])).toMatchObject({ level: "moderate", prominence: 0, relative_margin: null });
  });

  it("2-item semantic pool: relative_margin always null, prominence computed", () => {
    const r = C([], [0.6, 0.4]);
    expect(r).toMatchObject({ relative_margin: null, prominence: 0.5, background_std: 0, level: "high" });
  });

  it("mixed pool: only cosines form the semantic pool; result_count counts every candidate", () => {
    const r = C([0.9, 0.8, 0.7, 0.6, 0.5, 0.4], [0.7, 0.3, 0.31]);
    expect(r.result_count).toBe(6);
    expect(step(r, "basis")).toEqual({ rule: "basis", basis: "semantic", candidate_count: 6, semantic_count: 3 });
    expect(r.top_score).toBe(0.7);
  });

  it("semantic top_score is the max raw cosine (rounded), not the first", () => {
    expect(C([], [0.4, 0.87351, 0.39]).top_score).toBe(0.874);
  });

  it("fallback top_score is not rounded", () => {
    expect(C([12.34567, 1.5, 1.4]).top_score).toBe(12.34567);
    expect(C([0.123456]).top_score).toBe(0.123456);
  });

  it("the background mean must be strictly greater than 0.001", () => {
    const at = C([], [0.2, 0.001, 0.001]);
    expect(at.prominence).toBeNull();
    expect(step(at, "background_frame").usable).toBe(false);
    const above = C([], [0.2, 0.0011, 0.0011]);
    expect(above.prominence).not.toBeNull();
  });

  it("semanticRaw [] and null and omitted all mean 'no cosines'", () => {
    const a = computeConfidence({ hybridScores: [0.9, 0.3] });
    expect(C([0.9, 0.3], [])).toEqual(a);
    expect(C([0.9, 0.3], null)).toEqual(a);
  });
});

describe("rounding never decides a level", () => {
  it("prominence 0.39996 displays as 0.4 but stays moderate", () => {
    const r = C([], [0.5 * 1.39996, 0.5, 0.5]);
    expect(r.prominence).toBe(0.4);
    expect(r.level).toBe("moderate");
  });

  it("z 1.9996 displays as 2.0 but stays moderate", () => {
    const r = C([1.9996, 0, 0]);
    expect(r.relative_margin).toBe(2);
    expect(r.level).toBe("moderate");
  });

  it("top cosine 0.8496 displays as 0.85 but gets no near-duplicate floor", () => {
    const r = C([], [0.8496, 0.84, 0.84]);
    expect(r.top_score).toBe(0.85);
    expect(r.level).toBe("none");
  });
});

describe("custom thresholds", () => {
  it("changes the level with the same rules and reports the profile", () => {
    const r = computeConfidence({ hybridScores: [], semanticRaw: PRESENT }, { high_prominence: 0.6 });
    expect(r.level).toBe("moderate");
    expect(r.thresholds).toBe("custom");
    expect(step(r, "prominence_band").threshold).toBe(0.25);
    const named = computeConfidence({ hybridScores: [0.95, 0.3, 0.31] }, { name: "qwen3", z_high: 1000, z_moderate: 500 });
    expect(named).toMatchObject({ thresholds: "qwen3", level: "low" });
  });

  it("the default profile passed explicitly is still 'default'", () => {
    expect(computeConfidence({ hybridScores: [0.5] }, { bg_eps: 0.001 }).thresholds).toBe("default");
  });

  it("rejects an invalid profile with ThresholdsError", () => {
    expect(() => computeConfidence({ hybridScores: [0.5] }, { high_prominence: 0.1 })).toThrow(ThresholdsError);
  });
});

describe("bad input", () => {
  const bad = (input: unknown): RecallInputError => {
    try {
      computeConfidence(input as never);
    } catch (e) {
      expect(e).toBeInstanceOf(RecallInputError);
      return e as RecallInputError;
    }
    throw new Error("expected a RecallInputError");
  };

  it("rejects NaN, ±Infinity, strings and nulls with their paths", () => {
    const e = bad({ hybridScores: [0.5, NaN, "0.3", null], semanticRaw: [0.2, Infinity, -Infinity] });
    expect(e.code).toBe("invalid_scores");
    expect(e.details.issues.map((i) => i.path)).toEqual([
      ["hybrid_scores", 1],
      ["hybrid_scores", 2],
      ["hybrid_scores", 3],
      ["semantic_raw", 1],
      ["semantic_raw", 2],
    ]);
    expect(e.details.issue_count).toBe(5);
    expect(e.details.issues[0]?.message).toMatch(/NaN/);
    expect(e.message).toMatch(/^Invalid scores: hybrid_scores\.1: .*\(and 4 more\)$/);
  });

  it("rejects a non-array and a non-object", () => {
    expect(bad({ hybridScores: "0.5" }).details.issues[0]?.path).toEqual(["hybrid_scores"]);
    expect(bad({ hybridScores: [], semanticRaw: { 0: 1 } }).details.issues[0]?.path).toEqual(["semantic_raw"]);
    expect(bad(null).code).toBe("invalid_scores");
  });

  it("rejects absurd magnitudes that would overflow the statistics", () => {
    expect(bad({ hybridScores: [1e300, 1] }).details.issues[0]?.path).toEqual(["hybrid_scores", 0]);
  });

  it("lists at most 20 problems but counts them all", () => {
    const e = bad({ hybridScores: Array.from({ length: 50 }, () => NaN) });
    expect(e.details.issues).toHaveLength(20);
    expect(e.details.issue_count).toBe(50);
  });

  it(`accepts ${MAX_POOL_SCORES} scores and rejects one more, in either list`, () => {
    const many = Array.from({ length: MAX_POOL_SCORES }, (_, i) => (i % 97) / 100);
    expect(computeConfidence({ hybridScores: many, semanticRaw: many }).result_count).toBe(MAX_POOL_SCORES);
    const over = [...many, 0.5];
    expect(bad({ hybridScores: over }).code).toBe("too_many_scores");
    const e = bad({ hybridScores: [], semanticRaw: over });
    expect(e.code).toBe("too_many_scores");
    expect(e.details.issues[0]?.path).toEqual(["semantic_raw"]);
  });
});

describe("helpers", () => {
  it("backgroundMeanFromProminence = top / (1 + prominence)", () => {
    expect(backgroundMeanFromProminence(0.919, 0.559)).toBeCloseTo(0.5894, 3);
    expect(backgroundMeanFromProminence(0.3, 2)).toBeCloseTo(0.1, 12);
    expect(backgroundMeanFromProminence(0.9, null)).toBeNull();
    expect(backgroundMeanFromProminence(undefined, 0.5)).toBeNull();
    expect(backgroundMeanFromProminence(0.5, -1)).toBeNull();
  });

  it("triage advice per level", () => {
    expect(triageAdvice("high")).toEqual({ verdict: "worth_reading", text: "worth reading" });
    expect(triageAdvice("moderate").verdict).toBe("worth_reading");
    expect(triageAdvice("low")).toEqual({ verdict: "go_external", text: "likely nothing relevant, go external" });
    expect(triageAdvice("none").verdict).toBe("go_external");
  });

  it("levelRank orders none < low < moderate < high", () => {
    expect(["high", "none", "moderate", "low"].map((l) => levelRank(l as Level))).toEqual([3, 0, 2, 1]);
  });

  it("does not mutate its input", () => {
    const sem = [0.5, 0.919, 0.6];
    const hybrid = [0.1, 0.9];
    C(hybrid, sem);
    expect(sem).toEqual([0.5, 0.919, 0.6]);
    expect(hybrid).toEqual([0.1, 0.9]);
  });
});
