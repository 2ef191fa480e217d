/**
 * The prepare step with the candidate pool (the embedded store's recalls): each case states the
 * whole view it expects (points, markers, sentences), so a reader sees input and output side by side.
 */
import { describe, expect, it } from "vitest";
import { POINT_STYLES, prepareScoreDistribution } from "./index";
import { COSINE_VIEW_KINDS, type Cand, MEAN_HALF, PRESENT, candidates, kinds, marker, semantic, view } from "./test-fixtures";

describe("prepareScoreDistribution: raw cosine view", () => {
  it("draws the background mean, the top, and the prominence bands in cosine space (default profile)", () => {
    const v = view(semantic(MEAN_HALF));
    expect(v.confidence?.background_mean).toBe(0.5);
    const p = prepareScoreDistribution(v, "raw_cosine");
    expect(p.status).toBe("ok");
    expect(p.view).toBe("cosine");
    expect(p.plottedMetric).toBe("raw_cosine");
    expect(marker(p, "background_mean").x).toBe(0.5);
    expect(marker(p, "top").x).toBe(0.9);
    expect(marker(p, "prominence_band-high").x).toBeCloseTo(0.7, 12);
    expect(marker(p, "prominence_band-moderate").x).toBeCloseTo(0.625, 12);
    expect(marker(p, "prominence_band-low").x).toBeCloseTo(0.56, 12);
    expect(marker(p, "absolute_guard-high").x).toBe(0.5);
    expect(marker(p, "absolute_guard-moderate").x).toBe(0.3);
    expect(marker(p, "near_duplicate").x).toBe(0.85);
    expect(kinds(p).sort()).toEqual([...COSINE_VIEW_KINDS].sort());
    expect(p.markers.every((m) => m.inDomain)).toBe(true);
    expect(p.note).toBeUndefined();
  });

  it("labels every marker with its value, the band factor and the prominence", () => {
    const p = prepareScoreDistribution(view(semantic(MEAN_HALF)), "raw_cosine");
    expect(marker(p, "prominence_band-high").label).toBe("high ≥ 0.700 (mean × 1.40)");
    expect(marker(p, "prominence_band-moderate").label).toBe("moderate ≥ 0.625 (mean × 1.25)");
    expect(marker(p, "prominence_band-low").label).toBe("low ≥ 0.560 (mean × 1.12)");
    expect(marker(p, "top").label).toBe("top 0.900 · prominence 0.800");
    expect(marker(p, "background_mean").label).toContain("0.500");
    expect(marker(p, "absolute_guard-high").label).toContain("0.500");
    expect(marker(p, "absolute_guard-moderate").label).toContain("0.300");
    expect(marker(p, "near_duplicate").label).toContain("0.850");
    expect(marker(p, "prominence_band-high").band).toBe("high");
    expect(marker(p, "absolute_guard-high").band).toBe("high");
    expect(marker(p, "absolute_guard-moderate").band).toBe("moderate");
    for (const m of p.markers) {
      expect(m.valueText).toBe(m.x.toFixed(3));
      expect(m.shortLabel.length).toBeGreaterThan(0);
    }
  });

  it("reproduces the golden PRESENT pool: unrounded background mean and top, bands from it", () => {
    const v = view(semantic(PRESENT));
    const conf = v.confidence!;
    expect(conf.level).toBe("high");
    const p = prepareScoreDistribution(v, "raw_cosine");
    const mean = conf.background_mean!;
    expect(mean).toBeCloseTo(0.589429, 6);
    expect(marker(p, "background_mean").x).toBe(mean);
    expect(marker(p, "top").x).toBe(0.919);
    expect(marker(p, "top").label).toBe("top 0.919 · prominence 0.559");
    expect(marker(p, "prominence_band-high").x).toBeCloseTo(mean * 1.4, 12);
    expect(marker(p, "prominence_band-moderate").x).toBeCloseTo(mean * 1.25, 12);
    expect(marker(p, "prominence_band-low").x).toBeCloseTo(mean * 1.12, 12);
    expect(p.ariaLabel).toContain("Level high");
    expect(p.ariaLabel).toContain("Prominence 0.559");
  });

  it("uses the unrounded maximum in-pool cosine for the top marker, not the 3 dp top_score", () => {
    const v = view(semantic([0.91234567, 0.5, 0.4]));
    expect(v.confidence?.top_score).toBe(0.912);
    const p = prepareScoreDistribution(v, "raw_cosine");
    expect(marker(p, "top").x).toBe(0.91234567);
  });

  it("draws the thresholds of a custom profile in cosine space", () => {
    const custom = {
      high_prominence: 0.3,
      moderate_prominence: 0.2,
      low_prominence: 0.1,
      strong_abs_cosine: 0.6,
      abs_moderate_cosine: 0.35,
      abs_low_cosine: 0.2,
    };
    const v = view(semantic([0.45, 0.3, 0.25, 0.2]), "semantic", custom);
    expect(v.confidence?.thresholds).toBe("custom");
    expect(v.confidence?.background_mean).toBeCloseTo(0.25, 15);
    const mean = v.confidence!.background_mean!;
    const p = prepareScoreDistribution(v, "raw_cosine");
    expect(marker(p, "prominence_band-high").x).toBeCloseTo(mean * 1.3, 12);
    expect(marker(p, "prominence_band-moderate").x).toBeCloseTo(mean * 1.2, 12);
    expect(marker(p, "prominence_band-low").x).toBeCloseTo(mean * 1.1, 12);
    expect(marker(p, "prominence_band-high").label).toBe("high ≥ 0.325 (mean × 1.30)");
    expect(marker(p, "absolute_guard-high").x).toBe(0.35);
    expect(marker(p, "absolute_guard-moderate").x).toBe(0.2);
    expect(marker(p, "near_duplicate").x).toBe(0.6);
    // Factors with three decimals keep them.
    const odd = prepareScoreDistribution(view(semantic(MEAN_HALF), "semantic", { high_prominence: 0.333 }), "raw_cosine");
    expect(marker(odd, "prominence_band-high").label).toContain("mean × 1.333");
  });

  it("unusable background frame (mean ≤ bg_eps): no prominence bands, absolute bands instead, and a note", () => {
    const v = view(semantic([0.05, -0.2, -0.3, -0.25])); // spec S-9: background mean −0.25
    expect(v.confidence?.prominence).toBeNull();
    const p = prepareScoreDistribution(v, "raw_cosine");
    expect(kinds(p)).not.toContain("prominence_band");
    expect(p.note).toMatch(/not above 0\.001/);
    expect(p.note).toMatch(/absolute cosine bands applied/);
    expect(marker(p, "background_mean").x).toBe(-0.25);
    expect(marker(p, "top").label).toBe("top 0.050 · prominence n/a");
    expect(marker(p, "near_duplicate").x).toBe(0.85);
    expect(marker(p, "near_duplicate").label).toBe("high ≥ 0.850 (absolute band)");
    expect(marker(p, "absolute_guard-moderate").x).toBe(0.5);
    expect(marker(p, "absolute_guard-low").x).toBe(0.3);
    expect(p.domain[0]).toBeGreaterThanOrEqual(-1);
    expect(p.domain[1]).toBeLessThanOrEqual(1);
    expect(p.domain[0]).toBeLessThanOrEqual(-0.3);
    expect(p.domain[1]).toBeGreaterThanOrEqual(0.85);
  });

  it("a background mean of exactly bg_eps is unusable (strictly greater is required)", () => {
    const v = view(semantic([0.5, 0.001, 0.001]));
    expect(v.confidence?.background_mean).toBe(0.001);
    const p = prepareScoreDistribution(v, "raw_cosine");
    expect(kinds(p)).not.toContain("prominence_band");
    expect(p.note).toMatch(/absolute cosine bands/);
  });

  it("widens the domain to keep markers visible, within [-1, 1] for cosines", () => {
    // Data 0.40–0.45; the guards (0.3, 0.5), the floor (0.85) and the bands must still show.
    const p = prepareScoreDistribution(view(semantic([0.45, 0.42, 0.41, 0.4])), "raw_cosine");
    for (const m of p.markers) {
      expect(m.inDomain).toBe(true);
      expect(m.x).toBeGreaterThanOrEqual(p.domain[0]);
      expect(m.x).toBeLessThanOrEqual(p.domain[1]);
    }
    expect(p.domain[0]).toBeLessThanOrEqual(0.3);
    expect(p.domain[1]).toBeGreaterThanOrEqual(0.85);
    expect(p.domain[1]).toBeLessThanOrEqual(1);
    // Ticks are nice and inside the domain.
    expect(p.ticks.length).toBeGreaterThanOrEqual(3);
    expect(p.ticks[0]).toBeGreaterThanOrEqual(p.domain[0]);
    expect(p.ticks[p.ticks.length - 1]).toBeLessThanOrEqual(p.domain[1]);
  });

  it("a band above cosine 1 is listed but not drawn", () => {
    // Background mean 0.8 → high band at 1.12, outside the cosine range.
    const p = prepareScoreDistribution(view(semantic([0.95, 0.8, 0.8, 0.8])), "raw_cosine");
    const high = marker(p, "prominence_band-high");
    expect(high.x).toBeCloseTo(1.12, 12);
    expect(high.inDomain).toBe(false);
    expect(high.label).toMatch(/not drawn/);
    expect(p.domain[1]).toBeLessThanOrEqual(1);
  });

  it("points: every candidate with a cosine, flags for pool, outside, returned and dropped", () => {
    const list: Cand[] = [
      { cos: 0.9, returned: true },
      { cos: 0.7, returned: true, dropped: true },
      { cos: 0.6, returned: true },
      { cos: 0.55, inPool: false, returned: false },
      { cos: 0.5, inPool: false, returned: false },
    ];
    const p = prepareScoreDistribution(view(list), "raw_cosine");
    expect(p.points.map((pt) => pt.memoryId)).toEqual(["m1", "m2", "m3", "m4", "m5"]);
    const [a, b, c, d] = p.points;
    expect(a).toMatchObject({
      x: 0.9,
      rank: 1,
      inPool: true,
      returned: true,
      dropped: false,
      isTop: true,
      category: "pool",
      lane: "pool",
    });
    expect(b).toMatchObject({
      dropped: true,
      category: "dropped",
      lane: "pool",
      fill: POINT_STYLES.dropped.fill,
      symbol: "cross",
    });
    expect(c).toMatchObject({ category: "pool", fill: POINT_STYLES.pool.fill, symbol: "circle", isTop: false });
    expect(d).toMatchObject({ inPool: false, returned: false, category: "outside", lane: "outside", symbol: "ring" });
    expect(a!.radius).toBeGreaterThan(c!.radius);
    expect(p.points.filter((pt) => pt.isTop)).toHaveLength(1);
    expect(p.lanes.map((l) => [l.id, l.count])).toEqual([
      ["pool", 3],
      ["outside", 2],
    ]);
    expect(
      new Set([POINT_STYLES.pool.fill, POINT_STYLES.outside.fill, POINT_STYLES.returned.fill, POINT_STYLES.dropped.fill]).size,
    ).toBe(4);
    expect(p.pointLegend.map((i) => [i.category, i.count])).toEqual([
      ["pool", 2],
      ["outside", 2],
      ["dropped", 1],
    ]);
    // Lanes sit inside the y domain.
    for (const pt of p.points) {
      expect(pt.y).toBeGreaterThan(p.yDomain[0]);
      expect(pt.y).toBeLessThan(p.yDomain[1]);
    }
  });

  it("the top marker and point come from the pool only, even when an outside candidate scores higher", () => {
    const p = prepareScoreDistribution(
      view([{ cos: 0.7 }, { cos: 0.6 }, { cos: 0.5 }, { cos: 0.95, inPool: false, returned: false }]),
      "raw_cosine",
    );
    expect(marker(p, "top").x).toBe(0.7);
    expect(p.points.find((pt) => pt.isTop)?.memoryId).toBe("m1");
    expect(p.points.find((pt) => pt.memoryId === "m4")?.isTop).toBe(false);
  });

  it("null cosines are gaps, not zeros, and the note says how many", () => {
    const list: Cand[] = [
      { cos: 0.8, kw: 3, hy: 1 },
      { cos: null, kw: 5, hy: 0.4 },
      { cos: 0.5, kw: null, hy: 0.36 },
      { cos: 0.4, kw: null, hy: 0.3 },
    ];
    const p = prepareScoreDistribution(view(list, "hybrid"), "raw_cosine");
    expect(p.points.map((pt) => pt.memoryId)).toEqual(["m1", "m3", "m4"]);
    expect(p.points.some((pt) => pt.x === 0)).toBe(false);
    expect(p.note).toMatch(
      /1 candidate has no raw cosine \(keyword-only hits\), 1 of them in the pool; it is left out, not drawn at 0/,
    );
    const m2 = candidates(list)[1]!;
    expect(m2.raw_cosine).toBeNull();
    // The tooltip scores carry null, not 0, for the arms that did not score.
    expect(p.points.find((pt) => pt.memoryId === "m3")?.scores).toEqual({ raw_cosine: 0.5, bm25: null, hybrid: 0.36 });
  });

  it("dodges points with equal scores apart vertically, deterministically", () => {
    const p = prepareScoreDistribution(view(semantic([0.8, 0.6, 0.6, 0.6, 0.5])), "raw_cosine");
    const ties = p.points.filter((pt) => pt.x === 0.6);
    expect(new Set(ties.map((pt) => pt.y)).size).toBe(3);
    for (const pt of ties) expect(Math.abs(pt.y - 1)).toBeLessThanOrEqual(0.45);
    const again = prepareScoreDistribution(view(semantic([0.8, 0.6, 0.6, 0.6, 0.5])), "raw_cosine");
    expect(again.points.map((pt) => pt.y)).toEqual(p.points.map((pt) => pt.y));
    // A lone point sits on its lane's centre.
    expect(p.points.find((pt) => pt.x === 0.8)?.y).toBe(1);
  });

  it("staggers on-chart labels of close markers into different rows", () => {
    const p = prepareScoreDistribution(view(semantic(MEAN_HALF)), "raw_cosine");
    // mean (0.5) and the high guard (0.5) coincide.
    expect(marker(p, "background_mean").labelRow).not.toBe(marker(p, "absolute_guard-high").labelRow);
    expect(p.labelRows).toBeGreaterThanOrEqual(2);
    expect(p.labelRows).toBeLessThanOrEqual(4);
    for (const m of p.markers) expect(m.labelRow).toBeLessThan(p.labelRows);
    // Labels sharing a row are at least a short label's width apart (≈ 5 % of the axis).
    const span = p.domain[1] - p.domain[0];
    const drawn = p.markers.filter((m) => m.inDomain);
    for (const a of drawn) {
      for (const b of drawn) {
        if (a !== b && a.labelRow === b.labelRow) expect(Math.abs(a.x - b.x) / span).toBeGreaterThan(0.045);
      }
    }
  });

  it("truncates long summaries and names missing ones", () => {
    const long = "word ".repeat(60);
    const p = prepareScoreDistribution(
      view([{ cos: 0.8, summary: long }, { cos: 0.5, summary: null }, { cos: 0.4 }]),
      "raw_cosine",
    );
    expect(p.points[0]!.summary.length).toBeLessThanOrEqual(90);
    expect(p.points[0]!.summary.endsWith("…")).toBe(true);
    expect(p.points[1]!.summary).toBe("(no summary)");
    expect(p.points[2]!.summary).toBe("memory number 3");
  });
});

