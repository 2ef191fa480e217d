import { describe, expect, it } from "vitest";
import type { EvalRunItem } from "@/lib/eval/run-schemas";
import { evalRunItem } from "@/lib/eval/test-fixtures";
import { DEFAULT_THRESHOLDS } from "@/lib/recall/thresholds";
import { layoutDistributionLabels, prepareRocChart, prepareSignalDistribution } from "./eval-report";

let n = 0;
const item = (o: Partial<EvalRunItem>): EvalRunItem => evalRunItem(n++, { query: "q", ...o });

describe("prepareSignalDistribution", () => {
  const items = [
    item({ relevant: ["a"], top_score: 0.62, prominence: 0.3 }),
    item({ relevant: ["a"], top_score: 0.71, prominence: 0.1 }),
    item({ top_score: 0.41, prominence: 0.2 }),
    item({ top_score: null, prominence: null, level: null, status: "error" }),
  ];
  it("bins present and absent apart, as shares of their class, with the thresholds as markers", () => {
    const d = prepareSignalDistribution(items, "top_score", DEFAULT_THRESHOLDS, 10);
    expect(d).toMatchObject({ present: 2, absent: 1, missing: 1, empty: null });
    // The domain stretches to the strong-cosine marker (0.85) beyond every score; cosines stay within [-1, 1].
    expect(d.domain).toEqual([0.3, 0.85]);
    expect(d.markers.map((m) => m.value)).toEqual([0.3, 0.5, 0.85]);
    expect(d.markers[2]!.label).toBe("strong cosine 0.85");
    expect(d.bins).toHaveLength(10);
    expect(d.bins.reduce((s, b) => s + b.present, 0)).toBe(2);
    expect(d.bins.reduce((s, b) => s + b.presentShare, 0)).toBeCloseTo(1, 12);
    expect(d.bins.reduce((s, b) => s + b.absentShare, 0)).toBeCloseTo(1, 12);
    const binOf = (v: number) => d.bins.findIndex((b) => v >= b.x0 && v < b.x1);
    expect(d.bins[binOf(0.41)]!.absent).toBe(1);
    expect(d.bins[binOf(0.62)]!.present).toBe(1);
  });
  it("puts the top edge into the last bin and draws prominence with its bands", () => {
    const d = prepareSignalDistribution(items, "prominence", DEFAULT_THRESHOLDS, 4);
    expect(d.markers.map((m) => m.value)).toEqual([0.12, 0.25, 0.4]);
    expect(d.domain).toEqual([0.1, 0.4]);
    expect(d.bins[0]!.present).toBe(1);
    expect(d.bins.reduce((s, b) => s + b.present + b.absent, 0)).toBe(3);
  });
  it("explains an empty chart", () => {
    expect(prepareSignalDistribution([], "top_score", null).empty).toBe("No query has run yet.");
    const none = prepareSignalDistribution([item({ level: null })], "prominence", DEFAULT_THRESHOLDS);
    expect(none.empty).toBe("No query has a prominence to draw (1 without one).");
    expect(none.bins).toEqual([]);
  });
});

describe("prepareRocChart", () => {
  it("draws one curve per signal with its AUC", () => {
    const roc = prepareRocChart([
      item({ relevant: ["a"], top_score: 0.9, prominence: 0.1, relative_margin: 1 }),
      item({ top_score: 0.2, prominence: 0.5, relative_margin: 1 }),
    ]);
    expect(roc.empty).toBeNull();
    expect(roc.series.map((s) => [s.signal, s.auc])).toEqual([
      ["top_score", 1],
      ["prominence", 0],
      ["relative_margin", 0.5],
    ]);
    expect(roc.series[0]!.points[0]).toEqual({ threshold: Number.MAX_VALUE, fpr: 0, tpr: 0 });
    expect(roc.series[0]!.points.at(-1)).toMatchObject({ fpr: 1, tpr: 1 });
  });
  it("says why there is no curve when a class is empty", () => {
    const roc = prepareRocChart([item({ relevant: ["a"], top_score: 0.9 })]);
    expect(roc.series).toEqual([]);
    expect(roc.empty).toMatch(/1 present and 0 absent/);
  });
});

describe("layoutDistributionLabels", () => {
  // A fitted profile as the issue-32 walk met it: both cosine guards at 0.40, prominence bands at −0.12 and 0.00.
  const fitted = {
    ...DEFAULT_THRESHOLDS,
    name: "fitted",
    abs_low_cosine: 0.4,
    abs_moderate_cosine: 0.4,
    strong_abs_cosine: 0.85,
    low_prominence: -0.12,
    moderate_prominence: 0,
    high_prominence: 0.4,
  };
  const items = [
    item({ relevant: ["a"], top_score: 0.62, prominence: 0.3 }),
    item({ relevant: ["a"], top_score: 0.71, prominence: 0.1 }),
    item({ top_score: 0.41, prominence: -0.05 }),
  ];
  for (const plotPx of [230, 560]) {
    it(`gives the guards at one value one label and keeps every label apart and inside at ${plotPx} px`, () => {
      const top = layoutDistributionLabels(prepareSignalDistribution(items, "top_score", fitted), plotPx);
      expect(top.labels.map((l) => l.text)).toEqual(["low guard / moderate guard 0.40", "strong cosine 0.85"]);
      const prominence = layoutDistributionLabels(prepareSignalDistribution(items, "prominence", fitted), plotPx);
      expect(prominence.labels.map((l) => l.text)).toEqual(["low -0.12", "moderate 0.00", "high 0.40"]);
      for (const layout of [top, prominence]) {
        for (const [i, a] of layout.labels.entries()) {
          expect(a.left).toBeGreaterThanOrEqual(0);
          expect(a.right).toBeLessThanOrEqual(plotPx);
          for (const b of layout.labels.slice(i + 1)) {
            expect(a.row === b.row && a.left < b.right && b.left < a.right, `${a.text} / ${b.text}`).toBe(false);
          }
        }
      }
    });
  }
});
