import { describe, expect, it } from "vitest";
import { mulberry32 } from "@/lib/random";
import {
  calibrationEstimate,
  fitBasis,
  fitVerdictModel,
  packExamples,
  unpackExamples,
  type PackedExamples,
  levelForProbability,
  MIN_LABELS_PER_CLASS,
  predictVerdict,
  PRIOR_PSEUDO_LABELS,
  PRIOR_UNTIL_LABELS,
  priorFor,
  priorWeight,
  type LabelFreeExamples,
  type RecallSignals,
  type VerdictExample,
  type VerdictModel,
} from "./index";

function gaussian(rng: () => number): number {
  const u = Math.max(rng(), 1e-12);
  return Math.sqrt(-2 * Math.log(u)) * Math.cos(2 * Math.PI * rng());
}

const clip = (v: number) => Math.min(1, Math.max(0, v));

/**
 * One recall's signals. The real distributions: a present query has a higher top cosine, a wider
 * gap and more keyword evidence; the background does not tell. `shift` makes the label-free view:
 * memory-made queries a little easier than users' questions (shift > 0), probes a little further
 * off (shift < 0) — a prior that points the right way but is biased.
 */
function recall(rng: () => number, present: boolean, shift = 0): RecallSignals {
  const s = present ? 1 : 0;
  return {
    top_cosine: 0.42 + 0.1 * s + shift + 0.07 * gaussian(rng),
    gap: 0.03 + 0.025 * s + 0.03 * gaussian(rng),
    bg_mean: 0.33 + 0.04 * gaussian(rng),
    bg_std: 0.05 + 0.015 * gaussian(rng),
    bm25_ratio: clip(0.35 + 0.25 * s + 2 * shift + 0.25 * gaussian(rng)),
    idf_coverage: clip(0.35 + 0.2 * s + 2 * shift + 0.2 * gaussian(rng)),
  };
}

function labels(rng: () => number, perClass: number, noise: number): VerdictExample[] {
  return Array.from({ length: 2 * perClass }, (_, i) => {
    const present = i % 2 === 0;
    // A noisy label: the recall is of one class, the label says the other.
    const label = rng() < noise ? !present : present;
    return { signals: recall(rng, present), present: label, group: `q${i}` };
  });
}

function labelFree(rng: () => number): LabelFreeExamples {
  return {
    probes: Array.from({ length: 500 }, () => recall(rng, false, -0.03)),
    memories: Array.from({ length: 120 }, () => recall(rng, true, 0.05)),
  };
}

function heldOut(model: VerdictModel, test: readonly VerdictExample[]) {
  const scored = test.map((e) => ({ probability: predictVerdict(model, e.signals).probability, present: e.present }));
  return calibrationEstimate(scored, (p) => levelForProbability(p, model.cuts));
}

const mean = (xs: readonly number[]) => xs.reduce((s, x) => s + x, 0) / xs.length;

describe("priorFor", () => {
  const examples = labelFree(mulberry32(1));
  it("gives the probes while absent labels are under PRIOR_UNTIL_LABELS, memory-made queries while present ones are under 20", () => {
    const both = priorFor({ present: 10, absent: 10 }, examples)!;
    expect(both.pseudoLabels).toBe(PRIOR_PSEUDO_LABELS);
    expect(both.examples).toEqual(examples);
    // Present labels enough to trust: the optimistic memory-made side is left out, the probes stay.
    const probesOnly = priorFor({ present: MIN_LABELS_PER_CLASS, absent: 8 }, examples)!;
    expect(probesOnly.examples.probes).toHaveLength(500);
    expect(probesOnly.examples.memories).toHaveLength(0);
    expect(priorFor({ present: 500, absent: PRIOR_UNTIL_LABELS - 1 }, examples)).not.toBeNull();
    expect(priorFor({ present: PRIOR_UNTIL_LABELS, absent: PRIOR_UNTIL_LABELS }, examples)).toBeNull();
    expect(priorFor({ present: 5, absent: 5 }, null)).toBeNull();
    expect(priorFor({ present: 5, absent: 5 }, { probes: [], memories: [] })).toBeNull();
  });
  it("weighs as PRIOR_PSEUDO_LABELS labels of each class, so labels dominate as they grow", () => {
    const prior = priorFor({ present: 1, absent: 1 }, examples)!;
    expect(priorWeight({ present: PRIOR_PSEUDO_LABELS, absent: PRIOR_PSEUDO_LABELS }, prior)).toBeCloseTo(0.5, 6);
    expect(priorWeight({ present: 10, absent: 10 }, prior)).toBeCloseTo(2 / 3, 6);
    expect(priorWeight({ present: 80, absent: 80 }, prior)).toBeCloseTo(0.2, 6);
    expect(fitBasis(24, { weight: 0.4545 })).toBe("24 labels + label-free prior (weight 0.45)");
    expect(fitBasis(1, null)).toBe("1 label");
  });
});

