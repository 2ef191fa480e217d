/**
 * The prepare step for a store that does not expose its pool, when the confidence block has a
 * cosine basis (semantic and hybrid modes, single semantic candidate); keyword-only, degraded and
 * empty recalls are in without-pool-fallback.test.ts.
 */
import { describe, expect, it } from "vitest";
import { confidenceFromWire } from "@/lib/recall/wire";
import { NO_POOL_NOTE, POINT_STYLES, type ScoreDistributionInput, defaultScoreMetric, prepareScoreDistribution } from "./index";
import { COSINE_VIEW_KINDS, DERIVED_MEAN, NO_POOL, S1_WIRE, type Wire, kinds, marker, remote, results } from "./test-fixtures";

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
    expect(kinds(p).sort()).toEqual([...COSINE_VIEW_KINDS].sort());
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
    expect(p.points[0]).toMatchObject({
      summary: "result number 1",
      rank: 1,
      category: "returned",
      fill: POINT_STYLES.returned.fill,
    });
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
      rationale:
        "Top semantic cosine 0.35, prominence n/a above the candidate-pool mean (-0.02); top hit is weak — relevance uncertain, consider going external.",
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
    const p = prepareScoreDistribution(
      { candidates: null, confidence: conf, request: { search_mode: "semantic" }, results: [] },
      "raw_cosine",
    );
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
