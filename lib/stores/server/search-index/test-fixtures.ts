/**
 * Shared builders of the in-memory index tests (lib/stores/*.test.ts): seeded random numbers
 * (mulberry32, so a failing case is reproducible from its seed), random unit vectors, and one
 * plain matrix as the reference a sharded or rescored scan is held to.
 */
import { mulberry32 } from "@/lib/random";
import { VectorMatrix } from "./vector-matrix";

/** Uniform numbers in [0, 1) from `seed`. */
export function rng(seed: number): () => number {
  return mulberry32(seed);
}

/** Uniform numbers in [-0.5, 0.5) from `seed`: coordinates of a random direction. */
export function centredRng(seed: number): () => number {
  const next = rng(seed);
  return () => next() - 0.5;
}

/** `v` scaled to unit length. */
export function unit(v: Float32Array): Float32Array {
  let s = 0;
  for (const x of v) s += x * x;
  const n = Math.sqrt(s);
  return v.map((x) => x / n);
}

/** A random direction of `dim` coordinates, scaled to unit length. */
export function randomUnit(dim: number, random: () => number): Float32Array {
  return unit(Float32Array.from({ length: dim }, random));
}

/** These vectors (null: a row without one) in one matrix: one wasm memory, no shards. */
export function matrixOf(dim: number, rows: (Float32Array | null)[]): VectorMatrix {
  const m = new VectorMatrix(dim, 4);
  rows.forEach((v, row) => m.set(row, v));
  return m;
}