describe("prepareScoreDistribution: single candidate", () => {
  it("semantic: the point, the top and the single-candidate cutoff, with a note", () => {
    const v = view(semantic([0.91]));
    expect(v.confidence?.basis).toBe("single_semantic");
    const p = prepareScoreDistribution(v, "raw_cosine");
    expect(p.status).toBe("ok");
    expect(p.points).toHaveLength(1);
    expect(p.points[0]!.isTop).toBe(true);
    expect(p.note).toMatch(/^One candidate: no background to compare against/);
    expect(kinds(p).sort()).toEqual(["near_duplicate", "top"]);
    expect(marker(p, "near_duplicate").x).toBe(0.85);
    expect(marker(p, "top").x).toBe(0.91);
    expect(p.bins).toEqual([]);
    expect(p.domain[0]).toBeLessThan(0.85);
    expect(p.domain[1]).toBeGreaterThan(0.91);
  });

  it("keyword-only: the point and the top, with the note", () => {
    const v = view([{ kw: 7.25 }], "keyword");
    expect(v.confidence?.basis).toBe("single");
    const p = prepareScoreDistribution(v, "bm25");
    expect(p.status).toBe("ok");
    expect(p.view).toBe("zscore");
    expect(p.points).toHaveLength(1);
    expect(kinds(p)).toEqual(["top"]);
    expect(p.note).toMatch(/One candidate: no background to compare against/);
    expect(p.note).toMatch(/always moderate/);
    expect(p.domain[0]).toBeLessThan(7.25);
    expect(p.domain[1]).toBeGreaterThan(7.25);
  });
});

