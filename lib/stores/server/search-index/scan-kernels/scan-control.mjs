// The control block a shared scan is run through, and its claim rule: one home for both threads
// (row-scanner.ts, the caller; scan-helper.worker.mjs, the helper), in plain JS because the
// worker runs outside Next's bundle. Int32 slots of a SharedArrayBuffer (lib/stores/server/search-index/README.md
// "The in-memory index").

/** The scan's generation (1..0x7fff), bumped and notified to publish a scan. */
export const GEN = 0;
/** The claim word: generation << 16 | next chunk; 0 (closed) while the arguments change. */
export const CLAIM = 1;
/** Chunks finished, by either thread. */
export const DONE = 2;
/** 1 once the helper holds the matrix's memory. */
export const READY = 3;
/** The scan's arguments: kernel (index in KERNELS), chunk count and size, rows, addresses, stride. */
export const KERNEL = 4;
export const CHUNKS = 5;
export const CHUNK_ROWS = 6;
export const ROWS = 7;
export const QUERY = 8;
export const MATRIX = 9;
export const STRIDE = 10;
export const OUT = 11;
export const SLOTS = 12;

/** The kernels a shared scan runs, by the index KERNEL holds. */
export const KERNELS = ["dotF32", "dotI8", "streamRows"];

/** The next unclaimed chunk of scan `gen` (of `chunks`), or -1 when it is done or another scan replaced it. */
export function claimChunk(control, gen, chunks) {
  for (;;) {
    const word = Atomics.load(control, CLAIM);
    if (word >>> 16 !== gen || (word & 0xffff) >= chunks) return -1;
    if (Atomics.compareExchange(control, CLAIM, word, word + 1) === word) return word & 0xffff;
  }
}
