import { describe, expect, it } from "vitest";
import { computeConfidence, triageAdvice } from "@/lib/recall/confidence";
import { mulberry32 } from "@/lib/recall/test-support/prng";
import { DEFAULT_THRESHOLDS, type Thresholds } from "@/lib/recall/thresholds";
import { ruleThresholds } from "./fit";
import { poolSignals, worthReading } from "./signals";

function randomPool(rng: ReturnType<typeof mulberry32>) {
  const n = rng.int(0, 12);
  const kind = rng.int(0, 3);
  const cos = Array.from({ length: n }, () => (kind === 0 ? rng.uniform(-0.3, 0.2) : rng.uniform(0.1, 0.95)));
  const hybrid = Array.from({ length: n }, () => rng.uniform(0, 1));
  if (kind === 3) return { hybridScores: hybrid, semanticRaw: [] }; // z-score path
  return { hybridScores: hybrid, semanticRaw: cos };
}

function randomThresholds(rng: ReturnType<typeof mulberry32>): Thresholds {
  if (rng.next() < 0.3) return { ...DEFAULT_THRESHOLDS };
  return ruleThresholds(Math.round(rng.uniform(0.1, 0.9) * 1000) / 1000, rng.pick([0, 0.05, 0.1, 0.2, 0.3]));
}

describe("worthReading", () => {
  it("agrees with the rules' level on generated pools and profiles", () => {
    const rng = mulberry32(42);
    for (let i = 0; i < 3000; i++) {
      const pool = randomPool(rng);
      const t = randomThresholds(rng);
      const expected = triageAdvice(computeConfidence(pool, t).level).verdict === "worth_reading";
      expect(worthReading(poolSignals(pool), t), JSON.stringify({ pool, t })).toBe(expected);
    }
  });

  it("reads unrounded signals from the trace", () => {
    const s = poolSignals({ hybridScores: [], semanticRaw: [0.919, 0.676, 0.67, 0.615, 0.608, 0.537, 0.52, 0.5] });
    expect(s.basis).toBe("semantic");
    expect(s.top).toBe(0.919);
    expect(s.prominence).toBeCloseTo(0.5591, 3);
    expect(s.backgroundUsable).toBe(true);
    expect(poolSignals({ hybridScores: [0.95, 0.3, 0.31, 0.29, 0.3] }).z).toBeCloseTo(91.924, 2);
    expect(poolSignals({ hybridScores: [] }).basis).toBe("empty");
  });
});
