import { describe, expect, it } from "vitest";
import type { Level } from "@/lib/recall/level";
import { verdictMetrics, type EvalOutcome } from "./metrics";

const o = (kind: string, present: boolean, level: Level, probability?: number): EvalOutcome => ({
  kind,
  relevant: present ? ["m"] : [],
  ranked: [],
  level,
  probability,
  top_score: probability ?? null,
  prominence: null,
  relative_margin: null,
});

describe("verdictMetrics", () => {
  it("states present vs off-topic apart from near-misses (never pooled)", () => {
    const outcomes = [
      o("on_topic", true, "high", 0.9),
      o("on_topic", true, "moderate", 0.7),
      o("off_topic", false, "none", 0.1),
      o("off_topic", false, "low", 0.4),
      // Near-misses all read worth reading: pooled, they would halve the absent side's accuracy.
      o("near_miss", false, "high", 0.9),
      o("near_miss", false, "moderate", 0.65),
    ];
    const m = verdictMetrics(outcomes);
    expect(m.present_vs_off_topic).toMatchObject({
      present: 2,
      off_topic: 2,
      balanced_accuracy: 1,
      auc: 1,
      auc_of: "probability",
    });
    expect(m.near_miss).toEqual({ count: 2, worth_reading_rate: 1, auc_vs_present: 0.625 });
    expect(m.calibration!.count).toBe(4);
    expect(m.calibration!.p_present_by_level.high).toEqual({ count: 1, present_rate: 1 });
    expect(m.calibration!.p_present_by_level.none).toEqual({ count: 1, present_rate: 0 });
    expect(m.calibration!.reliability).toHaveLength(10);
    expect(m.calibration!.ece).toBeCloseTo((0.1 + 0.3 + 0.1 + 0.4) / 4, 6);
  });

  it("without probabilities: no calibration block, AUC of the top score; failed recalls ignored", () => {
    const m = verdictMetrics([
      o("on_topic", true, "moderate"),
      { ...o("off_topic", false, "low"), top_score: 0.2 },
      { ...o("on_topic", true, "high"), level: null },
    ]);
    expect(m.calibration).toBeNull();
    expect(m.near_miss).toBeNull();
    expect(m.present_vs_off_topic).toMatchObject({ present: 1, off_topic: 1, auc_of: "top_score", balanced_accuracy: 1 });
  });
});
