/** Synthetic stored candidate lists for the calibration tests (semantic-mode pools). */
import type { StoredCandidate } from "./level";

/** A semantic list whose first `n` members have this top cosine and prominence (background flat ± jitter). */
export function semanticList(
  top: number,
  prominence: number,
  n = 20,
  jitter = 0.01,
  rng: () => number = Math.random,
): StoredCandidate[] {
  const mean = top / (1 + prominence);
  const bg: number[] = [];
  for (let i = 1; i < n; i++) bg.push(Math.min(top - 1e-6, mean + (i % 2 === 0 ? 1 : -1) * jitter * rng()));
  // Re-centre so the first n have exactly the asked background mean (up to float error).
  const shift = mean - bg.reduce((a, b) => a + b, 0) / bg.length;
  const values = [top, ...bg.map((x) => Math.min(top - 1e-6, x + shift))].sort((a, b) => b - a);
  return values.map((v) => ({ raw_cosine: v, hybrid_score: null, keyword_score: null }));
}
