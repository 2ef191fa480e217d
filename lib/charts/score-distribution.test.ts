import { describe, expect, it } from "vitest";
import { computeConfidence } from "@/lib/recall/confidence";
import type { SearchMode } from "@/lib/recall/merge";
import { DEFAULT_THRESHOLDS, resolveThresholds, type Thresholds } from "@/lib/recall/thresholds";
import { confidenceFromWire } from "@/lib/recall/wire";
import type { LoggedCandidate, LoggedConfidence, LoggedResult } from "@/lib/recall-log/types";
import {
  BAND_COLORS,
  HISTOGRAM_MIN_POOL,
  MARKER_COLORS,
  NO_POOL_NOTE,
  POINT_STYLES,
  defaultScoreMetric,
  histogramBins,
  niceDomain,
  niceStep,
  prepareScoreDistribution,
  type DistributionMarker,
  type PreparedScoreDistribution,
  type ScoreDistributionInput,
  type ScoreMetric,
} from "./score-distribution";

// ---------------------------------------------------------------------------------------------
// Building views: candidates by hand, confidence from the real computeConfidence.

interface Cand {
  cos?: number | null;
  kw?: number | null;
  hy?: number | null;
  inPool?: boolean;
  returned?: boolean;
  dropped?: boolean;
  summary?: string | null;
}

function candidates(list: readonly Cand[]): LoggedCandidate[] {
  return list.map((c, i) => ({
    memory_id: `m${i + 1}`,
    summary: c.summary === undefined ? `memory number ${i + 1}` : c.summary,
    rank: i + 1,
    raw_cosine: c.cos ?? null,
    keyword_score: c.kw ?? null,
    hybrid_score: c.hy ?? null,
    in_pool: c.inPool ?? true,
    returned: c.returned ?? c.inPool ?? true,
    dropped: c.dropped ?? false,
  }));
}

/** The confidence block as the recall route would log it, from the pool's scores. */
function confidenceFor(cands: readonly LoggedCandidate[], mode: SearchMode, thresholds?: Partial<Thresholds>): LoggedConfidence {
  const pool = cands.filter((c) => c.in_pool);
  const hybridScores: number[] = [];
  const semanticRaw: number[] = [];
  for (const c of pool) {
    // The candidate's `score` is the raw cosine in semantic mode and the raw BM25 in keyword mode.
    const score = mode === "semantic" ? c.raw_cosine : mode === "keyword" ? c.keyword_score : c.hybrid_score;
    const h = c.hybrid_score ?? score;
    if (h !== null) hybridScores.push(h);
    if (c.raw_cosine !== null) semanticRaw.push(c.raw_cosine);
  }
  const result = computeConfidence({ hybridScores, semanticRaw }, thresholds);
  return { ...result, threshold_values: thresholds === undefined ? { ...DEFAULT_THRESHOLDS } : resolveThresholds(thresholds) };
}

function view(list: readonly Cand[], mode: SearchMode = "semantic", thresholds?: Partial<Thresholds>): ScoreDistributionInput {
  const cands = candidates(list);
  return { candidates: cands, confidence: confidenceFor(cands, mode, thresholds), request: { search_mode: mode } };
}

const semantic = (cosines: readonly number[]): Cand[] => cosines.map((cos) => ({ cos }));

function marker(p: PreparedScoreDistribution, id: string): DistributionMarker {
  const m = p.markers.find((x) => x.id === id);
  if (m === undefined) throw new Error(`no marker ${id}; have ${p.markers.map((x) => x.id).join(", ")}`);
  return m;
}

const kinds = (p: PreparedScoreDistribution): string[] => p.markers.map((m) => m.kind);

/** WCAG relative luminance contrast of a #rrggbb colour against white. */
function contrastOnWhite(hex: string): number {
  const channel = (i: number): number => {
    const c = parseInt(hex.slice(i, i + 2), 16) / 255;
    return c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
  };
  const l = 0.2126 * channel(1) + 0.7152 * channel(3) + 0.0722 * channel(5);
  return 1.05 / (l + 0.05);
}

// A pool whose background (the pool without its top) has mean exactly 0.5.
const MEAN_HALF = [0.9, 0.6, 0.5, 0.4];
// The spec's golden PRESENT pool (S-1): high, prominence 0.559, background mean 0.589429.
const PRESENT = [0.919, 0.676, 0.67, 0.615, 0.608, 0.537, 0.52, 0.5];

