/**
 * Seeded pseudo-random numbers for property tests (mulberry32): deterministic, so a failing
 * pool is reproducible from its seed.
 */
import { mulberry32 as seededRandom } from "@/lib/random";

export interface Rng {
  /** Uniform in [0, 1). */
  next(): number;
  /** Uniform in [lo, hi). */
  uniform(lo: number, hi: number): number;
  /** Integer in [lo, hi], inclusive. */
  int(lo: number, hi: number): number;
  pick<T>(items: readonly T[]): T;
  /** A shuffled copy (Fisher–Yates). */
  shuffle<T>(items: readonly T[]): T[];
}

export function mulberry32(seed: number): Rng {
  const next = seededRandom(seed);
  const int = (lo: number, hi: number): number => lo + Math.floor(next() * (hi - lo + 1));
  return {
    next,
    uniform: (lo, hi) => lo + (hi - lo) * next(),
    int,
    pick: (items) => {
      if (items.length === 0) throw new Error("pick from an empty list");
      return items[int(0, items.length - 1)] as (typeof items)[number];
    },
    shuffle: (items) => {
      const out = [...items];
      for (let i = out.length - 1; i > 0; i--) {
        const j = int(0, i);
        const tmp = out[i] as (typeof out)[number];
        out[i] = out[j] as (typeof out)[number];
        out[j] = tmp;
      }
      return out;
    },
  };
}

export interface RandomPool {
  hybridScores: number[];
  semanticRaw: number[] | null;
}

/**
 * A random candidate pool of one of several shapes: continuous cosines, cosines on a coarse grid
 * (ties, flat tails), negative/near-zero backgrounds, tiny pools, and keyword-only BM25 pools.
 */
export function randomPool(rng: Rng): RandomPool {
  const shape = rng.int(0, 5);
  const n = rng.pick([0, 1, 2, 2, 3, 4, 5, 8, 12, 20, 40]);
  const grid = (x: number, step: number): number => Math.round(x / step) * step + 0; // + 0 turns -0 into 0
  switch (shape) {
    case 0: {
      const lo = rng.uniform(-0.2, 0.8);
      const hi = rng.uniform(lo, 1);
      const sem = Array.from({ length: n }, () => rng.uniform(lo, hi));
      return { hybridScores: rng.next() < 0.5 ? [] : sem.map(() => rng.next()), semanticRaw: sem };
    }
    case 1: {
      const base = rng.uniform(0, 0.9);
      const sem = Array.from({ length: n }, () =>
        Math.min(1, grid(base + rng.pick([0, 0, 0.01, 0.05, 0.1]) * rng.int(-2, 3), 0.01)),
      );
      return { hybridScores: [], semanticRaw: sem };
    }
    case 2: {
      const sem = Array.from({ length: n }, () => rng.uniform(-0.6, 0.05));
      if (n > 0) sem[rng.int(0, n - 1)] = rng.uniform(-0.2, 1);
      return { hybridScores: [], semanticRaw: sem };
    }
    case 3: {
      const scale = rng.pick([1, 5, 30]);
      return { hybridScores: Array.from({ length: n }, () => rng.uniform(0, scale)), semanticRaw: null };
    }
    case 4: {
      const vals = [0, 0.1, 0.2, 0.3, 0.5, -0.1, -0.05];
      return { hybridScores: Array.from({ length: n }, () => rng.pick(vals)), semanticRaw: rng.next() < 0.5 ? null : [] };
    }
    default: {
      // Mixed pool: only some candidates carry a cosine.
      const hybrid = Array.from({ length: n }, () => rng.next());
      const sem = hybrid.filter(() => rng.next() < 0.6).map(() => rng.uniform(0.1, 0.95));
      return { hybridScores: hybrid, semanticRaw: sem };
    }
  }
}
