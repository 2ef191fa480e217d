/**
 * The reference service's hybrid retrieval arithmetic (spec "Hybrid merge", "Candidate pool"),
 * reproduced for the embedded store: fetch sizes, per-arm max-normalization, the weighted merge
 * carrying raw scores, stable ordering, and the confidence inputs derived from the pool.
 * Pure: the store runs the arms, this module combines their hits.
 */
import type { ConfidenceInput } from "./confidence";
import { RecallInputError, type RecallIssue } from "./errors";

export type SearchMode = "hybrid" | "semantic" | "keyword";

/** One hit from one retrieval arm, in the arm's own order. */
export interface ArmHit {
  id: string;
  /** Semantic arm: raw cosine (may be ≤ 0). Keyword arm: raw BM25 dot product. */
  score: number;
}

export interface HybridWeights {
  semantic: number;
  keyword: number;
}

export const DEFAULT_HYBRID_WEIGHTS: Readonly<HybridWeights> = Object.freeze({ semantic: 0.6, keyword: 0.4 });

/** The reference's fetch factor: each arm fetches `min(candidates_k × 4, 200)` hits (× 2 with a rerank). */
export const DEFAULT_FETCH_FACTOR = 4;

/** The reference caps each arm's fetch at this many hits. */
export const MAX_FETCH_SIZE = 200;

/** A hybrid-merged candidate. */
export interface MergedCandidate {
  id: string;
  /** `semantic_score × w_sem + keyword_score × w_kw`. */
  hybrid_score: number;
  /** Max-normalized semantic score; 0 for keyword-only hits. */
  semantic_score: number;
  /** Max-normalized keyword score; 0 for semantic-only hits. */
  keyword_score: number;
  /** The raw cosine before normalization; null for keyword-only hits. */
  semantic_score_raw: number | null;
  /** The raw BM25 score before normalization; null for semantic-only hits (a dashboard extra). */
  keyword_score_raw: number | null;
}

/** A pool candidate in any mode, as the reference hands it to confidence and to `results`. */
export interface PoolCandidate {
  id: string;
  /** What `results[].score` shows: `hybrid_score` when there is one, else the raw arm score. */
  score: number;
  /** Hybrid mode only (null in semantic/keyword mode and degraded hybrid). */
  hybrid_score: number | null;
  semantic_score: number | null;
  keyword_score: number | null;
  /** Raw cosine: hybrid (semantic-arm hits) and semantic mode; null otherwise. */
  semantic_score_raw: number | null;
  keyword_score_raw: number | null;
}

function positiveInteger(value: unknown, name: string, issues: RecallIssue[]): value is number {
  if (typeof value !== "number" || !Number.isInteger(value) || value < 1) {
    issues.push({ path: [name], message: "must be a positive integer" });
    return false;
  }
  return true;
}

function fail(message: string, issues: RecallIssue[]): never {
  throw new RecallInputError("invalid_argument", message, issues);
}

/**
 * Hits fetched per arm: `min(k × fetch_factor, 200)`, with the fetch factor doubled when both the
 * request and the context config ask for rerank. `k` is `candidates_k`.
 */
export function fetchSize(k: number, fetchFactor: number, options: { rerank?: boolean } = {}): number {
  const issues: RecallIssue[] = [];
  positiveInteger(k, "k", issues);
  positiveInteger(fetchFactor, "fetch_factor", issues);
  if (issues.length > 0) fail("Invalid fetch size arguments", issues);
  const factor = options.rerank === true ? fetchFactor * 2 : fetchFactor;
  return Math.min(k * factor, MAX_FETCH_SIZE);
}

export interface CandidatesKOptions {
  /** `request.k` (1–100). */
  k: number;
  /** Env `ENABLE_NEURAL_MEMORY=true` (default false): the pool becomes `k × 4`. */
  neuralMemory?: boolean;
  /** Selection evidence requested: at least this many candidates. */
  candidatePoolK?: number | null;
  /** An `analysis_cluster` filter is set: at least `cluster_size + 50`. */
  clusterSize?: number | null;
}