// ---------------------------------------------------------------------------------------------

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
    expect(kinds(p).sort()).toEqual(
      [
        "absolute_guard",
        "absolute_guard",
        "background_mean",
        "near_duplicate",
        "prominence_band",
        "prominence_band",
        "prominence_band",
        "top",
      ].sort(),
    );
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
    expect(a).toMatchObject({ x: 0.9, rank: 1, inPool: true, returned: true, dropped: false, isTop: true, category: "pool", lane: "pool" });
    expect(b).toMatchObject({ dropped: true, category: "dropped", lane: "pool", fill: POINT_STYLES.dropped.fill, symbol: "cross" });
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
    expect(p.note).toMatch(/1 candidate has no raw cosine \(keyword-only hits\), 1 of them in the pool; it is left out, not drawn at 0/);
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
    const p = prepareScoreDistribution(view([{ cos: 0.8, summary: long }, { cos: 0.5, summary: null }, { cos: 0.4 }]), "raw_cosine");
    expect(p.points[0]!.summary.length).toBeLessThanOrEqual(90);
    expect(p.points[0]!.summary.endsWith("…")).toBe(true);
    expect(p.points[1]!.summary).toBe("(no summary)");
    expect(p.points[2]!.summary).toBe("memory number 3");
  });
});

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

// ---------------------------------------------------------------------------------------------
// A store that does not expose its candidate pool (DESIGN §2): built the way a remote recall is
// logged, from the service's wire block through confidenceFromWire.

type Wire = Parameters<typeof confidenceFromWire>[0];

/** Golden case S-1 as the reference service sends it (memory-service-api.md §3.4). */
const S1_WIRE: Wire = {
  level: "high",
  top_score: 0.919,
  prominence: 0.559,
  relative_margin: 4.989,
  result_count: 8,
  rationale:
    "Top semantic cosine 0.92, prominence 0.56 above the candidate-pool mean (0.59); top hit is a strong, clearly-separated match.",
};

/** The degraded example of memory-service-api.md §3.4 (fallback confidence, no prominence). */
const KEYWORD_WIRE: Wire = {
  level: "high",
  top_score: 12.7,
  relative_margin: 3.2,
  result_count: 5,
  rationale: "Keyword-only pool: top hit sits 3.20 background-std-devs above the candidate-pool background; clear separation from background.",
};

function results(scores: readonly (number | null)[], dropped: readonly number[] = []): LoggedResult[] {
  return scores.map((score, i) => ({
    memory_id: `r${i + 1}`,
    summary: `result number ${i + 1}`,
    score,
    ...(dropped.includes(i) ? { dropped: true } : {}),
  }));
}

function remote(
  wire: Wire | null,
  mode: SearchMode | undefined,
  scores: readonly (number | null)[],
  extra: { degraded?: string; rerank?: boolean; dropped?: number[] } = {},
): ScoreDistributionInput {
  const degraded = extra.degraded === undefined ? null : { reason: extra.degraded };
  return {
    candidates: null,
    confidence: wire === null ? null : confidenceFromWire(wire, { degraded: degraded !== null, searchMode: mode ?? null }),
    request: mode === undefined ? null : { search_mode: mode, use_rerank: extra.rerank ?? false },
    results: results(scores, extra.dropped),
    degraded,
  };
}

const DERIVED_MEAN = 0.919 / (1 + 0.559);
const NO_POOL = /does not expose its candidate pool/;

