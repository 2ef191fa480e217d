import { describe, expect, it } from "vitest";
import { computeConfidence } from "@/lib/recall/confidence";
import { DEFAULT_THRESHOLDS } from "@/lib/recall/thresholds";
import { ruleThresholds } from "./fit";
import { confidenceInputFromCandidates } from "./level";
import { semanticList } from "./test-pools";
import { WhatIfTally, type WhatIfRecall } from "./what-if";

function recall(id: string, top: number, p: number, withPool = true): WhatIfRecall {
  const candidates = semanticList(top, p, 20, 0.005, () => 0.5);
  const r = computeConfidence(confidenceInputFromCandidates(candidates, 10));
  return {
    id,
    k: 10,
    level: r.level,
    stated: { basis: r.basis, top_score: r.top_score, prominence: r.prominence, relative_margin: r.relative_margin },
    candidates: withPool ? candidates : null,
  };
}

describe("WhatIfTally", () => {
  it("counts the mix before and after, the flip matrix and the flips", () => {
    const tally = new WhatIfTally({ thresholds: ruleThresholds(0.4, 0, "p"), pool_size: 10 });
    const rs = [recall("a", 0.45, 0.1), recall("b", 0.3, 0.1), recall("c", 0.6, 0.5, false), recall("d", 0.45, 0.1, false)];
    rs.forEach((r) => tally.add(r));
    const s = tally.summary();
    expect(s.total).toBe(4);
    expect(s.from_pool).toBe(2);
    expect(s.from_stated).toBe(2);
    expect(rs.map((r) => r.level)).toEqual(["none", "none", "high", "none"]);
    expect(s.before).toEqual({ high: 1, moderate: 0, low: 0, none: 3 });
    expect(s.after).toEqual({ high: 1, moderate: 2, low: 1, none: 0 });
    expect(s.flip_matrix.none).toEqual({ high: 0, moderate: 2, low: 1, none: 0 });
    expect(s.flips).toEqual([
      { recall_id: "a", before: "none", after: "moderate", verdict_changed: true },
      { recall_id: "b", before: "none", after: "low", verdict_changed: false },
      { recall_id: "d", before: "none", after: "moderate", verdict_changed: true },
    ]);
    expect(s.truncated).toBe(false);
  });

  it("under the reference profile nothing flips (the logged level is the reference's)", () => {
    const tally = new WhatIfTally({ thresholds: DEFAULT_THRESHOLDS, pool_size: null });
    for (let i = 0; i < 30; i++) tally.add(recall(`r${i}`, 0.2 + i * 0.02, (i % 7) * 0.1, i % 2 === 0));
    expect(tally.summary().flip_count).toBe(0);
  });

  it("caps the listed flips and keeps verdict flips first", () => {
    const tally = new WhatIfTally({ thresholds: ruleThresholds(0.4, 0, "p"), pool_size: 10 }, 1);
    tally.add(recall("band", 0.3, 0.1));
    tally.add(recall("verdict", 0.45, 0.1));
    const s = tally.summary();
    expect(s.flip_count).toBe(2);
    expect(s.truncated).toBe(true);
    expect(s.flips.map((f) => f.recall_id)).toEqual(["verdict"]);
  });
});
