import os from "node:os";
import path from "node:path";
import { Worker } from "node:worker_threads";
import {
  CHUNK_ROWS,
  CHUNKS,
  CLAIM,
  claimChunk,
  DONE,
  GEN,
  KERNEL,
  KERNELS,
  MATRIX,
  OUT,
  QUERY,
  READY,
  ROWS,
  SLOTS,
  STRIDE,
} from "./scan-control.mjs";

/**
 * A matrix kernel's scan over many rows, shared with a helper thread (lib/stores/server/search-index/README.md "The
 * in-memory index"). A scan streams the matrix once, and one core's bandwidth is what bounds it;
 * two cores read twice as fast. The kernels' memory is shared, so the helper thread
 * (scan-helper.worker.mjs) runs the same kernels over the same rows: the scan is cut into chunks,
 * and the calling thread and the helper each claim the next unclaimed chunk until none is left.
 * The caller never waits for the helper to start (it takes every chunk itself when the helper is
 * slow, busy or not there yet), only for chunks the helper already took. Each row is scored by the
 * same operations whichever thread takes it, so a score never depends on who did.
 *
 * The control block and the claim rule both threads follow are in scan-control.mjs.
 */
export type MatrixKernelName = (typeof KERNELS)[number];

/** A matrix kernel: out[r] for rows r of n rows at m, strideBytes apart, against the query at q. */
export type MatrixKernel = (q: number, m: number, n: number, strideBytes: number, out: number) => void;

/** Rows per call when one thread scans alone: short calls let V8 move the kernel to its optimizing tier early. */
const SOLO_BLOCK = 16_384;
/** A chunk is about this many bytes of rows: small enough to balance two threads, large beside a claim. */
const CHUNK_BYTES = 2 << 20;
/** Scans that read less than this are not shared: the helper's wake-up would be most of the gain. */
const SHARE_MIN_BYTES = 8 << 20;
/** A helper chunk takes about a millisecond; one still running after this means the thread is gone. */
const HELPER_TIMEOUT_MS = 10_000;

export type ScanHelperMode = "auto" | "on" | "off";

/**
 * Whether scans use the helper thread: `auto` when the machine has a second core, `on` always
 * (tests), `off` never (the benchmark's one-thread figure). Read at each scan.
 */
export const scanHelper: { mode: ScanHelperMode } = { mode: "auto" };

const secondCore = os.availableParallelism() > 1;

function helperWanted(): boolean {
  return scanHelper.mode === "on" || (scanHelper.mode === "auto" && secondCore);
}

let helper: { worker: Worker; controls: Map<number, Int32Array> } | null = null;
let helperFailed = false;
let nextId = 1;
/** When a matrix's kernels are collected, the helper lets go of its memory too. */
const dropped = new FinalizationRegistry<number>((id) => {
  helper?.controls.delete(id);
  helper?.worker.postMessage({ type: "drop", id });
});

function startHelper(): typeof helper {
  if (helper || helperFailed) return helper;
  // Resolved at run time from the project folder: the worker runs outside Next's bundle.
  const file = path.join(
    /* turbopackIgnore: true */ process.cwd(),
    "lib",
    "stores",
    "server",
    "search-index",
    "scan-kernels",
    "scan-helper.worker.mjs",
  );
  let worker: Worker;
  try {
    worker = new Worker(file);
  } catch (error) {
    helperFailed = true;
    console.error(`The scan helper thread did not start (${(error as Error).message}); scans run on one thread.`);
    return null;
  }
  const started = { worker, controls: new Map<number, Int32Array>() };
  const stopped = (why: string) => {
    if (helper !== started) return;
    // Scans go on alone: no matrix counts on a helper that is not there.
    console.error(`The scan helper thread stopped (${why}); scans continue on one thread.`);
    for (const control of started.controls.values()) Atomics.store(control, READY, 0);
    helper = null;
    helperFailed = true;
  };
  worker.on("error", (error) => stopped(error.message));
  worker.on("exit", (code) => stopped(`exit code ${code}`));
  // The helper never keeps a script from exiting; it holds no work of its own.
  worker.unref();
  helper = started;
  return helper;
}

