import { describe, expect, it } from "vitest";
import { mulberry32 } from "@/lib/random";
import {
  brier,
  DEFAULT_CUTS,
  expectedCalibrationError,
  FEATURE_NAMES,
  fitLogistic,
  fitVerdictModel,
  levelForProbability,
  predictLogistic,
  predictVerdict,
  recallSignals,
  reliability,
  riskCoverage,
  type RecallSignals,
  type VerdictExample,
} from "./index";

function gaussian(rng: () => number): number {
  const u = Math.max(rng(), 1e-12);
  return Math.sqrt(-2 * Math.log(u)) * Math.cos(2 * Math.PI * rng());
}

function signals(top: number, coverage: number | null = null): RecallSignals {
  return { top_cosine: top, gap: 0.05, bg_mean: 0.3, bg_std: 0.05, bm25_ratio: coverage, idf_coverage: coverage };
}

describe("fitLogistic", () => {
  it("separates separable data and stays finite (the penalty bounds the weights)", () => {
    const x = [[0.1], [0.2], [0.3], [0.7], [0.8], [0.9]];
    const y = [false, false, false, true, true, true];
    const m = fitLogistic(x, y, { l2: 0.1 });
    expect(m.weights.every(Number.isFinite)).toBe(true);
    expect(predictLogistic(m, [0.9])).toBeGreaterThan(0.9);
    expect(predictLogistic(m, [0.1])).toBeLessThan(0.1);
    expect(predictLogistic(m, [0.5])).toBeCloseTo(0.5, 1);
  });

  it("recovers the generating coefficients of non-separable data", () => {
    const rng = mulberry32(7);
    const x: number[][] = [];
    const y: boolean[] = [];
    for (let i = 0; i < 4000; i++) {
      const a = gaussian(rng);
      const b = gaussian(rng);
      x.push([a, b]);
      y.push(rng() < 1 / (1 + Math.exp(-(0.5 + 2 * a - 1 * b))));
    }
    const m = fitLogistic(x, y, { l2: 0.001 });
    // Inputs are already standard normal, so standardised weights ≈ raw ones.
    expect(m.intercept).toBeCloseTo(0.5, 0);
    expect(m.weights[0]).toBeGreaterThan(1.7);
    expect(m.weights[0]).toBeLessThan(2.3);
    expect(m.weights[1]).toBeGreaterThan(-1.3);
    expect(m.weights[1]).toBeLessThan(-0.7);
  });

  it("ignores a constant feature and refuses ragged input", () => {
    const m = fitLogistic(
      [
        [1, 0],
        [1, 1],
      ],
      [false, true],
    );
    expect(m.weights[0]).toBe(0);
    expect(() => fitLogistic([[1], [1, 2]], [true, false])).toThrow();
    expect(() => fitLogistic([], [])).toThrow();
  });
});

describe("reliability figures", () => {
  it("a perfectly calibrated predictor has ECE near 0, an overconfident one does not", () => {
    const rng = mulberry32(3);
    const calibrated = Array.from({ length: 20000 }, () => {
      const p = rng();
      return { probability: p, present: rng() < p };
    });
    expect(expectedCalibrationError(calibrated)!).toBeLessThan(0.02);
    const overconfident = calibrated.map((s) => ({ ...s, probability: s.probability > 0.5 ? 0.99 : 0.01 }));
    expect(expectedCalibrationError(overconfident)!).toBeGreaterThan(0.2);
    expect(
      brier([
        { probability: 1, present: true },
        { probability: 0, present: true },
      ]),
    ).toBe(0.5);
    expect(expectedCalibrationError([])).toBeNull();
    const bins = reliability([{ probability: 1, present: true }]);
    expect(bins.at(-1)!.count).toBe(1);
  });

  it("risk–coverage starts with the most confident answers", () => {
    const curve = riskCoverage([
      { probability: 0.9, present: true },
      { probability: 0.8, present: false },
      { probability: 0.2, present: false },
    ]);
    expect(curve.map((p) => p.risk)).toEqual([0, 0.5, 2 / 3]);
    expect(curve.at(-1)!.coverage).toBe(1);
  });
});

describe("levels are cuts on the probability", () => {
  it("uses high ≥ 0.85, moderate ≥ 0.6, low ≥ 0.3", () => {
    expect(levelForProbability(0.85)).toBe("high");
    expect(levelForProbability(0.8499)).toBe("moderate");
    expect(levelForProbability(0.6)).toBe("moderate");
    expect(levelForProbability(0.3)).toBe("low");
    expect(levelForProbability(0.29)).toBe("none");
    expect(DEFAULT_CUTS.high).toBe(0.85);
  });
});

