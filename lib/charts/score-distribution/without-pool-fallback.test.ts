/**
 * The prepare step for a store that does not expose its pool, when there is no cosine basis to
 * draw against: keyword-only and degraded recalls, and recalls with nothing to draw (the cosine
 * cases are in without-pool.test.ts).
 */
import { describe, expect, it } from "vitest";
import { type ScoreDistributionInput, defaultScoreMetric, prepareScoreDistribution } from "./index";
import {
  KEYWORD_WIRE,
  MEAN_HALF,
  NO_POOL,
  S1_WIRE,
  type Wire,
  expectWithinDomain,
  kinds,
  marker,
  remote,
  semantic,
  view,
} from "./test-fixtures";

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
    // The rationale prefix tells the fallback path ran (docs/reference-rules.md "The confidence block").
    const withRationale = remote(
      { ...wire, rationale: "Keyword-only pool: top hit sits 1.40 background-std-devs above …" },
      "hybrid",
      [1, 0.4, 0.35],
    );
    expect(withRationale.confidence?.basis).toBe("zscore");
    expect(defaultScoreMetric(withRationale)).toBe("hybrid");
    const p = prepareScoreDistribution(withRationale, "hybrid");
    expect(p.plottedMetric).toBe("hybrid");
    expect(marker(p, "top").x).toBe(1);
    expect(p.points.map((pt) => pt.x)).toEqual([1, 0.4, 0.35]);
    expect(p.availableMetrics).toEqual(["hybrid"]);
  });

  it("a single keyword-only candidate: the top (the only candidate), always moderate", () => {
    const wire: Wire = {
      level: "moderate",
      top_score: 7.25,
      result_count: 1,
      rationale: "Single candidate — no background distribution to assess separation.",
    };
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
    const wire: Wire = {
      level: "none",
      result_count: 0,
      rationale: "No candidates retrieved — likely nothing relevant in this context.",
    };
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
      remote(
        { level: "moderate", top_score: 0.9, result_count: 1, rationale: "Single semantic candidate (cosine 0.90); …" },
        "semantic",
        [0.9],
      ),
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
          expectWithinDomain(p);
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
