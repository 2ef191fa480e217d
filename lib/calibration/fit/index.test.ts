import { describe, expect, it } from "vitest";
import { mulberry32 } from "@/lib/recall/test-support/prng";
import { validateThresholds } from "@/lib/recall/thresholds";
import { evaluateProfile, FitInputError, fitProfile, type FitExample } from "./index";
import { semanticList } from "../test-pools";

/** Queries labeled by a known rule: present ⇔ top ≥ cut (and prominence ≥ mp when given). */
function labeled(seed: number, n: number, rule: (top: number, p: number) => boolean, noise = 0): FitExample[] {
  const rng = mulberry32(seed);
  return Array.from({ length: n }, (_, i) => {
    const top = rng.uniform(0.15, 0.75);
    const p = rng.uniform(0.05, 0.6);
    const truth = rule(top, p);
    const present = rng.next() < noise ? !truth : truth;
    return {
      group: `q${i}`,
      present,
      kind: present ? "on_topic" : "off_topic",
      k: 10,
      candidates: semanticList(top, p, 20, 0.01, () => rng.next()),
    };
  });
}

describe("fitProfile", () => {
  it("recovers a known top-cosine threshold on separable data", () => {
    const examples = labeled(1, 300, (top) => top >= 0.47);
    const fit = fitProfile(examples, { smoothing: 0 });
    expect(fit.shape).toBe("top_score");
    expect(fit.thresholds.abs_low_cosine).toBeGreaterThan(0.455);
    expect(fit.thresholds.abs_low_cosine).toBeLessThanOrEqual(0.475);
    expect(fit.estimate.train_balanced_accuracy).toBe(1);
    expect(fit.estimate.balanced_accuracy).toBeGreaterThan(0.97);
    // the smoothed default lands near it too
    const smooth = fitProfile(examples);
    expect(Math.abs(smooth.thresholds.abs_low_cosine - 0.47)).toBeLessThanOrEqual(0.02);
  });

  it("recovers a prominence threshold with its guard when prominence matters", () => {
    const examples = labeled(2, 400, (top, p) => p >= 0.3 && top >= 0.4);
    const fit = fitProfile(examples, { smoothing: 0 });
    expect(fit.shape).toBe("prominence_and_top");
    expect(Math.abs(fit.thresholds.moderate_prominence - 0.3)).toBeLessThanOrEqual(0.02);
    expect(Math.abs(fit.thresholds.abs_low_cosine - 0.4)).toBeLessThanOrEqual(0.02);
    expect(fit.estimate.train_balanced_accuracy).toBeGreaterThan(0.97);
    // the top-only shape could not do this well, so it was not preferred
    const top = fit.shapes.find((s) => s.shape === "top_score")!;
    expect(top.balanced_accuracy!).toBeLessThan(fit.estimate.balanced_accuracy! - 0.01);
  });

  it("keeps the cross-validated estimate at or below the training fit on noisy labels", () => {
    for (let seed = 10; seed < 16; seed++) {
      const fit = fitProfile(labeled(seed, 120, (top) => top >= 0.45, 0.2));
      expect(fit.estimate.balanced_accuracy!).toBeLessThanOrEqual(fit.estimate.train_balanced_accuracy! + 1e-12);
      expect(fit.estimate.folds).toBe(5);
      expect(fit.estimate.fold_scores).toHaveLength(5);
    }
  });

  it("always returns monotone, valid constants", () => {
    for (let seed = 20; seed < 30; seed++) {
      const rng = mulberry32(seed);
      const cut = rng.uniform(0.2, 0.7);
      const fit = fitProfile(labeled(seed, 60, (top, p) => top >= cut || p > 0.5, 0.1));
      const t = fit.thresholds;
      expect(validateThresholds(t)).toEqual([]);
      expect(t.high_prominence).toBeGreaterThan(t.moderate_prominence);
      expect(t.moderate_prominence).toBeGreaterThan(t.low_prominence);
      expect(t.strong_abs_cosine).toBeGreaterThanOrEqual(t.abs_moderate_cosine);
      expect(t.abs_moderate_cosine).toBeGreaterThanOrEqual(t.abs_low_cosine);
    }
  });

  it("reports near-misses apart and leaves them out of the objective", () => {
    const examples = labeled(3, 100, (top) => top >= 0.5);
    const near: FitExample[] = labeled(4, 20, () => false).map((e) => ({
      ...e,
      kind: "near_miss",
      candidates: semanticList(0.7, 0.3),
    }));
    const fit = fitProfile([...examples, ...near]);
    expect(fit.used).toBe(100);
    expect(fit.examples).toBe(120);
    expect(fit.by_kind.near_miss).toMatchObject({ count: 20, absent: 20, fitted_worth_reading: 20, fitted_accuracy: 0 });
    const cells = Object.values(fit.confusion).reduce((n, c) => n + c.present + c.absent, 0);
    expect(cells).toBe(100);
    expect(fit.points).toHaveLength(120);
  });

  it("beats or equals the reference on data the reference constants do not fit", () => {
    // USE-lite-like scale: everything below the reference guards, prominence uninformative
    const fit = fitProfile(labeled(5, 150, (top) => top >= 0.42, 0.05));
    expect(fit.estimate.train_balanced_accuracy!).toBeGreaterThan(fit.reference.balanced_accuracy!);
    expect(
      evaluateProfile(
        labeled(5, 150, (top) => top >= 0.42, 0.05),
        fit,
      ).balanced_accuracy,
    ).toBe(fit.estimate.train_balanced_accuracy);
  });

  it("refuses labels with only one class", () => {
    expect(() => fitProfile(labeled(6, 20, () => true))).toThrow(FitInputError);
  });

  it("estimates null when a class is too small for two folds", () => {
    const examples = labeled(7, 30, (top) => top >= 0.3);
    const oneAbsent = [...examples.filter((e) => e.present), { ...examples.find((e) => !e.present)! }];
    const fit = fitProfile(oneAbsent);
    expect(fit.estimate).toMatchObject({ balanced_accuracy: null, folds: 0 });
  });
});