describe("a labeled fit with the label-free prior", () => {
  it("keeps a fit from 10 noisy labels sane: better held-out AUC and ECE than the labels alone", () => {
    const runs = Array.from({ length: 20 }, (_, seed) => {
      const rng = mulberry32(100 + seed);
      const few = labels(rng, 5, 0.2);
      const examples = labelFree(rng);
      const test = labels(rng, 1000, 0);
      const alone = fitVerdictModel(few).model;
      const prior = priorFor({ present: 5, absent: 5 }, examples)!;
      const withPrior = fitVerdictModel(few, { prior }).model;
      expect(withPrior.trained_on.examples).toBe(10);
      expect(withPrior.prior).toMatchObject({ pseudo_labels: 20, probes: 500, memories: 120 });
      // About 5 labels a class (noise moves a few) against 20 pseudo-labels: the prior weighs ~0.8.
      expect(withPrior.prior!.weight).toBeGreaterThan(0.7);
      return { alone: heldOut(alone, test), prior: heldOut(withPrior, test) };
    });
    const auc = { alone: mean(runs.map((r) => r.alone.auc!)), prior: mean(runs.map((r) => r.prior.auc!)) };
    const ece = { alone: mean(runs.map((r) => r.alone.ece!)), prior: mean(runs.map((r) => r.prior.ece!)) };
    const ba = {
      alone: mean(runs.map((r) => r.alone.balanced_accuracy!)),
      prior: mean(runs.map((r) => r.prior.balanced_accuracy!)),
    };
    expect(auc.prior).toBeGreaterThan(auc.alone + 0.02);
    expect(ece.prior).toBeLessThan(ece.alone - 0.02);
    expect(ba.prior).toBeGreaterThan(ba.alone);
    // And each run's prior fit is sane on its own: no run falls to chance.
    for (const r of runs) expect(r.prior.auc!).toBeGreaterThan(0.75);
  });

  it("barely moves a fit from many labels, and past PRIOR_UNTIL_LABELS is left out", () => {
    const rng = mulberry32(7);
    const many = labels(rng, PRIOR_UNTIL_LABELS - 1, 0.05);
    const examples = labelFree(rng);
    const test = labels(rng, 1000, 0);
    const alone = fitVerdictModel(many).model;
    const withPrior = fitVerdictModel(many, { prior: priorFor({ present: 99, absent: 99 }, examples)! }).model;
    const a = heldOut(alone, test);
    const p = heldOut(withPrior, test);
    const shift = mean(
      test.map((e) => Math.abs(predictVerdict(alone, e.signals).probability - predictVerdict(withPrior, e.signals).probability)),
    );
    expect(Math.abs(p.auc! - a.auc!)).toBeLessThan(0.01);
    expect(shift).toBeLessThan(0.05);
    // Past the gate the fit is the labels' alone, exactly.
    const more = labels(rng, PRIOR_UNTIL_LABELS, 0.05);
    const prior = priorFor({ present: PRIOR_UNTIL_LABELS, absent: PRIOR_UNTIL_LABELS }, examples);
    expect(prior).toBeNull();
    expect(fitVerdictModel(more, { prior }).model).toEqual(fitVerdictModel(more).model);
  });

  it("holds out labels only: the estimate counts labels, the prior is in every training fold", () => {
    const rng = mulberry32(3);
    const few = labels(rng, 12, 0);
    const fit = fitVerdictModel(few, { prior: priorFor({ present: 12, absent: 12 }, labelFree(rng))! });
    expect(fit.cv).toHaveLength(24);
    expect(fit.model.estimate!.count).toBe(24);
  });
});

describe("packExamples", () => {
  it("keeps the examples as rows and reads them back; another feature list reads as none", () => {
    const examples = labelFree(mulberry32(5));
    const packed = JSON.parse(JSON.stringify(packExamples(examples))) as PackedExamples;
    expect(packed.probes[0]).toHaveLength(6);
    expect(unpackExamples(packed)).toEqual(examples);
    expect(unpackExamples({ ...packed, features: ["top_cosine"] })).toBeNull();
    expect(unpackExamples(null)).toBeNull();
  });
});