/** Size of the candidate pool (spec "Candidate pool" step 1). */
export function candidatesK(options: CandidatesKOptions): number {
  const issues: RecallIssue[] = [];
  positiveInteger(options.k, "k", issues);
  const { candidatePoolK, clusterSize } = options;
  if (candidatePoolK !== undefined && candidatePoolK !== null) positiveInteger(candidatePoolK, "candidate_pool_k", issues);
  if (clusterSize !== undefined && clusterSize !== null && (!Number.isInteger(clusterSize) || clusterSize < 0)) {
    issues.push({ path: ["cluster_size"], message: "must be a non-negative integer" });
  }
  if (issues.length > 0) fail("Invalid candidates_k arguments", issues);
  let size = options.neuralMemory === true ? options.k * 4 : options.k;
  if (candidatePoolK !== undefined && candidatePoolK !== null) size = Math.max(size, candidatePoolK);
  if (clusterSize !== undefined && clusterSize !== null) size = Math.max(size, clusterSize + 50);
  return size;
}

/** Which arms a mode runs: keyword never embeds nor runs dense search; semantic never runs BM25. */
export function armsForMode(mode?: SearchMode | null): { semantic: boolean; keyword: boolean } {
  switch (mode ?? "hybrid") {
    case "semantic":
      return { semantic: true, keyword: false };
    case "keyword":
      return { semantic: false, keyword: true };
    default:
      return { semantic: true, keyword: true };
  }
}

function checkArm(hits: unknown, name: "semantic" | "keyword", issues: RecallIssue[]): ArmHit[] {
  if (!Array.isArray(hits)) {
    issues.push({ path: [name], message: "must be an array of { id, score }" });
    return [];
  }
  const list: unknown[] = hits;
  const seen = new Set<string>();
  const out: ArmHit[] = [];
  list.forEach((hit, i) => {
    const h = (typeof hit === "object" && hit !== null ? hit : {}) as { id?: unknown; score?: unknown };
    if (typeof h.id !== "string" || h.id.length === 0) {
      issues.push({ path: [name, i, "id"], message: "must be a non-empty string" });
      return;
    }
    if (typeof h.score !== "number" || !Number.isFinite(h.score)) {
      issues.push({ path: [name, i, "score"], message: "must be a finite number" });
      return;
    }
    if (seen.has(h.id)) {
      issues.push({ path: [name, i, "id"], message: `duplicate id "${h.id}" within one arm` });
      return;
    }
    seen.add(h.id);
    out.push({ id: h.id, score: h.score });
  });
  return out;
}

function checkWeights(weights: Partial<HybridWeights> | undefined, issues: RecallIssue[]): HybridWeights {
  const w = { ...DEFAULT_HYBRID_WEIGHTS, ...(weights ?? {}) };
  for (const key of ["semantic", "keyword"] as const) {
    const v: unknown = w[key];
    if (typeof v !== "number" || !Number.isFinite(v) || v < 0) {
      issues.push({ path: ["weights", key], message: "must be a finite number ≥ 0" });
    }
  }
  return w;
}

/** Divides each score by the arm's max; an arm whose max is exactly 0 is left unchanged. */
function normalizeArm(hits: readonly ArmHit[]): number[] {
  if (hits.length === 0) return [];
  let max = -Infinity;
  for (const h of hits) if (h.score > max) max = h.score;
  // Quirk kept from the reference: when every score is negative the max is negative too, and
  // dividing by it flips signs and inverts the order (raw −0.1 / −0.2 → 1.0 / 2.0), so the
  // least similar hit gets the highest hybrid score. `semantic_score_raw` keeps the true cosines,
  // so confidence is unaffected.
  return hits.map((h) => (max !== 0 ? h.score / max : h.score));
}

/**
 * The reference hybrid merge.
 *
 * - Semantic hits, in arm order: `semantic_score = norm`, `keyword_score = 0`,
 *   `hybrid_score = norm × w_sem`, `semantic_score_raw` = the raw cosine.
 * - Keyword hits, in arm order: an id already present gets `norm × w_kw` added to its
 *   `hybrid_score` and `keyword_score = norm`; a new id is appended with `semantic_score = 0`,
 *   `hybrid_score = norm × w_kw`, `semantic_score_raw = null`.
 * - Stable sort by `hybrid_score` descending: ties keep insertion order (semantic-arm order
 *   first, then keyword-only hits in keyword order).
 *
 * @throws RecallInputError (`invalid_merge_input`) for non-finite scores, empty or duplicate ids
 *   within one arm, or negative/non-finite weights.
 */