describe("prepareScoreDistribution: BM25 and hybrid on a semantic pool", () => {
  const list: Cand[] = [
    { cos: 0.8, kw: 6, hy: 1 },
    { cos: 0.6, kw: null, hy: 0.45 },
    { cos: 0.55, kw: 2, hy: 0.5 },
    { cos: 0.5, kw: 1, hy: 0.4 },
  ];

  it("hybrid: that score's background mean and top only, thresholds said to live in cosine space", () => {
    const p = prepareScoreDistribution(view(list, "hybrid"), "hybrid");
    expect(p.status).toBe("ok");
    expect(p.view).toBe("score");
    expect(kinds(p).sort()).toEqual(["background_mean", "top"]);
    expect(marker(p, "top").x).toBe(1);
    expect(marker(p, "background_mean").x).toBeCloseTo((0.45 + 0.5 + 0.4) / 3, 12);
    expect(p.note).toMatch(/raw-cosine space/);
    expect(p.axisLabel).toMatch(/Hybrid/);
  });

  it("bm25: keyword misses are gaps", () => {
    const p = prepareScoreDistribution(view(list, "hybrid"), "bm25");
    expect(p.points.map((pt) => pt.x)).toEqual([6, 2, 1]);
    expect(marker(p, "background_mean").x).toBe(1.5);
    expect(p.note).toMatch(/1 candidate has no BM25 score/);
  });

  it("lists the available metrics", () => {
    const p = prepareScoreDistribution(view(list, "hybrid"), "raw_cosine");
    expect(p.availableMetrics).toEqual(["raw_cosine", "bm25", "hybrid"]);
    expect(p.metricOptions.every((o) => o.available)).toBe(true);
  });
});

