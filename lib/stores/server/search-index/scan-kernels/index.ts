/**
 * The exact scan's WebAssembly SIMD kernels (lib/stores/server/search-index/README.md "The in-memory index").
 *
 * The module is assembled in this folder, in source, byte by byte (wasm-writer.ts; the loops the
 * matrix kernels share in row-loops.ts; the kernels in f32.ts, i8.ts, stream-read.ts): four small
 * functions need no toolchain, and building it at import keeps the bytes and their explanation in reviewed source (no
 * generated blob to drift). Node 20 runs 128-bit WASM SIMD everywhere; the scalar JS loop it
 * replaces was 8× above memory bandwidth, these kernels are near it.
 *
 * Layout contract with MemoryIndex: f32 rows are `strideF` floats apart (dim rounded up to 8,
 * zero padded), int8 rows `stride8` bytes apart (dim rounded up to 16, zero padded); padding
 * multiplies zeros, so it changes no sum. Every row's cosine is computed with the same
 * operations in the same order (two 4-lane accumulators, then lanes (0+1)+(2+3)), whether it goes
 * through the matrix loop or the rescoring call, so a memory's score never depends on where it
 * sits or which path scored it.
 */
import { dotF32, dotRowF32 } from "./f32";
import { dotI8 } from "./i8";
import { RowScanner, type MatrixKernel } from "./row-scanner";
import { streamRows } from "./stream-read";
import { assemble } from "./wasm-writer";

export { scanHelper, type MatrixKernelName, type ScanHelperMode } from "./row-scanner";

/** The most 64 KiB pages a kernel memory grows to (4 GiB: wasm32's whole address space). */
export const MAX_PAGES = 65_536;

export interface ScanKernels {
  /** Shared, so the helper thread scans the same rows (row-scanner.ts). */
  memory: WebAssembly.Memory;
  dotF32: MatrixKernel;
  dotRowF32(q: number, row: number, strideBytes: number): number;
  dotI8: MatrixKernel;
  /** dotF32, dotI8 or the benchmark floor (streamRows) over a whole matrix, shared with the helper thread when it is large. */
  rows: RowScanner;
}

let compiled: WebAssembly.Module | null = null;

/** The kernels' bytes (exported for the test that checks the module validates). */
export function kernelModuleBytes(): Uint8Array<ArrayBuffer> {
  return assemble([dotF32(), dotRowF32(), dotI8(), streamRows()], { sharedMaxPages: MAX_PAGES });
}

/** A fresh kernel instance over its own shared memory of `pages` 64 KiB pages (growable to 4 GiB). */
export function instantiateKernels(pages: number): ScanKernels {
  compiled ??= new WebAssembly.Module(kernelModuleBytes());
  const memory = new WebAssembly.Memory({ initial: pages, maximum: MAX_PAGES, shared: true });
  const instance = new WebAssembly.Instance(compiled, { env: { memory } });
  const e = instance.exports as unknown as Omit<ScanKernels, "memory" | "rows"> & { streamRows: MatrixKernel };
  const rows = new RowScanner(compiled, memory, { dotF32: e.dotF32, dotI8: e.dotI8, streamRows: e.streamRows });
  return { memory, dotF32: e.dotF32, dotRowF32: e.dotRowF32, dotI8: e.dotI8, rows };
}
