import { describe, expect, it } from "vitest";
import { bandDomain, bandSeriesOptions, pickBandSeries, prepareBands } from "./bands";
import type { DistributionSeries, ScoreBands } from "./distribution-schema";

const bands = (n: number, values: [number, number, number, number, number] | null): ScoreBands =>
  values
    ? { n, p10: values[0], p25: values[1], p50: values[2], p75: values[3], p90: values[4] }
    : { n: 0, p10: null, p25: null, p50: null, p75: null, p90: null };

const point = (day: string, top: ScoreBands, prominence: ScoreBands) => ({
  local_start: `2025-02-0${day}T00:00`,
  start: `2025-02-0${day}T00:00:00.000Z`,
  end: `2025-02-0${day}T00:00:00.000Z`,
  top_score: top,
  prominence,
});

const SERIES: DistributionSeries = {
  key: "embedded\u0000cosine",
  store: "embedded",
  unit: "cosine",
  recalls: 25,
  points: [
    point("1", bands(24, [0.33, 0.375, 0.45, 0.525, 0.57]), bands(24, [0.065, 0.0875, 0.15, 0.225, 0.27])),
    point("2", bands(0, null), bands(0, null)),
    point("3", bands(1, [0.7, 0.7, 0.7, 0.7, 0.7]), bands(0, null)),
  ],
};

describe("prepareBands", () => {
  it("draws p10–p90 and p25–p75 as ranges with the median, and a bucket without values as a gap", () => {
    const chart = prepareBands(SERIES, "top_score", "day");
    expect(chart.empty).toBeNull();
    expect(chart.axisLabel).toBe("top score (raw cosine)");
    expect(chart.points.map((p) => [p.outer, p.inner, p.median, p.n, p.thin])).toEqual([
      [[0.33, 0.57], [0.375, 0.525], 0.45, 24, false],
      [null, null, null, 0, false],
      [[0.7, 0.7], [0.7, 0.7], 0.7, 1, true],
    ]);
    expect(chart.points[2]!.notes).toEqual(["Few recalls (1): the bands are rough."]);
    expect(chart.points[0]!.tooltip.map((l) => [l.label, l.value])).toEqual([
      ["p90", "0.570"],
      ["p75", "0.525"],
      ["Median", "0.450"],
      ["p25", "0.375"],
      ["p10", "0.330"],
      ["Recalls", "24"],
    ]);
    // 0.33 … 0.7: steps of 0.1 (a quarter of the span, rounded up to 1/2/5 × 10^k).
    expect(chart.domain).toEqual([0.3, 0.7]);
    expect(chart.ticks).toEqual([0.3, 0.4, 0.5, 0.6, 0.7]);
  });

  it("explains an empty chart: no series at all, or a series that never stated the number", () => {
    expect(prepareBands(null, "top_score", "day").empty).toMatch(/No recall in this range stated a top score/);
    const noProminence = { ...SERIES, points: [SERIES.points[1]!] };
    expect(prepareBands(noProminence, "prominence", "day").empty).toBe(
      "None of the 25 recalls of embedded on this scale stated a prominence, so there are no bands to draw.",
    );
  });
});

describe("bandDomain", () => {
  it("starts prominence at 0, keeps cosines inside [−1, 1] and widens a single value", () => {
    expect(bandDomain([0.065, 0.27], "cosine", "prominence").domain).toEqual([0, 0.3]);
    expect(bandDomain([-1, 1], "cosine", "top_score")).toEqual({ domain: [-1, 1], ticks: [-1, -0.5, 0, 0.5, 1] });
    expect(bandDomain([8, 8], "BM25", "top_score").domain).toEqual([7, 9]);
  });
});

describe("the series picker", () => {
  it("labels each series with its store and scale, and falls back to the largest", () => {
    const answer = { series: [SERIES, { ...SERIES, key: "beta\u0000BM25", store: "beta", unit: "BM25" as const, recalls: 2 }] };
    expect(bandSeriesOptions(answer).map((o) => o.label)).toEqual(["embedded · raw cosine", "beta · raw BM25"]);
    expect(pickBandSeries(answer, "beta\u0000BM25")?.store).toBe("beta");
    expect(pickBandSeries(answer, "gone")?.store).toBe("embedded");
    expect(pickBandSeries({ series: [] }, undefined)).toBeNull();
  });
});
