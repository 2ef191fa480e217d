import { describe, expect, it } from "vitest";
import { computeConfidence } from "@/lib/recall/confidence";
import { buildCandidatePool, confidenceInputFromPool, type SearchMode } from "@/lib/recall/merge";
import { mulberry32 } from "@/lib/recall/test-support/prng";
import { DEFAULT_THRESHOLDS } from "@/lib/recall/thresholds";
import { ruleThresholds } from "./fit";
import {
  confidenceInputFromCandidates,
  kSensitivity,
  levelFromStated,
  profileConfidence,
  profileConfidenceBlock,
  verdictDependsOnK,
  type StoredCandidate,
} from "./level";
import { DEFAULT_PROFILE } from "./profile";
import { poolSignals } from "./signals";

/** A merged list as the embedded store stores it (raw cosine, hybrid score, raw BM25 per candidate). */
function storedList(mode: SearchMode, seed: number) {
  const rng = mulberry32(seed);
  const ids = Array.from({ length: 40 }, (_, i) => `m${i}`);
  const semantic = rng
    .shuffle(ids)
    .slice(0, rng.int(0, 30))
    .map((id) => ({ id, score: rng.uniform(-0.1, 0.9) }))
    .sort((a, b) => b.score - a.score);
  const keyword = rng
    .shuffle(ids)
    .slice(0, rng.int(0, 30))
    .map((id) => ({ id, score: rng.uniform(0, 12) }))
    .sort((a, b) => b.score - a.score);
  const merged = buildCandidatePool(mode, {
    semantic: mode === "keyword" ? null : semantic,
    keyword: mode === "semantic" ? [] : keyword,
  });
  const kw = new Map(keyword.map((h) => [h.id, h.score]));
  const stored: StoredCandidate[] = merged.map((c) => ({
    raw_cosine: c.semantic_score_raw,
    hybrid_score: c.hybrid_score,
    keyword_score: kw.get(c.id) ?? null,
  }));
  return { merged, stored };
}

describe("confidenceInputFromCandidates", () => {
  it("gives back the block the store computed over its pool (parity), in every mode", () => {
    for (const mode of ["hybrid", "semantic", "keyword"] as SearchMode[]) {
      for (let seed = 1; seed <= 60; seed++) {
        const { merged, stored } = storedList(mode, seed);
        for (const k of [1, 5, 10, 20]) {
          const expected = computeConfidence(confidenceInputFromPool(merged.slice(0, k)));
          expect(computeConfidence(confidenceInputFromCandidates(stored, k))).toEqual(expected);
          // pool_size = k reproduces the reference level
          expect(profileConfidence(stored, k, { thresholds: DEFAULT_THRESHOLDS, pool_size: k })).toEqual(expected);
          expect(profileConfidence(stored, k, DEFAULT_PROFILE)).toEqual(expected);
        }
      }
    }
  });

  it("judges the first pool_size candidates whatever k", () => {
    const { stored } = storedList("hybrid", 7);
    const profile = { thresholds: ruleThresholds(0.4, 0), pool_size: 10 };
    const at5 = profileConfidence(stored, 5, profile);
    expect(profileConfidence(stored, 20, profile)).toEqual(at5);
    expect(at5).toEqual(computeConfidence(confidenceInputFromCandidates(stored, 10), profile.thresholds));
  });
});

describe("kSensitivity", () => {
  it("reports the reference level over the first k candidates, and the profile's beside it", () => {
    const { stored } = storedList("hybrid", 3);
    const points = kSensitivity(stored, { name: "p", thresholds: ruleThresholds(0.3, 0, "p"), pool_size: 10 });
    expect(points.map((p) => p.k)).toEqual([5, 10, 20]);
    for (const p of points) {
      expect(p.level).toBe(computeConfidence(confidenceInputFromCandidates(stored, p.k)).level);
      expect(p.pool).toBe(Math.min(p.k, stored.length));
      expect(p.profile_level).toBe(
        profileConfidence(stored, p.k, { thresholds: ruleThresholds(0.3, 0, "p"), pool_size: 10 }).level,
      );
    }
    expect(kSensitivity(stored, DEFAULT_PROFILE)[0]).not.toHaveProperty("profile_level");
  });

  it("flags a verdict that depends on k", () => {
    expect(verdictDependsOnK([{ level: "low" }, { level: "moderate" }])).toBe(true);
    expect(verdictDependsOnK([{ level: "high" }, { level: "moderate" }])).toBe(false);
    expect(verdictDependsOnK([{ level: "none" }, { level: "low" }])).toBe(false);
  });
});

describe("levelFromStated", () => {
  it("agrees with the rules when given the unrounded signals", () => {
    const rng = mulberry32(9);
    for (let i = 0; i < 2000; i++) {
      const n = rng.int(0, 10);
      const semantic = rng.next() < 0.8;
      const pool = {
        hybridScores: Array.from({ length: n }, () => rng.uniform(0, 1)),
        semanticRaw: semantic ? Array.from({ length: n }, () => rng.uniform(-0.2, 0.95)) : [],
      };
      const t = rng.next() < 0.5 ? DEFAULT_THRESHOLDS : ruleThresholds(rng.uniform(0.2, 0.7), rng.pick([0, 0.1, 0.3]));
      const s = poolSignals(pool);
      const stated = { basis: s.basis, top_score: s.top, prominence: s.prominence, relative_margin: s.z };
      expect(levelFromStated(stated, t), JSON.stringify({ pool, t })).toBe(computeConfidence(pool, t).level);
    }
  });

  it("infers a missing basis", () => {
    expect(levelFromStated({ basis: null, top_score: null, prominence: null, relative_margin: null }, DEFAULT_THRESHOLDS)).toBe(
      "none",
    );
    expect(levelFromStated({ basis: null, top_score: 0.6, prominence: 0.5, relative_margin: null }, DEFAULT_THRESHOLDS)).toBe(
      "high",
    );
  });
});

describe("profileConfidenceBlock", () => {
  it("uses the pool when there is one, else the stated values", () => {
    const { stored } = storedList("semantic", 5);
    const profile = { name: "p", thresholds: ruleThresholds(0.3, 0, "p"), pool_size: 10 };
    const fromPool = profileConfidenceBlock(profile, { candidates: stored, k: 5, stated: null })!;
    expect(fromPool.judged).toBe(Math.min(10, stored.length));
    expect(fromPool.level).toBe(profileConfidence(stored, 5, profile).level);
    expect(fromPool.trace.length).toBeGreaterThan(0);
    const stated = profileConfidenceBlock(profile, {
      candidates: null,
      k: 5,
      stated: { basis: "semantic", top_score: 0.35, prominence: 0.05, relative_margin: null },
    })!;
    expect(stated).toMatchObject({ level: "moderate", judged: null, trace: [] });
    expect(profileConfidenceBlock(profile, { candidates: null, k: 5, stated: null })).toBeNull();
  });
});