describe("prepareScoreDistribution without the pool: semantic mode", () => {
  const v = remote(S1_WIRE, "semantic", [0.919, 0.676, 0.67, 0.615, 0.608], { dropped: [3] });

  it("draws the markers in the confidence block's cosine space and the result cosines as points", () => {
    expect(v.confidence?.background_derived).toBe(true);
    expect(v.confidence?.basis).toBe("semantic");
    const p = prepareScoreDistribution(v, "raw_cosine");
    expect(p.status).toBe("ok");
    expect(p.poolExposed).toBe(false);
    expect(p.view).toBe("cosine");
    expect(p.plottedMetric).toBe("raw_cosine");
    expect(kinds(p).sort()).toEqual(
      [
        "absolute_guard",
        "absolute_guard",
        "background_mean",
        "near_duplicate",
        "prominence_band",
        "prominence_band",
        "prominence_band",
        "top",
      ].sort(),
    );
    expect(p.markers.every((m) => m.inDomain)).toBe(true);

    expect(p.points.map((pt) => [pt.memoryId, pt.x])).toEqual([
      ["r1", 0.919],
      ["r2", 0.676],
      ["r3", 0.67],
      ["r4", 0.615],
      ["r5", 0.608],
    ]);
    for (const pt of p.points) {
      expect(pt.lane).toBe("returned");
      expect(pt.returned).toBe(true);
      expect(pt.scores).toEqual({ raw_cosine: pt.x, bm25: null, hybrid: null });
      expect(pt.x).toBeGreaterThanOrEqual(p.domain[0]);
      expect(pt.x).toBeLessThanOrEqual(p.domain[1]);
      expect(pt.y).toBeGreaterThan(p.yDomain[0]);
      expect(pt.y).toBeLessThan(p.yDomain[1]);
    }
    expect(p.points[0]).toMatchObject({ summary: "result number 1", rank: 1, category: "returned", fill: POINT_STYLES.returned.fill });
    expect(p.points[3]).toMatchObject({ dropped: true, category: "dropped", symbol: "cross" });
    expect(p.lanes).toEqual([{ id: "returned", y: 1, label: "Returned page", count: 5 }]);
    expect(p.pointLegend.map((i) => [i.category, i.count])).toEqual([
      ["returned", 4],
      ["dropped", 1],
    ]);
    // No histogram of a pool that is not there.
    expect(p.bins).toEqual([]);
    expect(p.showHistogram).toBe(false);
    expect(p.availableMetrics).toEqual(["raw_cosine"]);
    expect(p.metricOptions.find((o) => o.metric === "bm25")?.reason).toMatch(/semantic mode/);
    expect(defaultScoreMetric(v)).toBe("raw_cosine");
  });

  it("labels the background mean as derived and the top with its prominence", () => {
    const p = prepareScoreDistribution(v, "raw_cosine");
    const mean = marker(p, "background_mean");
    expect(mean.x).toBe(DERIVED_MEAN);
    expect(mean.label).toBe("background mean ≈ 0.589, derived from top / (1 + prominence)");
    expect(mean.shortLabel).toMatch(/≈/);
    expect(marker(p, "top").x).toBe(0.919);
    expect(marker(p, "top").label).toBe("top 0.919 · prominence 0.559");
    expect(p.ariaLabel).toMatch(/does not expose its candidate pool/);
    expect(p.ariaLabel).toContain("Background mean ≈ 0.589 (derived)");
    expect(p.ariaLabel).toContain("Prominence 0.559");
    expect(p.ariaLabel).toContain("Level high");
  });

  it("says plainly what is missing, and that the points are the returned page", () => {
    const p = prepareScoreDistribution(v, "raw_cosine");
    expect(NO_POOL_NOTE).toBe(
      "This store does not expose its candidate pool: no raw cosines beyond the top, so the background is derived from " +
        "the top score and prominence (both rounded to 3 dp by the service) and its spread is unknown.",
    );
    expect(p.notes[0]).toBe(NO_POOL_NOTE);
    expect(p.note).toMatch(/The points are the 5 returned results: in semantic mode a result's score is its raw cosine/);
    expect(p.note).toMatch(/The rest of the pool is not shown/);
  });

  it("places the prominence bands at derived mean × (1 + band), the guards and the floor as usual", () => {
    const p = prepareScoreDistribution(v, "raw_cosine");
    expect(marker(p, "prominence_band-high").x).toBeCloseTo(DERIVED_MEAN * 1.4, 12);
    expect(marker(p, "prominence_band-moderate").x).toBeCloseTo(DERIVED_MEAN * 1.25, 12);
    expect(marker(p, "prominence_band-low").x).toBeCloseTo(DERIVED_MEAN * 1.12, 12);
    expect(marker(p, "prominence_band-high").x).toBeCloseTo(0.82527, 5);
    expect(marker(p, "prominence_band-high").label).toBe("high ≥ 0.825 (mean × 1.40)");
    expect(marker(p, "prominence_band-moderate").label).toBe("moderate ≥ 0.737 (mean × 1.25)");
    expect(marker(p, "prominence_band-low").label).toBe("low ≥ 0.660 (mean × 1.12)");
    expect(marker(p, "absolute_guard-high").x).toBe(0.5);
    expect(marker(p, "absolute_guard-moderate").x).toBe(0.3);
    expect(marker(p, "near_duplicate").x).toBe(0.85);
    // The derived mean is within rounding of the mean the pool had (golden S-1: 0.589429), and
    // the top sits above the high band exactly as prominence 0.559 ≥ 0.40 says.
    expect(Math.abs(DERIVED_MEAN - 0.589429)).toBeLessThan(0.001);
    expect(marker(p, "top").x).toBeGreaterThan(marker(p, "prominence_band-high").x);
    // The domain holds every marker and the guards, inside [-1, 1].
    expect(p.domain[0]).toBeLessThanOrEqual(0.3);
    expect(p.domain[1]).toBeGreaterThanOrEqual(0.919);
    expect(p.domain[1]).toBeLessThanOrEqual(1);
  });

  it("leaves out results without a score or with a score that cannot be a cosine, and says so", () => {
    const p = prepareScoreDistribution(remote(S1_WIRE, "semantic", [0.919, null, 1.7, 0.5]), "raw_cosine");
    expect(p.points.map((pt) => pt.memoryId)).toEqual(["r1", "r4"]);
    expect(p.points.some((pt) => pt.x === 0)).toBe(false);
    expect(p.note).toMatch(/1 returned result has no score; it is left out, not drawn at 0/);
    expect(p.note).toMatch(/1 returned result has a score outside \[-1, 1\], which cannot be a cosine/);
  });

  it("draws the markers alone when no result was returned", () => {
    const p = prepareScoreDistribution(remote(S1_WIRE, "semantic", []), "raw_cosine");
    expect(p.status).toBe("ok");
    expect(p.points).toEqual([]);
    expect(p.lanes).toEqual([]);
    expect(p.yDomain[0]).toBeLessThan(p.yDomain[1]);
    expect(kinds(p)).toContain("background_mean");
    expect(p.note).toMatch(/No results were returned, so only the markers are drawn/);
  });
});

describe("prepareScoreDistribution without the pool: hybrid mode", () => {
  const v = remote(S1_WIRE, "hybrid", [1, 0.62, 0.55, null]);

  it("cosine view: markers only, the results' hybrid scores are not put on the cosine axis", () => {
    const p = prepareScoreDistribution(v, "raw_cosine");
    expect(p.status).toBe("ok");
    expect(p.view).toBe("cosine");
    expect(p.points).toEqual([]);
    expect(p.pointLegend).toEqual([]);
    expect(marker(p, "background_mean").x).toBe(DERIVED_MEAN);
    expect(marker(p, "top").x).toBe(0.919);
    expect(marker(p, "prominence_band-high").x).toBeCloseTo(DERIVED_MEAN * 1.4, 12);
    expect(p.markers.every((m) => m.inDomain)).toBe(true);
    expect(p.notes[0]).toBe(NO_POOL_NOTE);
    expect(p.note).toMatch(/hybrid scores \(normalized semantic \+ keyword\), not cosines, so they are not drawn on this axis/);
    expect(p.note).toMatch(/switch to Hybrid/);
    expect(p.ariaLabel).toMatch(/markers only/);
    expect(defaultScoreMetric(v)).toBe("raw_cosine");
  });

  it("the Hybrid toggle shows the result scores on their own axis with no threshold markers", () => {
    expect(prepareScoreDistribution(v, "raw_cosine").availableMetrics).toEqual(["raw_cosine", "hybrid"]);
    const p = prepareScoreDistribution(v, "hybrid");
    expect(p.status).toBe("ok");
    expect(p.view).toBe("score");
    expect(p.plottedMetric).toBe("hybrid");
    expect(p.markers).toEqual([]);
    expect(p.labelRows).toBe(0);
    expect(p.points.map((pt) => pt.x)).toEqual([1, 0.62, 0.55]);
    expect(p.points[0]!.scores).toEqual({ raw_cosine: null, bm25: null, hybrid: 1 });
    expect(p.axisLabel).toMatch(/Hybrid score of the returned results/);
    expect(p.notes[0]).toBe(NO_POOL_NOTE);
    expect(p.note).toMatch(/confidence thresholds live in raw-cosine space, so none is drawn here/);
    expect(p.note).toMatch(/1 returned result has no score/);
    expect(p.note).not.toMatch(/rerank/);
    expect(p.domain[0]).toBeLessThan(0.55);
    expect(p.domain[1]).toBeGreaterThan(1);
  });

  it("BM25 is not available: the service sends no per-arm scores", () => {
    const p = prepareScoreDistribution(v, "bm25");
    expect(p.status).toBe("empty");
    expect(p.emptyReason).toMatch(NO_POOL);
    expect(p.emptyReason).toMatch(/no per-arm BM25 scores/);
    expect(p.metricOptions.find((o) => o.metric === "bm25")).toMatchObject({ available: false });
  });

  it("a requested rerank is mentioned: the scores may be relevance scores", () => {
    const p = prepareScoreDistribution(remote(S1_WIRE, "hybrid", [0.8, 0.3], { rerank: true }), "hybrid");
    expect(p.note).toMatch(/rerank was requested/);
  });

  it("without any result score the Hybrid toggle is disabled", () => {
    const p = prepareScoreDistribution(remote(S1_WIRE, "hybrid", [null, null]), "raw_cosine");
    expect(p.availableMetrics).toEqual(["raw_cosine"]);
    expect(p.metricOptions.find((o) => o.metric === "hybrid")?.reason).toMatch(/No returned result carries a score/);
    expect(p.note).toMatch(/No returned result carries a score, so only the markers are drawn/);
  });
});

describe("prepareScoreDistribution without the pool: keyword-only and degraded", () => {
  it("keyword mode: the top and the BM25 result scores on the BM25 axis; the z-score rules are said not drawable", () => {
    const v = remote(KEYWORD_WIRE, "keyword", [12.7, 5.1, 3.3]);
    expect(v.confidence?.basis).toBe("zscore");
    expect(v.confidence?.background_mean).toBeNull();
    expect(defaultScoreMetric(v)).toBe("bm25");
    for (const metric of ["bm25", "raw_cosine"] as const) {
      const p = prepareScoreDistribution(v, metric);
      expect(p.status).toBe("ok");
      expect(p.view).toBe("score");
      expect(p.plottedMetric).toBe("bm25");
      expect(kinds(p)).toEqual(["top"]);
      expect(marker(p, "top").x).toBe(12.7);
      expect(marker(p, "top").label).toBe("top 12.700 · z 3.200");
      expect(p.points.map((pt) => pt.x)).toEqual([12.7, 5.1, 3.3]);
      expect(p.points.every((pt) => pt.lane === "returned")).toBe(true);
      expect(p.notes[0]).toMatch(/^This store does not expose its candidate pool: the level came from the z-score/);
      expect(p.note).toMatch(/z-score bands cannot be drawn without the pool/);
      expect(p.note).toMatch(/in the same space as the top/);
      expect(p.axisLabel).toMatch(/BM25/);
    }
    const p = prepareScoreDistribution(v, "bm25");
    expect(p.availableMetrics).toEqual(["bm25"]);
    expect(p.metricOptions.find((o) => o.metric === "raw_cosine")?.reason).toMatch(/keyword mode/);
    const h = prepareScoreDistribution(v, "hybrid");
    expect(h.status).toBe("empty");
    expect(h.emptyReason).toMatch(/keyword mode/);
  });

  it("degraded hybrid: raw BM25 scores, flagged degraded; no cosines and no hybrid scores", () => {
    const v = remote(KEYWORD_WIRE, "hybrid", [12.7, 4, 2.5], { degraded: "embedding_unavailable" });
    expect(v.confidence?.basis).toBe("zscore");
    expect(defaultScoreMetric(v)).toBe("bm25");
    const p = prepareScoreDistribution(v, "bm25");
    expect(p.status).toBe("ok");
    expect(p.plottedMetric).toBe("bm25");
    expect(p.points.map((pt) => pt.x)).toEqual([12.7, 4, 2.5]);
    expect(kinds(p)).toEqual(["top"]);
    expect(p.note).toMatch(NO_POOL);
    expect(p.note).toMatch(/ran degraded \(embedding_unavailable\)/);
    expect(p.availableMetrics).toEqual(["bm25"]);
    expect(p.metricOptions.find((o) => o.metric === "raw_cosine")?.reason).toMatch(/degraded/);
    expect(p.metricOptions.find((o) => o.metric === "hybrid")?.reason).toMatch(/degraded/);
  });

  it("a hybrid pool without cosines (not degraded): the top and results on the hybrid axis", () => {
    const wire: Wire = { level: "moderate", top_score: 1, relative_margin: 1.4, result_count: 4 };
    // The rationale prefix tells the fallback path ran (recall-confidence.md "The response block").
    const withRationale = remote({ ...wire, rationale: "Keyword-only pool: top hit sits 1.40 background-std-devs above …" }, "hybrid", [1, 0.4, 0.35]);
    expect(withRationale.confidence?.basis).toBe("zscore");
    expect(defaultScoreMetric(withRationale)).toBe("hybrid");
    const p = prepareScoreDistribution(withRationale, "hybrid");
    expect(p.plottedMetric).toBe("hybrid");
    expect(marker(p, "top").x).toBe(1);
    expect(p.points.map((pt) => pt.x)).toEqual([1, 0.4, 0.35]);
    expect(p.availableMetrics).toEqual(["hybrid"]);
  });

  it("a single keyword-only candidate: the top (the only candidate), always moderate", () => {
    const wire: Wire = { level: "moderate", top_score: 7.25, result_count: 1, rationale: "Single candidate — no background distribution to assess separation." };
    const v = remote(wire, "keyword", [7.25]);
    expect(v.confidence?.basis).toBe("single");
    const p = prepareScoreDistribution(v, "bm25");
    expect(p.status).toBe("ok");
    expect(marker(p, "top").label).toBe("top 7.250 (the only candidate)");
    expect(p.points).toHaveLength(1);
    expect(p.note).toMatch(NO_POOL);
    expect(p.note).toMatch(/always moderate/);
    expect(p.domain[0]).toBeLessThan(7.25);
    expect(p.domain[1]).toBeGreaterThan(7.25);
  });

  it("keyword-only with no result scores: the top alone", () => {
    const p = prepareScoreDistribution(remote(KEYWORD_WIRE, "keyword", [null]), "bm25");
    expect(p.status).toBe("ok");
    expect(p.points).toEqual([]);
    expect(kinds(p)).toEqual(["top"]);
    expect(p.note).toMatch(/only the top is drawn/);
  });
});

describe("prepareScoreDistribution without the pool: other semantic blocks", () => {
  it("a single semantic candidate: the top and the single-candidate cutoff", () => {
    const wire: Wire = {
      level: "moderate",
      top_score: 0.91,
      result_count: 1,
      rationale: "Single semantic candidate (cosine 0.91); single strong absolute match, no background to corroborate.",
    };
    const v = remote(wire, "semantic", [0.91]);
    expect(v.confidence?.basis).toBe("single_semantic");
    const p = prepareScoreDistribution(v, "raw_cosine");
    expect(kinds(p).sort()).toEqual(["near_duplicate", "top"]);
    expect(p.points.map((pt) => pt.x)).toEqual([0.91]);
    expect(p.note).toMatch(/^This store does not expose its candidate pool: it reported a single semantic candidate/);
    expect(p.note).toMatch(/One candidate: no background to compare against/);
  });

  it("a semantic block without prominence: no derived mean, the absolute bands, and why", () => {
    const wire: Wire = {
      level: "low",
      top_score: 0.35,
      relative_margin: 2.1,
      result_count: 4,
      rationale: "Top semantic cosine 0.35, prominence n/a above the candidate-pool mean (-0.02); top hit is weak — relevance uncertain, consider going external.",
    };
    const v = remote(wire, "semantic", [0.35, 0.1]);
    expect(v.confidence?.basis).toBe("semantic");
    expect(v.confidence?.background_mean).toBeNull();
    const p = prepareScoreDistribution(v, "raw_cosine");
    expect(kinds(p)).not.toContain("background_mean");
    expect(kinds(p)).not.toContain("prominence_band");
    expect(marker(p, "near_duplicate").label).toBe("high ≥ 0.850 (absolute band)");
    expect(marker(p, "absolute_guard-low").x).toBe(0.3);
    expect(marker(p, "top").label).toBe("top 0.350 · prominence n/a");
    expect(p.notes[0]).toMatch(/without a prominence the background cannot be derived/);
    expect(p.note).toMatch(/sent no prominence/);
    expect(p.note).not.toMatch(/\(n\/a\) is not above/);
  });

  it("an ingested recall with a logged (not derived) background mean labels it as logged", () => {
    const conf = { ...confidenceFromWire(S1_WIRE), background_derived: false, background_mean: 0.589429 };
    const p = prepareScoreDistribution({ candidates: null, confidence: conf, request: { search_mode: "semantic" }, results: [] }, "raw_cosine");
    expect(marker(p, "background_mean").label).toBe("background mean 0.589 (as logged with the recall)");
    expect(p.notes[0]).toMatch(/the background mean is the one logged with this recall/);
  });

  it("an unknown search mode: the results cannot be placed, markers only", () => {
    const v: ScoreDistributionInput = { candidates: null, confidence: confidenceFromWire(S1_WIRE), results: results([0.9, 0.5]) };
    const p = prepareScoreDistribution(v, "raw_cosine");
    expect(p.status).toBe("ok");
    expect(p.points).toEqual([]);
    expect(p.note).toMatch(/search mode is not known/);
    expect(p.availableMetrics).toEqual(["raw_cosine"]);
  });
});

describe("prepareScoreDistribution without the pool: nothing to draw", () => {
  it("no confidence block", () => {
    const p = prepareScoreDistribution(remote(null, "hybrid", [0.9, 0.5]), "raw_cosine");
    expect(p.status).toBe("empty");
    expect(p.emptyReason).toMatch(NO_POOL);
    expect(p.emptyReason).toMatch(/no confidence block/);
    expect(p.points).toEqual([]);
    expect(p.markers).toEqual([]);
    expect(p.availableMetrics).toEqual([]);
  });

  it("an empty pool", () => {
    const wire: Wire = { level: "none", result_count: 0, rationale: "No candidates retrieved — likely nothing relevant in this context." };
    for (const metric of ["raw_cosine", "bm25", "hybrid"] as const) {
      const p = prepareScoreDistribution(remote(wire, "hybrid", []), metric);
      expect(p.status).toBe("empty");
      expect(p.emptyReason).toMatch(NO_POOL);
      expect(p.emptyReason).toMatch(/found no candidates for this query/);
    }
  });

  it("a block without a top score", () => {
    const wire: Wire = { level: "low", result_count: 3, rationale: "something else" };
    const p = prepareScoreDistribution(remote(wire, "semantic", [0.5]), "raw_cosine");
    expect(p.status).toBe("empty");
    expect(p.emptyReason).toMatch(NO_POOL);
    expect(p.emptyReason).toMatch(/no top score/);
  });

  it("every case and metric says that the pool is not exposed (in the note, or the empty reason)", () => {
    const cases: ScoreDistributionInput[] = [
      remote(S1_WIRE, "semantic", [0.9, 0.6]),
      remote(S1_WIRE, "hybrid", [1, 0.5]),
      remote(S1_WIRE, "hybrid", [1, 0.5], { rerank: true }),
      remote(KEYWORD_WIRE, "keyword", [12.7, 3]),
      remote(KEYWORD_WIRE, "hybrid", [12.7, 3], { degraded: "vector_search_unavailable" }),
      remote({ level: "moderate", top_score: 0.9, result_count: 1, rationale: "Single semantic candidate (cosine 0.90); …" }, "semantic", [0.9]),
      remote({ level: "none", result_count: 0 }, "hybrid", []),
      remote(null, "semantic", []),
      { candidates: null, confidence: null },
    ];
    for (const v of cases) {
      for (const metric of ["raw_cosine", "bm25", "hybrid"] as const) {
        const p = prepareScoreDistribution(v, metric);
        expect(p.poolExposed).toBe(false);
        const text = p.status === "ok" ? p.note : p.emptyReason;
        expect(text, `${metric} ${p.status}`).toMatch(NO_POOL);
        expect(p.ariaLabel.length).toBeGreaterThan(10);
        if (p.status === "ok") {
          expect(p.domain[0]).toBeLessThan(p.domain[1]);
          for (const pt of p.points) {
            expect(pt.x).toBeGreaterThanOrEqual(p.domain[0]);
            expect(pt.x).toBeLessThanOrEqual(p.domain[1]);
          }
          for (const m of p.markers.filter((x) => x.inDomain)) {
            expect(m.x).toBeGreaterThanOrEqual(p.domain[0]);
            expect(m.x).toBeLessThanOrEqual(p.domain[1]);
          }
          expect(new Set(p.markers.map((m) => m.id)).size).toBe(p.markers.length);
        }
      }
      // The metric a chart opens on is always drawable or explained.
      const opened = prepareScoreDistribution(v, defaultScoreMetric(v));
      if (opened.status === "empty") expect(opened.emptyReason).toMatch(NO_POOL);
    }
  });

  it("a recall with its pool reports poolExposed", () => {
    expect(prepareScoreDistribution(view(semantic(MEAN_HALF)), "raw_cosine").poolExposed).toBe(true);
    expect(prepareScoreDistribution(view([]), "raw_cosine").poolExposed).toBe(true);
  });
});

describe("defaultScoreMetric", () => {
  it("prefers raw cosine, then the keyword-only pool's score", () => {
    expect(defaultScoreMetric(view(semantic(MEAN_HALF)))).toBe("raw_cosine");
    expect(defaultScoreMetric(view([{ kw: 3 }, { kw: 1 }], "keyword"))).toBe("bm25");
    expect(defaultScoreMetric({ candidates: null, confidence: null })).toBe("raw_cosine");
    expect(defaultScoreMetric({ candidates: candidates([{ hy: 0.5 }]), confidence: null })).toBe("hybrid");
  });
});

describe("colours", () => {
  it("points and markers have at least 4.5:1 contrast on white, and differ by kind", () => {
    const colours = [
      POINT_STYLES.pool.fill,
      POINT_STYLES.pool.stroke,
      POINT_STYLES.outside.stroke,
      POINT_STYLES.returned.fill,
      POINT_STYLES.returned.stroke,
      POINT_STYLES.dropped.fill,
      ...Object.values(BAND_COLORS),
      ...Object.values(MARKER_COLORS),
    ];
    for (const c of colours) expect(contrastOnWhite(c), c).toBeGreaterThanOrEqual(4.5);
    const markerColours = [...Object.values(BAND_COLORS), ...Object.values(MARKER_COLORS)];
    expect(new Set(markerColours).size).toBe(markerColours.length);
  });

  it("every prepared marker and point carries its colour", () => {
    const p = prepareScoreDistribution(view(semantic(PRESENT)), "raw_cosine");
    for (const m of p.markers) {
      const expected = m.kind === "prominence_band" || m.kind === "z_band" ? BAND_COLORS[m.band!] : MARKER_COLORS[m.kind];
      expect(m.color).toBe(expected);
    }
    expect(marker(p, "top").dash).toBe("");
    expect(marker(p, "background_mean").dash).not.toBe("");
    for (const pt of p.points) expect(pt.fill).toBe(POINT_STYLES[pt.category].fill);
  });
});

describe("axis helpers", () => {
  it("niceStep picks 1, 2 or 5 × 10^n", () => {
    expect(niceStep(0.07)).toBeCloseTo(0.1, 12);
    expect(niceStep(0.15)).toBeCloseTo(0.2, 12);
    expect(niceStep(0.3)).toBeCloseTo(0.5, 12);
    expect(niceStep(3)).toBe(5);
    expect(niceStep(0)).toBe(1);
  });

  it("niceDomain pads, rounds outward and clamps cosines", () => {
    const { domain, ticks } = niceDomain(0.4, 0.9, true);
    expect(domain[0]).toBeLessThan(0.4);
    expect(domain[1]).toBeGreaterThan(0.9);
    expect(domain[1]).toBeLessThanOrEqual(1);
    expect(ticks[0]).toBe(domain[0]);
    expect(ticks[ticks.length - 1]).toBe(domain[1]);
    const clamped = niceDomain(-1, 1, true);
    expect(clamped.domain).toEqual([-1, 1]);
    const single = niceDomain(5, 5, false);
    expect(single.domain[0]).toBeLessThan(5);
    expect(single.domain[1]).toBeGreaterThan(5);
    // No floating-point dust in ticks.
    for (const t of niceDomain(0.1, 0.7, true).ticks) expect(String(t).length).toBeLessThanOrEqual(5);
  });
});

describe("every metric of every fixture prepares without throwing", () => {
  const fixtures: ScoreDistributionInput[] = [
    view(semantic(PRESENT)),
    view(semantic([0.7, 0.7, 0.7])),
    view(semantic([0.05, -0.2, -0.3, -0.25])),
    view([{ kw: 1 }, { kw: 1 }], "keyword"),
    view([{ cos: 0.3, kw: 2, hy: 0.7 }, { cos: null, kw: 4, hy: 0.4 }], "hybrid"),
    { candidates: candidates([{ cos: 0.5, inPool: false, returned: false }]), confidence: null },
  ];
  it.each(fixtures.map((f, i) => [i, f] as const))("fixture %i", (_i, f) => {
    for (const metric of ["raw_cosine", "bm25", "hybrid"] as ScoreMetric[]) {
      const p = prepareScoreDistribution(f, metric);
      expect(p.ariaLabel.length).toBeGreaterThan(10);
      if (p.status === "ok") {
        expect(p.points.length).toBeGreaterThan(0);
        expect(p.domain[0]).toBeLessThan(p.domain[1]);
        for (const pt of p.points) {
          expect(pt.x).toBeGreaterThanOrEqual(p.domain[0]);
          expect(pt.x).toBeLessThanOrEqual(p.domain[1]);
        }
        for (const m of p.markers.filter((x) => x.inDomain)) {
          expect(m.x).toBeGreaterThanOrEqual(p.domain[0]);
          expect(m.x).toBeLessThanOrEqual(p.domain[1]);
        }
        expect(new Set(p.markers.map((m) => m.id)).size).toBe(p.markers.length);
      } else {
        expect(p.emptyReason?.length).toBeGreaterThan(10);
      }
    }
  });
});
