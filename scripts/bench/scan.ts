/**
 * `npm run bench -- scan [--sizes 100000,1000000] [--queries 40] [--limit 200] [--dim 512] [--data random|clustered]`
 *
 * The semantic arm's scan against the floor, in one process, one size at a time: unit vectors in
 * a real MemoryIndex (`random`: uniform directions; `clustered`: 64 topics, each vector and query
 * near one, as sentence embeddings are, so the top N are near-ties and the int8 bound rescores more), then for each query, back to back, (1) the floor — one streaming
 * read of the same float32 matrix with the cheapest SIMD loop, (2) the exact float32 SIMD scan,
 * (3) the int8 prefilter with float32 rescoring, each on one thread and then shared with the scan
 * helper thread, (4) what `auto` picks (with the helper when there are two cores). A row's ratio
 * is to the floor on as many threads (the helper rows and auto to the two-thread floor). Ratios
 * are of medians taken in the same run, so a loaded machine moves both sides. Every int8 pool is checked against
 * the one-thread float32 one (they must be identical). A shared machine is noisy: run it twice.
 */
import os from "node:os";
import { fmtMs, mib, option, percentile, prng } from "./stats";
import { MemoryIndex } from "../../lib/stores/server/search-index/memory-index";
import { scanHelper, type ScanHelperMode } from "../../lib/stores/server/search-index/scan-kernels";
import { INT8_MIN_ROWS } from "../../lib/stores/server/search-index/vector-matrix";

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
    const matrix = (index as unknown as { matrix: { streamF32(n: number): void; helperReady(): Promise<boolean> } }).matrix;
    const helper = await matrix.helperReady();
    const threads = (mode: ScanHelperMode, fn: () => void) => {
      scanHelper.mode = mode;
      const ms = time(fn);
      scanHelper.mode = "auto";
      return ms;
    };

    // Warm up: V8 moves the kernels to its optimizing tier after a few calls.
    for (let i = 0; i < 3; i++) {
      matrix.streamF32(size);
      index.semanticTop(queryVectors[0]!, limit, undefined, { scan: "f32" });
      index.semanticTop(queryVectors[0]!, limit, undefined, { scan: "int8" });
    }
    const floor: number[] = [];
    const floorShared: number[] = [];
    const f32: number[] = [];
    const f32Shared: number[] = [];
    const int8: number[] = [];
    const int8Shared: number[] = [];
    const auto: number[] = [];
    const rescored: number[] = [];
    const helperShare: number[] = [];
    let mismatches = 0;
    for (const q of queryVectors) {
      floor.push(threads("off", () => matrix.streamF32(size)));
      if (helper) floorShared.push(threads("on", () => matrix.streamF32(size)));
      const pools: string[] = [];
      const pool = (scan: "f32" | "int8") => () =>
        void pools.push(JSON.stringify(index.semanticTop(q, limit, undefined, { scan })));
      f32.push(threads("off", pool("f32")));
      int8.push(threads("off", pool("int8")));
      rescored.push(index.lastScan.rescored);
      if (helper) {
        f32Shared.push(threads("on", pool("f32")));
        int8Shared.push(threads("on", pool("int8")));
        helperShare.push(index.lastScan.helperRows / size);
      }
      if (pools.some((p) => p !== pools[0])) mismatches++;
      auto.push(time(() => index.semanticTop(q, limit)));
    }
    const p50 = (s: number[]) => percentile(s, 50);
    const row = (label: string, s: number[], against = floor) =>
      console.log(
        `    ${label.padEnd(60)} ${fmtMs(p50(s)).padStart(7)}  ${fmtMs(percentile(s, 95)).padStart(7)}   ${(p50(s) / p50(against)).toFixed(2).padStart(5)}×`,
      );
    const mem = process.memoryUsage();
    console.log(
      `\n${size.toLocaleString("en")} vectors (filled in ${fillS.toFixed(1)} s; rss ${mib(mem.rss)}, array buffers ${mib(mem.arrayBuffers)})`,
    );
    console.log(`  ${queries} queries:                                                     p50      p95   vs floor (p50)`);
    row("floor: streaming read of the f32 matrix, one thread", floor);
    if (helper) row("floor, with the helper thread (the two-thread floor)", floorShared, floorShared);
    row("exact f32 SIMD scan, one thread", f32);
    if (helper) row("exact f32 SIMD scan, with the helper thread", f32Shared, floorShared);
    row(`int8 prefilter + f32 rescoring (${Math.round(p50(rescored))} rows), one thread`, int8);
    if (helper) row(`int8 prefilter + f32 rescoring, with the helper thread`, int8Shared, floorShared);
    row(`auto (${size >= INT8_MIN_ROWS ? "int8" : "f32"} at this size)`, auto, helper ? floorShared : floor);
    if (helper) console.log(`  rows the helper thread scanned in the int8 scans: ${(p50(helperShare) * 100).toFixed(0)} % (p50)`);
    else console.log("  no scan helper thread (one core, or it did not start): one-thread figures only");
    console.log(`  pools identical to the one-thread f32 pool (int8, and with the helper): ${queries - mismatches}/${queries}`);
  }
}
