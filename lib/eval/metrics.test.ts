import { describe, expect, it } from "vitest";
import { evalMetrics, metricBlock, type EvalOutcome } from "./metrics";
import { firstRelevantRank, hitAt, ndcgAt, recallAt, reciprocalRank } from "./retrieval-metrics";
import { areaUnder, auc, rocCurve } from "./roc";
import { confusion, presentGivenLevel, triageScores } from "./triage";

describe("ranking metrics of one query", () => {
  it("finds the first relevant rank (1-based) or null", () => {
    expect(firstRelevantRank(["a", "b", "c"], ["c", "b"])).toBe(2);
    expect(firstRelevantRank(["a"], ["z"])).toBeNull();
    expect(firstRelevantRank([], [])).toBeNull();
  });
  it("hit@k and reciprocal rank", () => {
    expect(hitAt(["a", "b", "c"], ["c"], 2)).toBe(0);
    expect(hitAt(["a", "b", "c"], ["c"], 3)).toBe(1);
    expect(reciprocalRank(["a", "b", "c"], ["c"])).toBeCloseTo(1 / 3, 15);
    expect(reciprocalRank(["a"], ["c"])).toBe(0);
  });
  it("nDCG@k by hand: relevant at ranks 1 and 3 of two relevant", () => {
    // DCG = 1/log2(2) + 1/log2(4) = 1.5; IDCG = 1 + 1/log2(3).
    expect(ndcgAt(["x", "a", "y"], ["x", "y"], 3)).toBeCloseTo(1.5 / (1 + 1 / Math.log2(3)), 12);
    // Only the first k count, and the ideal is capped at k.
    expect(ndcgAt(["a", "x"], ["x", "y", "z"], 2)).toBeCloseTo(1 / Math.log2(3) / (1 + 1 / Math.log2(3)), 12);
    expect(ndcgAt(["x", "x"], ["x"], 2)).toBe(1);
    expect(ndcgAt(["x"], [], 5)).toBeNull();
  });
  it("recall@k", () => {
    expect(recallAt(["x", "a", "y", "z"], ["x", "y", "w"], 3)).toBeCloseTo(2 / 3, 15);
    expect(recallAt(["x"], [], 3)).toBeNull();
  });
});

describe("auc", () => {
  it("is the share of (positive, negative) pairs ordered right", () => {
    // Pairs: (3>1)(3>2)(5>1)(5>2) all right, (0<1)(0<2) wrong → 4/6.
    expect(auc([3, 5, 0], [1, 2])).toBeCloseTo(4 / 6, 15);
    expect(auc([1, 2], [3, 4])).toBe(0);
    expect(auc([3, 4], [1, 2])).toBe(1);
  });
  it("counts ties half", () => {
    expect(auc([1], [1])).toBe(0.5);
    // (2 vs 1) right, (2 vs 2) half, (1 vs 1) half, (1 vs 2) wrong → 2/4.
    expect(auc([2, 1], [1, 2])).toBe(0.5);
    // (2 vs 2) half, (2 vs 0) right → 1.5/2.
    expect(auc([2], [2, 0])).toBe(0.75);
  });
  it("gives null for an empty class and skips non-finite scores", () => {
    expect(auc([], [1])).toBeNull();
    expect(auc([1], [])).toBeNull();
    expect(auc([null, Number.NaN], [1])).toBeNull();
    expect(auc([2, null], [1, undefined])).toBe(1);
  });
});

describe("rocCurve", () => {
  it("steps from (0,0) to (1,1), ties as one diagonal step, area equal to the AUC", () => {
    const curve = rocCurve([3, 2, 2], [2, 1]);
    expect(curve.points.map((p) => [p.fpr, p.tpr])).toEqual([
      [0, 0],
      [0, 1 / 3],
      [0.5, 1],
      [1, 1],
    ]);
    // Pairs: 3>2, 3>1, 2=2 (half, twice), 2>1 (twice) → (1+1+0.5+0.5+1+1)/6 = 5/6.
    expect(curve.auc).toBeCloseTo(5 / 6, 15);
    expect(areaUnder(curve.points)).toBeCloseTo(5 / 6, 15);
  });
  it("is empty with a null AUC when a class is empty", () => {
    expect(rocCurve([1, 2], [])).toEqual({ points: [], auc: null, positives: 2, negatives: 0 });
  });
});

