import { describe, expect, it } from "vitest";
import { computeConfidence, levelRank, type ConfidenceResult, type Level } from "./confidence";
import { explainTrace } from "./explain";
import { round3 } from "./numeric";
import { mulberry32, randomPool, type RandomPool, type Rng } from "./test-support/prng";
import { DEFAULT_THRESHOLDS, validateThresholds, type Thresholds } from "./thresholds";

const POOLS = 3000;

function run(pool: RandomPool, thresholds?: Partial<Thresholds>): ConfidenceResult {
  return computeConfidence({ hybridScores: pool.hybridScores, semanticRaw: pool.semanticRaw }, thresholds);
}

/** A random profile that satisfies the validator (bands ordered, ranges sane). */
function randomThresholds(rng: Rng): Thresholds {
  const sorted = (n: number, lo: number, hi: number): number[] =>
    Array.from({ length: n }, () => rng.uniform(lo, hi)).sort((a, b) => b - a);
  const [hp, mp, lp] = sorted(3, 0, 2) as [number, number, number];
  const [sc, mc, lc] = sorted(3, -0.2, 1) as [number, number, number];
  const [zh, zm, zl] = sorted(3, 0, 5) as [number, number, number];
  const t: Thresholds = {
    name: "random",
    high_prominence: hp,
    moderate_prominence: mp,
    low_prominence: lp,
    strong_abs_cosine: sc,
    abs_moderate_cosine: mc,
    abs_low_cosine: lc,
    bg_eps: rng.uniform(0, 0.05),
    std_eps: 10 ** rng.uniform(-12, -6),
    z_high: zh,
    z_moderate: zm,
    z_low: zl,
  };
  expect(validateThresholds(t)).toEqual([]);
  return t;
}

// -------------------------------------------------------------------------------------------
// An independent, deliberately plain re-implementation of the level rules: naive sums, a
// textbook two-pass std, no rounding anywhere. It also reports how close any comparison came
// to its threshold, so pools that sit within float noise of an edge (where a naive sum and
// CPython's exactly rounded fmean may legitimately disagree) can be told apart.

interface NaiveVerdict {
  level: Level;
  /** Smallest |value − threshold| over the comparisons made. */
  closest: number;
}

function naiveLevel(hybrid: number[], semantic: number[] | null, t: Thresholds = DEFAULT_THRESHOLDS): NaiveVerdict {
  let closest = Infinity;
  const ge = (value: number, threshold: number): boolean => {
    closest = Math.min(closest, Math.abs(value - threshold));
    return value >= threshold;
  };
  const gt = (value: number, threshold: number): boolean => {
    closest = Math.min(closest, Math.abs(value - threshold));
    return value > threshold;
  };
  const mean = (xs: number[]): number => xs.reduce((a, b) => a + b, 0) / xs.length;
  const std = (xs: number[]): number => {
    const m = mean(xs);
    return Math.sqrt(xs.reduce((a, x) => a + (x - m) * (x - m), 0) / xs.length);
  };
  const sem = semantic ?? [];
  if (sem.length > 0) {
    const top = Math.max(...sem);
    if (sem.length === 1) return { level: ge(top, t.strong_abs_cosine) ? "moderate" : "low", closest };
    const bg = [...sem];
    bg.splice(bg.indexOf(top), 1);
    const m = mean(bg);
    let level: Level;
    if (gt(m, t.bg_eps)) {
      const p = (top - m) / m;
      if (ge(p, t.high_prominence) && ge(top, t.abs_moderate_cosine)) level = "high";
      else if (ge(p, t.moderate_prominence) && ge(top, t.abs_low_cosine)) level = "moderate";
      else if (ge(p, t.low_prominence)) level = "low";
      else level = "none";
    } else {
      level = ge(top, t.strong_abs_cosine)
        ? "high"
        : ge(top, t.abs_moderate_cosine)
          ? "moderate"
          : ge(top, t.abs_low_cosine)
            ? "low"
            : "none";
    }
    if (ge(top, t.strong_abs_cosine) && (level === "low" || level === "none")) level = "moderate";
    return { level, closest };
  }
  if (hybrid.length === 0) return { level: "none", closest };
  if (hybrid.length === 1) return { level: "moderate", closest };
  const top = Math.max(...hybrid);
  const bg = [...hybrid];
  bg.splice(bg.indexOf(top), 1);
  const m = mean(bg);
  const s = bg.length > 1 ? std(bg) : 0;
  let z: number;
  if (gt(s, t.std_eps)) z = (top - m) / s;
  else z = (top - m) / (gt(Math.abs(m), t.std_eps) ? Math.abs(m) : 1);
  const level: Level = ge(z, t.z_high) ? "high" : ge(z, t.z_moderate) ? "moderate" : ge(z, t.z_low) ? "low" : "none";
  return { level, closest };
}

/** Float noise: far below the 5e-4 that rounding to 3 dp can move a value. */
const NOISE = 1e-9;

