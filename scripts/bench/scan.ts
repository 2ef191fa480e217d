/**
 * `npm run bench -- scan [--sizes 100000,1000000] [--queries 40] [--limit 200] [--dim 512] [--data random|clustered]`
 *
 * The semantic arm's scan against the floor, in one process, one size at a time: unit vectors in
 * a real MemoryIndex (`random`: uniform directions; `clustered`: 64 topics, each vector and query
 * near one, as sentence embeddings are, so the top N are near-ties and the int8 bound rescores more), then for each query, back to back, (1) the floor — one streaming
 * read of the same float32 matrix with the cheapest SIMD loop, (2) the exact float32 SIMD scan,
 * (3) the int8 prefilter with float32 rescoring, (4) what `auto` picks. Ratios are of medians
 * taken in the same run, so a loaded machine moves both sides. Every int8 pool is checked against
 * the float32 one (they must be identical). A shared machine is noisy: run it twice.
 */
import os from "node:os";
import { MemoryIndex } from "../../lib/stores/memory-index";
import { INT8_MIN_ROWS } from "../../lib/stores/vector-matrix";
import { fmtMs, mib, option, percentile, prng } from "./stats";

function unitVector(dim: number, random: () => number): Float32Array {
  const v = new Float32Array(dim);
  let s = 0;
  for (let j = 0; j < dim; j++) {
    const x = random() * 2 - 1;
    v[j] = x;
    s += x * x;
  }
  const n = Math.sqrt(s);
  for (let j = 0; j < dim; j++) v[j]! /= n;
  return v;
}

/** A unit vector near one of `centers` (cosine to it ≈ 0.7): the shape of real sentence embeddings. */
function clusteredVector(centers: Float32Array[], random: () => number): Float32Array {
  const center = centers[Math.floor(random() * centers.length)]!;
  const noise = unitVector(center.length, random);
  const v = center.map((c, j) => c + noise[j]!);
  const n = Math.hypot(...v);
  return v.map((x) => x / n);
}

function time(fn: () => void): number {
  const start = performance.now();
  fn();
  return performance.now() - start;
}

export async function run(args: string[]): Promise<void> {
  const sizes = option(args, "sizes", "100000,1000000").split(",").map(Number);
  const queries = Number(option(args, "queries", "40"));
  const limit = Number(option(args, "limit", "200"));
  const dim = Number(option(args, "dim", "512"));
  const data = option(args, "data", "random");
  if (data !== "random" && data !== "clustered") throw new Error(`--data is random or clustered, not ${data}`);
  const random = prng(7);
  const centers = Array.from({ length: 64 }, () => unitVector(dim, random));
  const vector = () => (data === "clustered" ? clusteredVector(centers, random) : unitVector(dim, random));
  console.log(
    `scan benchmark — node ${process.version}, ${os.cpus().length} cores, ${os.cpus()[0]?.model ?? "?"}, load ${os.loadavg()[0]!.toFixed(1)}`,
  );
  console.log(
    `exact top-${limit} over ${dim}-d float32 unit vectors (${data}); auto uses int8 from ${INT8_MIN_ROWS.toLocaleString("en")} rows`,
  );

  for (const size of sizes) {
    const fillStart = performance.now();
    const index = new MemoryIndex(dim);
    index.reserve(size);
    for (let i = 0; i < size; i++) index.upsert([{ id: `m${i}`, vector: vector(), text: "", type: "fact", tags: [] }]);
    const fillS = (performance.now() - fillStart) / 1000;
    const queryVectors = Array.from({ length: queries }, vector);
    const matrix = (index as unknown as { matrix: { streamF32(n: number): void } }).matrix;

    // Warm up: V8 moves the kernels to its optimizing tier after a few calls.
    for (let i = 0; i < 3; i++) {
      matrix.streamF32(size);
      index.semanticTop(queryVectors[0]!, limit, undefined, { scan: "f32" });
      index.semanticTop(queryVectors[0]!, limit, undefined, { scan: "int8" });
    }
    const floor: number[] = [];
    const f32: number[] = [];
    const int8: number[] = [];
    const auto: number[] = [];
    const rescored: number[] = [];
    let mismatches = 0;
    for (const q of queryVectors) {
      floor.push(time(() => matrix.streamF32(size)));
      let exact: unknown;
      f32.push(time(() => (exact = index.semanticTop(q, limit, undefined, { scan: "f32" }))));
      let viaInt8: unknown;
      int8.push(time(() => (viaInt8 = index.semanticTop(q, limit, undefined, { scan: "int8" }))));
      rescored.push(index.lastScan.rescored);
      if (JSON.stringify(exact) !== JSON.stringify(viaInt8)) mismatches++;
      auto.push(time(() => index.semanticTop(q, limit)));
    }
    const p50 = (s: number[]) => percentile(s, 50);
    const row = (label: string, s: number[]) =>
      console.log(
        `    ${label.padEnd(44)} ${fmtMs(p50(s)).padStart(7)}  ${fmtMs(percentile(s, 95)).padStart(7)}   ${(p50(s) / p50(floor)).toFixed(2).padStart(5)}×`,
      );
    const mem = process.memoryUsage();
    console.log(
      `\n${size.toLocaleString("en")} vectors (filled in ${fillS.toFixed(1)} s; rss ${mib(mem.rss)}, array buffers ${mib(mem.arrayBuffers)})`,
    );
    console.log(`  ${queries} queries:                                     p50      p95   vs floor (p50)`);
    row("floor: streaming read of the f32 matrix", floor);
    row("exact f32 SIMD scan", f32);
    row(`int8 prefilter + f32 rescoring (${Math.round(p50(rescored))} rows)`, int8);
    row(`auto (${size >= INT8_MIN_ROWS ? "int8" : "f32"} at this size)`, auto);
    console.log(`  int8 pools identical to the f32 pool: ${queries - mismatches}/${queries}`);
  }
}