describe("triage", () => {
  const matrix = confusion([
    { level: "high", present: true },
    { level: "high", present: false },
    { level: "moderate", present: true },
    { level: "low", present: true },
    { level: "none", present: false },
    { level: "none", present: false },
  ]);
  it("counts level × present/absent", () => {
    expect(matrix).toEqual({
      high: { present: 1, absent: 1 },
      moderate: { present: 1, absent: 0 },
      low: { present: 1, absent: 0 },
      none: { present: 0, absent: 2 },
    });
  });
  it("scores worth reading (high, moderate) against present", () => {
    // tp 2, fp 1, fn 1, tn 2: accuracy 4/6, TPR 2/3, TNR 2/3.
    expect(triageScores(matrix)).toEqual({
      tp: 2,
      fp: 1,
      fn: 1,
      tn: 2,
      accuracy: 4 / 6,
      balanced_accuracy: 2 / 3,
      worth_reading_precision: 2 / 3,
      worth_reading_recall: 2 / 3,
    });
  });
  it("balanced accuracy is not fooled by an imbalanced set", () => {
    // 9 present all called worth reading, 1 absent also: accuracy 0.9, balanced 0.5.
    const m = confusion([
      ...Array.from({ length: 9 }, () => ({ level: "high" as const, present: true })),
      { level: "moderate", present: false },
    ]);
    const s = triageScores(m);
    expect(s.accuracy).toBe(0.9);
    expect(s.balanced_accuracy).toBe(0.5);
  });
  it("nulls what an empty class leaves undefined", () => {
    const s = triageScores(confusion([{ level: "low", present: true }]));
    expect(s.balanced_accuracy).toBeNull();
    expect(s.worth_reading_precision).toBeNull();
    expect(s.worth_reading_recall).toBe(0);
    expect(triageScores(confusion([])).accuracy).toBeNull();
  });
  it("P(present | level)", () => {
    expect(presentGivenLevel(matrix)).toEqual({ high: 0.5, moderate: 1, low: 1, none: 0 });
    expect(presentGivenLevel(confusion([])).high).toBeNull();
  });
});

const outcome = (o: Partial<EvalOutcome>): EvalOutcome => ({
  kind: null,
  relevant: [],
  ranked: [],
  level: "none",
  top_score: null,
  prominence: null,
  relative_margin: null,
  ...o,
});

describe("evalMetrics", () => {
  const outcomes = [
    outcome({
      kind: "on_topic",
      relevant: ["a"],
      ranked: ["a", "b"],
      level: "high",
      top_score: 0.8,
      prominence: 0.5,
      relative_margin: 2,
    }),
    outcome({
      kind: "on_topic",
      relevant: ["c"],
      ranked: ["b", "c"],
      level: "low",
      top_score: 0.5,
      prominence: 0.1,
      relative_margin: null,
    }),
    outcome({ kind: "off_topic", ranked: ["b"], level: "none", top_score: 0.2, prominence: 0.3, relative_margin: 1 }),
    outcome({ kind: "near_miss", ranked: ["b"], level: "moderate", top_score: 0.6, prominence: 0.05, relative_margin: 3 }),
    outcome({ kind: "near_miss", relevant: [], level: null }),
  ];
  const m = evalMetrics(outcomes, 2);

  it("computes ranking over present queries and triage over judged ones", () => {
    expect(m).toMatchObject({ k: 2, count: 5, present: 2, absent: 2, errors: 1 });
    expect(m.hit_at_1).toBe(0.5);
    expect(m.hit_at_5).toBe(1);
    expect(m.mrr).toBe(0.75);
    expect(m.ndcg).toBeCloseTo((1 + 1 / Math.log2(3)) / 2, 12);
    expect(m.recall_at_k).toBe(1);
    // worth reading: high(present) tp, moderate(absent) fp; low(present) fn; none(absent) tn.
    expect(m.triage_accuracy).toBe(0.5);
    expect(m.balanced_accuracy).toBe(0.5);
    expect(m.worth_reading).toEqual({ precision: 0.5, recall: 0.5 });
  });
  it("AUC per signal, a null signal left out", () => {
    // top_score: present {0.8, 0.5} vs absent {0.2, 0.6}: 3 of 4 pairs right.
    expect(m.auc.top_score).toBe(0.75);
    // prominence: {0.5, 0.1} vs {0.3, 0.05}: 0.5>both, 0.1>0.05 → 3/4.
    expect(m.auc.prominence).toBe(0.75);
    // relative_margin: {2} vs {1, 3} → 1/2.
    expect(m.auc.relative_margin).toBe(0.5);
  });
  it("splits by kind, each absent kind measured against every present query", () => {
    expect(Object.keys(m.by_kind)).toEqual(["near_miss", "off_topic", "on_topic"]);
    expect(m.by_kind.near_miss).toMatchObject({
      count: 2,
      present: 0,
      absent: 1,
      errors: 1,
      hit_at_1: null,
      balanced_accuracy: null,
    });
    expect(m.by_kind.near_miss!.auc.top_score).toBeNull();
    // present {0.8, 0.5} vs near-miss {0.6}: 1 of 2.
    expect(m.by_kind.near_miss!.auc_vs_present.top_score).toBe(0.5);
    expect(m.by_kind.off_topic!.auc_vs_present.top_score).toBe(1);
    expect(m.by_kind.on_topic!.auc_vs_present.top_score).toBeNull();
  });
  it("is all null, never NaN, on an empty run", () => {
    const empty = metricBlock([], 5);
    expect(JSON.stringify(empty)).not.toMatch(/NaN/);
    expect([empty.hit_at_1, empty.mrr, empty.ndcg, empty.triage_accuracy, empty.auc.top_score]).toEqual([
      null,
      null,
      null,
      null,
      null,
    ]);
    expect(evalMetrics([], 5).by_kind).toEqual({});
  });
});
