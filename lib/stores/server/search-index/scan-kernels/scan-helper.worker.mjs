// The scan helper thread (lib/stores/server/search-index/README.md "The in-memory index"). Plain JS so Node can start
// it directly, outside Next's bundle. The parent sends { type: "add", id, module, memory, control }
// for each matrix large enough to share its scans: this thread instantiates the kernels over the
// same shared memory and then, every time the parent publishes a scan, claims chunks of rows
// beside the parent until none is left. { type: "drop", id } forgets a matrix the parent no
// longer holds. The control block and the claim rule are scan-control.mjs's.
import { parentPort } from "node:worker_threads";
import {
  CHUNK_ROWS,
  CHUNKS,
  DONE,
  GEN,
  KERNEL,
  KERNELS,
  MATRIX,
  OUT,
  QUERY,
  READY,
  ROWS,
  STRIDE,
  claimChunk,
} from "./scan-control.mjs";

const matrices = new Map();

function help(entry) {
  const { control, kernels } = entry;
  const gen = Atomics.load(control, GEN);
  entry.seen = gen;
  // The parent closes the claim word before it writes a scan's arguments and opens it for that
  // scan after; these loads are atomic, so if any of them is already the next scan's, no claim of
  // `gen` succeeds, and arguments from two scans never score a chunk.
  const read = (slot) => Atomics.load(control, slot);
  const kernel = kernels[KERNELS[read(KERNEL)]];
  const chunks = read(CHUNKS);
  const chunkRows = read(CHUNK_ROWS);
  const rows = read(ROWS);
  const query = read(QUERY);
  const matrix = read(MATRIX) >>> 0;
  const stride = read(STRIDE);
  const out = read(OUT) >>> 0;
  for (let chunk = claimChunk(control, gen, chunks); chunk >= 0; chunk = claimChunk(control, gen, chunks)) {
    const first = chunk * chunkRows;
    kernel(query, matrix + first * stride, Math.min(chunkRows, rows - first), stride, out + first * 4);
    Atomics.add(control, DONE, 1);
    Atomics.notify(control, DONE);
  }
}

function waitForScan(entry) {
  if (!entry.live) return;
  const wait = Atomics.waitAsync(entry.control, GEN, entry.seen);
  const next = () => {
    if (!entry.live) return;
    help(entry);
    waitForScan(entry);
  };
  if (wait.async) wait.value.then(next);
  else next();
}

parentPort.on("message", (message) => {
  if (message.type === "add") {
    const kernels = new WebAssembly.Instance(message.module, { env: { memory: message.memory } }).exports;
    const entry = { control: message.control, kernels, seen: Atomics.load(message.control, GEN), live: true };
    matrices.set(message.id, entry);
    Atomics.store(entry.control, READY, 1);
    waitForScan(entry);
  } else if (message.type === "drop") {
    const entry = matrices.get(message.id);
    if (!entry) return;
    matrices.delete(message.id);
    entry.live = false;
    // Ends this thread's own pending wait, so the matrix's memory is released.
    Atomics.notify(entry.control, GEN);
  }
});