describe("prepareScoreDistribution: empty charts say why", () => {
  it("empty pool", () => {
    const v = view([]);
    expect(v.confidence?.level).toBe("none");
    for (const metric of ["raw_cosine", "bm25", "hybrid"] as const) {
      const p = prepareScoreDistribution(v, metric);
      expect(p.status).toBe("empty");
      expect(p.emptyReason).toBe("No candidates: the store found nothing for this query, so confidence is none.");
      expect(p.points).toEqual([]);
      expect(p.markers).toEqual([]);
      expect(p.bins).toEqual([]);
    }
  });

  it("a store that does not expose its pool, without a confidence block", () => {
    const p = prepareScoreDistribution({ candidates: null, confidence: null }, "raw_cosine");
    expect(p.status).toBe("empty");
    expect(p.poolExposed).toBe(false);
    expect(p.emptyReason).toMatch(/does not expose its candidate pool/);
    expect(p.emptyReason).toMatch(/no confidence block/);
    expect(p.availableMetrics).toEqual([]);
  });

  it("a metric with no values names the mode", () => {
    const sem = view(semantic(MEAN_HALF), "semantic");
    const bm25 = prepareScoreDistribution(sem, "bm25");
    expect(bm25.status).toBe("empty");
    expect(bm25.emptyReason).toMatch(/semantic mode/);
    const hybrid = prepareScoreDistribution(sem, "hybrid");
    expect(hybrid.status).toBe("empty");
    expect(hybrid.emptyReason).toMatch(/semantic mode/);
    expect(sem.confidence && prepareScoreDistribution(sem, "raw_cosine").availableMetrics).toEqual(["raw_cosine"]);
    const options = bm25.metricOptions;
    expect(options.find((o) => o.metric === "bm25")).toMatchObject({ available: false });
    expect(options.find((o) => o.metric === "bm25")?.reason).toMatch(/semantic mode/);

    const kw = view([{ kw: 5 }, { kw: 2 }, { kw: 1 }], "keyword");
    const h = prepareScoreDistribution(kw, "hybrid");
    expect(h.status).toBe("empty");
    expect(h.emptyReason).toMatch(/keyword mode/);
    expect(h.metricOptions.find((o) => o.metric === "raw_cosine")?.reason).toMatch(/keyword mode/);
  });

  it("without a known mode the reason still reads", () => {
    const v = view(semantic(MEAN_HALF));
    const p = prepareScoreDistribution({ candidates: v.candidates, confidence: v.confidence }, "bm25");
    expect(p.status).toBe("empty");
    expect(p.emptyReason).toMatch(/^No BM25 scores/);
  });
});

describe("prepareScoreDistribution: without a confidence block", () => {
  it("draws the points and the top, and says that no thresholds are drawn", () => {
    const v = view(semantic(MEAN_HALF));
    const p = prepareScoreDistribution({ candidates: v.candidates, confidence: null }, "raw_cosine");
    expect(p.status).toBe("ok");
    expect(kinds(p)).toEqual(["top"]);
    expect(p.note).toMatch(/no confidence block/);
  });
});
