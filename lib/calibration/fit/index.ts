/**
 * Fitting a profile from labels: search the constants and the pool size for the best balanced
 * triage accuracy (worth reading = high/moderate vs go external = low/none, against present vs
 * absent), with stratified, grouped k-fold cross-validation for an honest estimate.
 *
 * The search is deliberately small so that a fit on ~100 queries generalizes: one cosine cut
 * (the absolute guards ABS_LOW/ABS_MODERATE, which decide worth-reading once prominence admits
 * the pool), one prominence threshold (0 in the `top_score` shape, so the guard alone decides),
 * and the pool size. Monotone constraints hold by construction: high ≥ moderate ≥ low for the
 * prominence bands (strictly, as validateThresholds wants) and strong ≥ abs_moderate ≥ abs_low for
 * the cosines. Among shapes, the simplest whose cross-validated estimate is within
 * `simplicityTolerance` of the best wins. Near-misses (kind `near_miss`) are left out of the
 * objective and reported apart: no bi-encoder signal separates them (lib/calibration/README.md
 * "Threshold profiles").
 *
 * The seams, one file each: `types.ts` (shapes, defaults), `cut.ts` (the cut search for one
 * prominence threshold), `rule.ts` (the rule's constants and the search over pool sizes and
 * shapes), `folds.ts` (cross-validation), `report.ts` (the fitted rule against the reference).
 */
import { balancedAccuracy, countsFromConfusion } from "../metrics";
import { crossValidate } from "./folds";
import { reportFit } from "./report";
import { cacheFor, fitRule } from "./rule";
import { FitInputError, resolveFitOptions, type FitExample, type FitOptions, type FitResult } from "./types";

export * from "./types";
export { bestCut, CUT_STEP, type CutChoice } from "./cut";
export { ruleThresholds } from "./rule";
export { assignFolds } from "./folds";
export { evaluateProfile } from "./report";

/** Fits a profile. Throws FitInputError when the objective has no present or no absent example. */
export function fitProfile(examples: readonly FitExample[], options: FitOptions = {}): FitResult {
  const o = resolveFitOptions(options);
  const apart = new Set(o.apartKinds);
  const used = examples.flatMap((e, i) => (e.kind && apart.has(e.kind) ? [] : [i]));
  const present = examples.map((e) => e.present);
  if (!used.some((i) => present[i]) || !used.some((i) => !present[i])) {
    throw new FitInputError("A fit needs at least one labeled present and one labeled absent recall with a stored pool.");
  }
  const cache = cacheFor(examples);

  const shapes = o.shapes.map((shape) => {
    const so = { ...o, shapes: [shape] };
    const cv = crossValidate(examples, cache, used, so);
    const rule = fitRule(cache, used, present, so);
    return { shape, cv, rule };
  });
  const bestCv = Math.max(...shapes.map((s) => s.cv.ba ?? -1));
  // Shapes are listed simplest first.
  const chosen = shapes.find((s) => (s.cv.ba ?? -1) >= bestCv - o.simplicityTolerance) ?? shapes[0]!;
  const rule = chosen.rule;
  const report = reportFit(examples, rule, cache.get(rule.pool_size), apart);

  return {
    ...rule,
    estimate: {
      balanced_accuracy: chosen.cv.ba,
      train_balanced_accuracy: balancedAccuracy(countsFromConfusion(report.confusion)),
      folds: chosen.cv.folds,
      fold_scores: chosen.cv.fold_scores,
    },
    confusion: report.confusion,
    reference: report.reference,
    by_kind: report.by_kind,
    shapes: shapes.map((s) => ({
      shape: s.shape,
      balanced_accuracy: s.cv.ba,
      train_balanced_accuracy: s.rule.train_balanced_accuracy,
      pool_size: s.rule.pool_size,
    })),
    examples: examples.length,
    used: used.length,
    points: report.points,
  };
}