describe("property: rounding never changes a level", () => {
  it(`agrees with an unrounded naive implementation on ${POOLS} random pools`, () => {
    const rng = mulberry32(0xc0ffee);
    let compared = 0;
    let nearEdge = 0;
    for (let i = 0; i < POOLS; i++) {
      const pool = randomPool(rng);
      const naive = naiveLevel(pool.hybridScores, pool.semanticRaw);
      if (naive.closest < NOISE) {
        nearEdge++;
        continue;
      }
      compared++;
      expect(run(pool).level, `pool #${i}: ${JSON.stringify(pool)}`).toBe(naive.level);
    }
    expect(compared).toBeGreaterThan(POOLS * 0.9);
    expect(nearEdge).toBeLessThan(POOLS * 0.1);
  });

  it("agrees under random valid threshold profiles", () => {
    const rng = mulberry32(77);
    let compared = 0;
    for (let i = 0; i < POOLS; i++) {
      const t = randomThresholds(rng);
      const pool = randomPool(rng);
      const naive = naiveLevel(pool.hybridScores, pool.semanticRaw, t);
      if (naive.closest < NOISE) continue;
      compared++;
      expect(run(pool, t).level, `pool #${i}`).toBe(naive.level);
    }
    expect(compared).toBeGreaterThan(POOLS * 0.9);
  });
});

describe("property: levels are monotone in the top score (rest of the pool fixed)", () => {
  function checkMonotone(rng: Rng, thresholds?: Thresholds): void {
    const pool = randomPool(rng);
    const useSemantic = pool.semanticRaw !== null && pool.semanticRaw.length > 0;
    const rest = useSemantic ? (pool.semanticRaw as number[]) : pool.hybridScores;
    // Tops from max(rest) (a tie) upwards; below max(rest) the top would change hands.
    let top = rest.length > 0 ? Math.max(...rest) : rng.uniform(-0.5, 0.5);
    const levels: Level[] = [];
    for (let step = 0; step < 12; step++) {
      const candidate = useSemantic
        ? { hybridScores: pool.hybridScores, semanticRaw: [...rest, top] }
        : { hybridScores: [...rest, top], semanticRaw: null };
      levels.push(run(candidate, thresholds).level);
      top += rng.pick([0.001, 0.01, 0.05, 0.2]) * rng.next();
    }
    for (let k = 1; k < levels.length; k++) {
      expect(
        levelRank(levels[k] as Level),
        `levels ${levels.join(" → ")} for rest ${JSON.stringify(rest)}`,
      ).toBeGreaterThanOrEqual(levelRank(levels[k - 1] as Level));
    }
  }

  it(`default profile, ${POOLS} pools`, () => {
    const rng = mulberry32(2024);
    for (let i = 0; i < POOLS; i++) checkMonotone(rng);
  });

  it(`random valid profiles, ${POOLS} pools`, () => {
    const rng = mulberry32(4048);
    for (let i = 0; i < POOLS; i++) checkMonotone(rng, randomThresholds(rng));
  });
});

describe("property: permuting the input changes nothing", () => {
  it(`identical result (trace included) for shuffled pools, ${POOLS} pools`, () => {
    const rng = mulberry32(99);
    for (let i = 0; i < POOLS; i++) {
      const pool = randomPool(rng);
      const shuffled: RandomPool = {
        hybridScores: rng.shuffle(pool.hybridScores),
        semanticRaw: pool.semanticRaw === null ? null : rng.shuffle(pool.semanticRaw),
      };
      expect(run(shuffled)).toStrictEqual(run(pool));
    }
  });
});

describe("property: the result is internally consistent", () => {
  it(`trace, basis and wire keys agree on ${POOLS} pools`, () => {
    const rng = mulberry32(31337);
    const t = DEFAULT_THRESHOLDS;
    for (let i = 0; i < POOLS; i++) {
      const pool = randomPool(rng);
      const r = run(pool);
      const sem = pool.semanticRaw ?? [];
      const first = r.trace[0];
      expect(first?.rule === "basis" && first.basis === r.basis).toBe(true);

      // The last step that states a band states the level.
      const bands = r.trace.filter((s) => "band" in s);
      expect(bands.at(-1)).toMatchObject({ band: r.level });

      for (const s of r.trace) {
        if (s.rule === "prominence_band" || s.rule === "absolute_bands" || s.rule === "zscore_band") {
          if (s.band === "none") expect(s.value).toBeLessThan(s.threshold);
          else expect(s.value).toBeGreaterThanOrEqual(s.threshold);
        }
        if (s.rule === "absolute_guard") {
          expect(s.value).toBeLessThan(s.threshold);
          expect(s.prominence).toBeGreaterThanOrEqual(s.prominence_threshold);
        }
        if (s.rule === "near_duplicate_floor") expect(s.value).toBeGreaterThanOrEqual(t.strong_abs_cosine);
      }

      if (sem.length > 0) {
        expect(r.top_score).toBe(round3(Math.max(...sem)));
        expect(r.result_count).toBe(pool.hybridScores.length > 0 ? pool.hybridScores.length : sem.length);
        const usable = r.background_mean !== null && r.background_mean > t.bg_eps;
        expect(r.prominence === null).toBe(!usable);
      } else {
        expect(r.result_count).toBe(pool.hybridScores.length);
        expect(r.prominence).toBeNull();
        expect(r.top_score).toBe(pool.hybridScores.length > 0 ? Math.max(...pool.hybridScores) : null);
      }
      if (r.background_std !== null && r.background_std <= t.std_eps && r.basis === "semantic") {
        expect(r.relative_margin).toBeNull();
      }
      for (const sentence of explainTrace(r.trace)) expect(sentence).not.toMatch(/undefined|NaN|null/);
    }
  });
});