export function mergeHybrid(
  arms: { semantic: readonly ArmHit[]; keyword: readonly ArmHit[] },
  weights?: Partial<HybridWeights>,
): MergedCandidate[] {
  const issues: RecallIssue[] = [];
  const semantic = checkArm(arms.semantic, "semantic", issues);
  const keyword = checkArm(arms.keyword, "keyword", issues);
  const w = checkWeights(weights, issues);
  if (issues.length > 0) throw new RecallInputError("invalid_merge_input", "Invalid hybrid merge input", issues);

  const byId = new Map<string, MergedCandidate>();
  const order: MergedCandidate[] = [];
  const semNorm = normalizeArm(semantic);
  semantic.forEach((hit, i) => {
    const norm = semNorm[i] as number;
    const c: MergedCandidate = {
      id: hit.id,
      hybrid_score: norm * w.semantic,
      semantic_score: norm,
      keyword_score: 0,
      semantic_score_raw: hit.score,
      keyword_score_raw: null,
    };
    byId.set(hit.id, c);
    order.push(c);
  });
  const kwNorm = normalizeArm(keyword);
  keyword.forEach((hit, i) => {
    const norm = kwNorm[i] as number;
    const existing = byId.get(hit.id);
    if (existing !== undefined) {
      existing.hybrid_score += norm * w.keyword;
      existing.keyword_score = norm;
      existing.keyword_score_raw = hit.score;
      return;
    }
    const c: MergedCandidate = {
      id: hit.id,
      hybrid_score: norm * w.keyword,
      semantic_score: 0,
      keyword_score: norm,
      semantic_score_raw: null,
      keyword_score_raw: hit.score,
    };
    byId.set(hit.id, c);
    order.push(c);
  });
  return order.sort((a, b) => b.hybrid_score - a.hybrid_score); // Array.prototype.sort is stable
}

export interface BuildPoolOptions {
  weights?: Partial<HybridWeights>;
  /** Keep the first `candidatesK` candidates (the reference returns at most `candidates_k`). */
  candidatesK?: number;
}

/**
 * The candidate pool for a mode, before any rerank:
 * - `hybrid`: `mergeHybrid`; when `arms.semantic` is null the semantic arm failed and the
 *   search is degraded to keyword-only (raw BM25, no `hybrid_score`), as in the reference (#1515);
 * - `semantic`: the dense arm only, raw cosines, `semantic_score_raw = score`, no normalization;
 * - `keyword`: the BM25 arm only, raw scores.
 */
export function buildCandidatePool(
  mode: SearchMode,
  arms: { semantic?: readonly ArmHit[] | null; keyword?: readonly ArmHit[] | null },
  options: BuildPoolOptions = {},
): PoolCandidate[] {
  let pool: PoolCandidate[];
  const semantic = arms.semantic ?? null;
  const keyword = arms.keyword ?? [];
  if (mode === "hybrid" && semantic !== null) {
    pool = mergeHybrid({ semantic, keyword }, options.weights).map((c) => ({ ...c, score: c.hybrid_score }));
  } else {
    const isSemantic = mode === "semantic";
    const issues: RecallIssue[] = [];
    const hits = checkArm(isSemantic ? (semantic ?? []) : keyword, isSemantic ? "semantic" : "keyword", issues);
    if (issues.length > 0) throw new RecallInputError("invalid_merge_input", "Invalid arm hits", issues);
    pool = hits.map((h) => ({
      id: h.id,
      score: h.score,
      hybrid_score: null,
      semantic_score: null,
      keyword_score: null,
      semantic_score_raw: isSemantic ? h.score : null,
      keyword_score_raw: isSemantic ? null : h.score,
    }));
  }
  if (options.candidatesK !== undefined) {
    const issues: RecallIssue[] = [];
    if (positiveInteger(options.candidatesK, "candidates_k", issues)) pool = pool.slice(0, options.candidatesK);
    else fail("Invalid candidates_k", issues);
  }
  return pool;
}

/** A candidate as confidence sees it (any of the score fields may be missing or null). */
export interface ScoredCandidate {
  score?: number | null;
  hybrid_score?: number | null;
  semantic_score_raw?: number | null;
}

/**
 * Confidence inputs from a pool (spec "Candidate pool" step 6): `hybridScores` takes each
 * candidate's `hybrid_score`, or else its `score`, skipping nulls; `semanticRaw` takes every
 * non-null `semantic_score_raw`.
 */
export function confidenceInputFromPool(pool: readonly ScoredCandidate[]): ConfidenceInput {
  const hybridScores: number[] = [];
  const semanticRaw: number[] = [];
  for (const c of pool) {
    const h = c.hybrid_score ?? c.score;
    if (h !== null && h !== undefined) hybridScores.push(h);
    if (c.semantic_score_raw !== null && c.semantic_score_raw !== undefined) semanticRaw.push(c.semantic_score_raw);
  }
  return { hybridScores, semanticRaw };
}
