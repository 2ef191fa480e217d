import { describe, expect, it } from "vitest";
import { HISTOGRAM_MIN_POOL, histogramBins, prepareScoreDistribution } from "./index";
import { type Cand, MEAN_HALF, semantic, view } from "./test-fixtures";

describe("prepareScoreDistribution: histogram of the pool", () => {
  const cosines = Array.from({ length: 20 }, (_, i) => 0.3 + ((i * 37) % 20) * 0.025);

  it("bins every pool value exactly once, contiguous from min to max", () => {
    const list: Cand[] = [...semantic(cosines), { cos: 0.99, inPool: false, returned: false }];
    const p = prepareScoreDistribution(view(list), "raw_cosine");
    expect(p.bins.length).toBeGreaterThanOrEqual(4);
    expect(p.bins.reduce((s, b) => s + b.count, 0)).toBe(20); // the outside candidate is not binned
    expect(p.bins[0]!.x0).toBe(Math.min(...cosines));
    expect(p.bins[p.bins.length - 1]!.x1).toBe(Math.max(...cosines));
    for (let i = 1; i < p.bins.length; i++) expect(p.bins[i]!.x0).toBeCloseTo(p.bins[i - 1]!.x1, 12);
    expect(p.showHistogram).toBe(true);
    const tallest = Math.max(...p.bins.map((b) => b.y1));
    for (const b of p.bins) {
      expect(b.y1).toBeGreaterThanOrEqual(b.y0);
      if (b.count === Math.max(...p.bins.map((x) => x.count))) expect(b.y1).toBe(tallest);
    }
  });

  it("counts the maximum in the last bin and handles equal values", () => {
    const bins = histogramBins([0, 1, 2, 3, 4, 5, 6, 7]);
    expect(bins).toHaveLength(4);
    expect(bins.map((b) => b.count)).toEqual([2, 2, 2, 2]);
    const flat = histogramBins([0.5, 0.5, 0.5]);
    expect(flat).toHaveLength(1);
    expect(flat[0]).toMatchObject({ x0: 0.5, x1: 0.5, count: 3 });
    expect(histogramBins([0.5])).toEqual([]);
    expect(histogramBins([])).toEqual([]);
  });

  it("hides the histogram for small pools (points say more)", () => {
    const p = prepareScoreDistribution(view(semantic(MEAN_HALF)), "raw_cosine");
    expect(p.bins.reduce((s, b) => s + b.count, 0)).toBe(4);
    expect(p.showHistogram).toBe(false);
    expect(HISTOGRAM_MIN_POOL).toBeGreaterThan(4);
  });
});