/** Scans one kernel instance's matrices, with the helper thread when the scan is large. */
export class RowScanner {
  private readonly control = new Int32Array(new SharedArrayBuffer(SLOTS * 4));
  private id = 0;
  private gen = 0;
  /** Rows the helper scored in the last scan (tests and the benchmark read it). */
  helperRows = 0;

  constructor(
    private readonly module: WebAssembly.Module,
    private readonly memory: WebAssembly.Memory,
    private readonly kernels: Record<MatrixKernelName, MatrixKernel>,
  ) {}

  /** Resolves once the helper thread holds this memory (tests); false when there is no helper. */
  async helperReady(): Promise<boolean> {
    this.register();
    for (let waited = 0; waited < HELPER_TIMEOUT_MS; waited += 5) {
      if (Atomics.load(this.control, READY) === 1) return true;
      if (!helper) return false;
      await new Promise((resolve) => setTimeout(resolve, 5));
    }
    return false;
  }

  /** `kernel` over rows 0..n-1 of the matrix at m (strideBytes apart), scores to out + 4r. */
  scan(name: MatrixKernelName, q: number, m: number, n: number, strideBytes: number, out: number): void {
    this.helperRows = 0;
    const kernel = this.kernels[name];
    if (n * strideBytes < SHARE_MIN_BYTES || !helperWanted() || !this.register()) {
      for (let first = 0; first < n; first += SOLO_BLOCK) {
        kernel(q, m + first * strideBytes, Math.min(SOLO_BLOCK, n - first), strideBytes, out + first * 4);
      }
      return;
    }
    const control = this.control;
    const chunkRows = Math.max(16, Math.floor(CHUNK_BYTES / strideBytes));
    const chunks = Math.ceil(n / chunkRows);
    this.gen = (this.gen % 0x7fff) + 1;
    const gen = this.gen;
    // Closed (generation 0 is never a scan's) while the arguments change: see the worker's `help`.
    Atomics.store(control, CLAIM, 0);
    Atomics.store(control, KERNEL, KERNELS.indexOf(name));
    Atomics.store(control, CHUNKS, chunks);
    Atomics.store(control, CHUNK_ROWS, chunkRows);
    Atomics.store(control, ROWS, n);
    Atomics.store(control, QUERY, q);
    // Addresses past 2^31 keep their bits; the worker reads them unsigned.
    Atomics.store(control, MATRIX, m | 0);
    Atomics.store(control, STRIDE, strideBytes);
    Atomics.store(control, OUT, out | 0);
    Atomics.store(control, DONE, 0);
    Atomics.store(control, CLAIM, gen << 16);
    Atomics.store(control, GEN, gen);
    Atomics.notify(control, GEN);
    let mine = 0;
    for (let chunk = claimChunk(control, gen, chunks); chunk >= 0; chunk = claimChunk(control, gen, chunks)) {
      const first = chunk * chunkRows;
      const rows = Math.min(chunkRows, n - first);
      kernel(q, m + first * strideBytes, rows, strideBytes, out + first * 4);
      mine += rows;
      Atomics.add(control, DONE, 1);
    }
    // Only chunks the helper already claimed are left: each is a millisecond or so of its work.
    const deadline = Date.now() + HELPER_TIMEOUT_MS;
    for (let done = Atomics.load(control, DONE); done < chunks; done = Atomics.load(control, DONE)) {
      Atomics.wait(control, DONE, done, 100);
      if (Date.now() > deadline) throw new Error("the scan helper thread stopped in the middle of a scan");
    }
    this.helperRows = n - mine;
  }

  /** Hands this memory to the helper once; true when the helper holds it and can take chunks. */
  private register(): boolean {
    if (this.id === 0) {
      const started = startHelper();
      if (!started) return false;
      this.id = nextId++;
      started.controls.set(this.id, this.control);
      started.worker.postMessage({ type: "add", id: this.id, module: this.module, memory: this.memory, control: this.control });
      dropped.register(this, this.id);
    }
    return helper !== null && Atomics.load(this.control, READY) === 1;
  }
}