describe("fitVerdictModel", () => {
  function synthetic(n: number, seed: number, noise: number): VerdictExample[] {
    const rng = mulberry32(seed);
    return Array.from({ length: n }, (_, i) => {
      const present = i % 2 === 0;
      const top = (present ? 0.55 : 0.35) + noise * gaussian(rng);
      return { signals: signals(top, present ? 0.8 : 0.2 + 0.1 * rng()), present, group: `q${i}` };
    });
  }

  it("on separable data: cross-validated balanced accuracy 1 and P(present | high) = 1", () => {
    const fit = fitVerdictModel(synthetic(120, 1, 0.01));
    expect(fit.model.estimate!.balanced_accuracy).toBe(1);
    expect(fit.model.estimate!.p_present_by_level.high.present_rate).toBe(1);
    expect(fit.model.folds).toBe(5);
    expect(fit.cv).toHaveLength(120);
  });

  it("on noisy data the held-out probabilities are calibrated (ECE small) and high means ≥ 0.85 present", () => {
    const rng = mulberry32(11);
    const examples: VerdictExample[] = Array.from({ length: 2000 }, (_, i) => {
      const present = rng() < 0.5;
      const top = (present ? 0.5 : 0.4) + 0.06 * gaussian(rng);
      return { signals: signals(top), present, group: `q${i}` };
    });
    const fit = fitVerdictModel(examples);
    const e = fit.model.estimate!;
    expect(e.ece!).toBeLessThan(0.05);
    expect(e.balanced_accuracy!).toBeGreaterThan(0.7);
    expect(e.balanced_accuracy!).toBeLessThan(0.9);
    expect(e.p_present_by_level.high.present_rate!).toBeGreaterThanOrEqual(0.85);
  });

  it("keeps a query's examples in one fold, reports near-misses apart, refuses one class", () => {
    const base = synthetic(40, 2, 0.02);
    const withNear = [
      ...base,
      { signals: signals(0.5), present: false, kind: "near_miss", group: "n1" },
      { signals: signals(0.52), present: false, kind: "near_miss", group: "n2" },
    ];
    const fit = fitVerdictModel(withNear);
    expect(fit.model.trained_on.examples).toBe(40);
    expect(fit.apart.near_miss!.count).toBe(2);
    expect(() => fitVerdictModel(base.filter((e) => e.present))).toThrow(/present and one absent/);
  });

  it("predicts with missing signals at the training mean", () => {
    const fit = fitVerdictModel(synthetic(60, 4, 0.01));
    const v = predictVerdict(fit.model, { ...signals(0.6, 0.9), bm25_ratio: null, idf_coverage: null });
    expect(v.probability).toBeGreaterThan(0.5);
    expect(["high", "moderate"]).toContain(v.level);
  });
});

describe("recallSignals", () => {
  it("reads the first ten merged candidates and the keyword evidence as ratios", () => {
    const candidates = [0.6, 0.4, 0.3, 0.2].map((c, i) => ({
      raw_cosine: c,
      hybrid_score: c,
      keyword_score: i === 1 ? 4 : null,
    }));
    const s = recallSignals(candidates, { terms: 2, idf_total: 4, idf_covered: 3, max_bm25: 8.8, top_n: 3 });
    expect(s.top_cosine).toBe(0.6);
    expect(s.gap).toBeCloseTo(0.2, 6);
    expect(s.bg_mean).toBeCloseTo(0.3, 6);
    expect(s.bm25_ratio).toBeCloseTo(4 / 8.8, 5);
    expect(s.idf_coverage).toBe(0.75);
    expect(Object.keys(s)).toEqual([...FEATURE_NAMES]);
    expect(recallSignals([], null)).toEqual({
      top_cosine: null,
      gap: null,
      bg_mean: null,
      bg_std: null,
      bm25_ratio: null,
      idf_coverage: null,
    });
  });
});

describe("a recall without the keyword arm", () => {
  it("is judged by the fit without keyword signals, not by a middling fill", () => {
    const rng = mulberry32(9);
    const examples: VerdictExample[] = Array.from({ length: 200 }, (_, i) => {
      const present = i % 2 === 0;
      const top = (present ? 0.55 : 0.4) + 0.03 * gaussian(rng);
      return { signals: signals(top, present ? 0.9 : 0.05), present, group: `q${i}` };
    });
    const fit = fitVerdictModel(examples);
    expect(fit.model.without_keyword).toBeTruthy();
    const strongCosine = { ...signals(0.53), bm25_ratio: null, idf_coverage: null };
    // Keyword signals carry most of the weight here; without them a strong cosine still reads present.
    expect(predictVerdict(fit.model, strongCosine).probability).toBeGreaterThan(0.85);
    const weakCosine = { ...signals(0.42), bm25_ratio: null, idf_coverage: null };
    expect(predictVerdict(fit.model, weakCosine).probability).toBeLessThan(0.15);
  });
});
