/** Shared builders and checks of the score-distribution tests (moved unchanged from the test files). */
import { expect } from "vitest";
import { computeConfidence } from "@/lib/recall/confidence";
import { PRESENT, S1_PRESENT_BLOCK } from "@/lib/recall/confidence.golden-cases";
import type { SearchMode } from "@/lib/recall/merge";
import { DEFAULT_THRESHOLDS, type Thresholds, resolveThresholds } from "@/lib/recall/thresholds";
import { confidenceFromWire } from "@/lib/recall/wire";
import type { LoggedCandidate, LoggedConfidence, LoggedResult } from "@/lib/recall-log/types";
import type { DistributionMarker, PreparedScoreDistribution, ScoreDistributionInput } from "./index";

// ---------------------------------------------------------------------------------------------
// Building views: candidates by hand, confidence from the real computeConfidence.

export interface Cand {
  cos?: number | null;
  kw?: number | null;
  hy?: number | null;
  inPool?: boolean;
  returned?: boolean;
  dropped?: boolean;
  summary?: string | null;
}

export function candidates(list: readonly Cand[]): LoggedCandidate[] {
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
export function confidenceFor(
  cands: readonly LoggedCandidate[],
  mode: SearchMode,
  thresholds?: Partial<Thresholds>,
): LoggedConfidence {
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

export function view(
  list: readonly Cand[],
  mode: SearchMode = "semantic",
  thresholds?: Partial<Thresholds>,
): ScoreDistributionInput {
  const cands = candidates(list);
  return { candidates: cands, confidence: confidenceFor(cands, mode, thresholds), request: { search_mode: mode } };
}

export const semantic = (cosines: readonly number[]): Cand[] => cosines.map((cos) => ({ cos }));

export function marker(p: PreparedScoreDistribution, id: string): DistributionMarker {
  const m = p.markers.find((x) => x.id === id);
  if (m === undefined) throw new Error(`no marker ${id}; have ${p.markers.map((x) => x.id).join(", ")}`);
  return m;
}

export const kinds = (p: PreparedScoreDistribution): string[] => p.markers.map((m) => m.kind);

/** The marker kinds of a cosine view with a background: the mean, the top, three bands, two absolute guards, the near-duplicate line. */
export const COSINE_VIEW_KINDS: readonly string[] = [
  "absolute_guard",
  "absolute_guard",
  "background_mean",
  "near_duplicate",
  "prominence_band",
  "prominence_band",
  "prominence_band",
  "top",
];

/** What every drawn chart holds: a real domain with every point and in-domain marker inside it, marker ids unique. */
export function expectWithinDomain(p: PreparedScoreDistribution): void {
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

/** WCAG relative luminance contrast of a #rrggbb colour against white. */
export function contrastOnWhite(hex: string): number {
  const channel = (i: number): number => {
    const c = parseInt(hex.slice(i, i + 2), 16) / 255;
    return c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
  };
  const l = 0.2126 * channel(1) + 0.7152 * channel(3) + 0.0722 * channel(5);
  return 1.05 / (l + 0.05);
}

// A pool whose background (the pool without its top) has mean exactly 0.5.
export const MEAN_HALF = [0.9, 0.6, 0.5, 0.4];
// The golden PRESENT pool (S-1): high, prominence 0.559, background mean 0.589429.
export { PRESENT };

// ---------------------------------------------------------------------------------------------

// ---------------------------------------------------------------------------------------------
// A store that does not expose its candidate pool (lib/recall/README.md "Wire translation"): built the way a remote recall is
// logged, from the service's wire block through confidenceFromWire.

export type Wire = Parameters<typeof confidenceFromWire>[0];

/** Golden case S-1 as the reference service sends it (docs/memory-service-api.md "Example answers"). */
export const S1_WIRE: Wire = S1_PRESENT_BLOCK;

/** The degraded example of docs/memory-service-api.md "Example answers" (fallback confidence, no prominence). */
export const KEYWORD_WIRE: Wire = {
  level: "high",
  top_score: 12.7,
  relative_margin: 3.2,
  result_count: 5,
  rationale:
    "Keyword-only pool: top hit sits 3.20 background-std-devs above the candidate-pool background; clear separation from background.",
};

export function results(scores: readonly (number | null)[], dropped: readonly number[] = []): LoggedResult[] {
  return scores.map((score, i) => ({
    memory_id: `r${i + 1}`,
    summary: `result number ${i + 1}`,
    score,
    ...(dropped.includes(i) ? { dropped: true } : {}),
  }));
}

export function remote(
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

export const DERIVED_MEAN = 0.919 / (1 + 0.559);
export const NO_POOL = /does not expose its candidate pool/;
