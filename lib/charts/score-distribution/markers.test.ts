import { describe, expect, it } from "vitest";
import { BAND_COLORS, defaultScoreMetric, prepareScoreDistribution } from "./index";
import { type Cand, kinds, marker, view } from "./test-fixtures";

describe("prepareScoreDistribution: keyword-only pools draw the z-score view", () => {
  const KEYWORD = [12, 3, 3.2, 2.9, 3.1];

  it("points on the BM25 scores, markers for the mean and mean + z × std, and a note", () => {
    const v = view(
      KEYWORD.map((kw) => ({ kw })),
      "keyword",
    );
    const conf = v.confidence!;
    expect(conf.basis).toBe("zscore");
    const mean = conf.background_mean!;
    const std = conf.background_std!;
    for (const metric of ["raw_cosine", "bm25"] as const) {
      const p = prepareScoreDistribution(v, metric);
      expect(p.status).toBe("ok");
      expect(p.view).toBe("zscore");
      expect(p.plottedMetric).toBe("bm25");
      expect(p.points.map((pt) => pt.x)).toEqual(KEYWORD);
      expect(marker(p, "background_mean").x).toBe(mean);
      expect(marker(p, "z_band-high").x).toBeCloseTo(mean + 2 * std, 12);
      expect(marker(p, "z_band-moderate").x).toBeCloseTo(mean + 1 * std, 12);
      expect(marker(p, "z_band-low").x).toBeCloseTo(mean + 0.3 * std, 12);
      expect(marker(p, "top").x).toBe(12);
      expect(kinds(p)).not.toContain("prominence_band");
      expect(kinds(p)).not.toContain("absolute_guard");
      expect(p.note).toMatch(/no raw cosines/);
      expect(p.note).toMatch(/z-score/);
      expect(p.axisLabel).toMatch(/z-score view/);
      expect(marker(p, "z_band-high").color).toBe(BAND_COLORS.high);
    }
    expect(defaultScoreMetric(v)).toBe("bm25");
  });

  it("uses hybrid scores when the keyword-only pool has them (degraded hybrid)", () => {
    const list: Cand[] = [
      { kw: 9, hy: 0.4 },
      { kw: 4, hy: 0.18 },
      { kw: 3.5, hy: 0.16 },
      { kw: 3, hy: 0.13 },
    ];
    const v = view(list, "hybrid");
    expect(v.confidence?.basis).toBe("zscore");
    expect(defaultScoreMetric(v)).toBe("hybrid");
    const p = prepareScoreDistribution(v, "hybrid");
    expect(p.view).toBe("zscore");
    expect(p.points.map((pt) => pt.x)).toEqual([0.4, 0.18, 0.16, 0.13]);
    expect(marker(p, "z_band-high").x).toBeCloseTo(v.confidence!.background_mean! + 2 * v.confidence!.background_std!, 12);
    // BM25 is not the z-score's space here: its own mean/top, and a pointer to the hybrid view.
    const b = prepareScoreDistribution(v, "bm25");
    expect(b.view).toBe("score");
    expect(kinds(b).sort()).toEqual(["background_mean", "top"]);
    expect(b.note).toMatch(/switch to Hybrid/);
  });

  it("flat background: bands at mean + z × |mean| (the relative gap), said in the note", () => {
    const v = view(
      [0.5, 0.5, 0.5, 0.5].map((kw) => ({ kw })),
      "keyword",
    ); // spec F-4
    const p = prepareScoreDistribution(v, "bm25");
    expect(p.note).toMatch(/flat/);
    expect(marker(p, "z_band-high").x).toBeCloseTo(0.5 + 2 * 0.5, 12);
    expect(marker(p, "z_band-low").x).toBeCloseTo(0.5 + 0.3 * 0.5, 12);
    const zero = view(
      [0.5, 0, 0].map((kw) => ({ kw })),
      "keyword",
    ); // relative gap over 1.0
    const q = prepareScoreDistribution(zero, "bm25");
    expect(marker(q, "z_band-moderate").x).toBeCloseTo(1, 12);
  });

  it("z markers far beyond the data are listed but not drawn", () => {
    // Tight background, weak top: mean + 2 std may still be near; force a far band with a custom profile.
    const v = view(
      [5, 4.9, 4.8, 4.7].map((kw) => ({ kw })),
      "keyword",
      { z_high: 900, z_moderate: 1, z_low: 0.3 },
    );
    const p = prepareScoreDistribution(v, "bm25");
    const high = marker(p, "z_band-high");
    expect(high.inDomain).toBe(false);
    expect(high.label).toMatch(/off the chart/);
    expect(p.domain[1]).toBeLessThan(high.x);
    expect(marker(p, "z_band-moderate").inDomain).toBe(true);
  });
});
