import os from "node:os";
import path from "node:path";
import { Worker } from "node:worker_threads";
import { configuredEmbeddingWorkers, USE_LITE_ID } from "./config";
import { assertEmbeddable, EmbeddingServiceError, normalize, type Embedder } from "./types";

const DIM = 512;
/** Texts per worker job: small enough that a query waits at most one chunk behind an import. */
const CHUNK = 32;

interface Slot {
  worker: Worker;
  /** The job in flight, if any. */
  job: Job | null;
}

interface Job {
  texts: readonly string[];
  resolve: (vectors: Float32Array) => void;
  reject: (error: Error) => void;
}

/**
 * Universal Sentence Encoder lite (512-d, shipped inside npm) on worker threads, so embedding a
 * 10,000-memory import never blocks the server's event loop. Queries jump the queue ahead of
 * bulk chunks. Vectors are re-normalized to unit length, as a cosine index does.
 */
export class UseLiteEmbedder implements Embedder {
  readonly id = USE_LITE_ID;
  readonly dim = DIM;
  private readonly workers: Slot[] = [];
  private readonly queries: Job[] = [];
  private readonly bulk: Job[] = [];

  constructor(private readonly workerCount = defaultWorkerCount()) {}

  async embed(texts: readonly string[], options: { priority?: "query" | "bulk" } = {}): Promise<Float32Array[]> {
    assertEmbeddable(texts);
    if (texts.length === 0) return [];
    const queue = options.priority === "bulk" ? this.bulk : this.queries;
    const chunks: Promise<Float32Array>[] = [];
    for (let start = 0; start < texts.length; start += CHUNK) {
      const slice = texts.slice(start, start + CHUNK);
      chunks.push(new Promise((resolve, reject) => queue.push({ texts: slice, resolve, reject })));
    }
    this.pump();
    const flat = await Promise.all(chunks);
    const out: Float32Array[] = [];
    for (const block of flat) {
      for (let i = 0; i < block.length; i += DIM) out.push(normalize(block.slice(i, i + DIM)));
    }
    return out;
  }

  /** Stops the workers (tests, scripts); the next embed starts them again. */
  async close(): Promise<void> {
    const workers = this.workers.splice(0);
    await Promise.all(workers.map((w) => w.worker.terminate()));
    const orphans = [...workers.flatMap((w) => (w.job ? [w.job] : [])), ...this.queries.splice(0), ...this.bulk.splice(0)];
    for (const job of orphans) job.reject(new EmbeddingServiceError("The embedding workers were stopped.", "unavailable"));
  }

  private pump(): void {
    this.ensureWorkers();
    for (const slot of this.workers) {
      if (slot.job) continue;
      const job = this.queries.shift() ?? this.bulk.shift();
      if (!job) return;
      slot.job = job;
      slot.worker.ref(); // keep the process alive while a job is in flight
      slot.worker.postMessage({ texts: job.texts });
    }
  }

  private ensureWorkers(): void {
    while (this.workers.length < this.workerCount) {
      const worker = new Worker(workerPath());
      const slot: Slot = { worker, job: null };
      worker.on("message", (message: { vectors?: Float32Array; error?: string }) => {
        const job = slot.job;
        slot.job = null;
        slot.worker.unref(); // an idle worker must not keep a script from exiting
        if (job) {
          if (message.vectors) job.resolve(message.vectors);
          else job.reject(new EmbeddingServiceError(`The embedding model failed: ${message.error}`, "unavailable"));
        }
        this.pump();
      });
      worker.on("error", (error) => this.retire(slot, error));
      worker.unref();
      this.workers.push(slot);
    }
  }

  /** A crashed worker fails its in-flight job; a fresh one takes its place on the next pump. */
  private retire(slot: Slot, error: Error): void {
    const index = this.workers.indexOf(slot);
    if (index >= 0) this.workers.splice(index, 1);
    slot.job?.reject(new EmbeddingServiceError(`The embedding worker crashed: ${error.message}`, "unavailable", { cause: error }));
    slot.job = null;
    this.pump();
  }
}

function defaultWorkerCount(): number {
  return configuredEmbeddingWorkers() ?? Math.max(1, Math.min(2, os.availableParallelism()));
}

function workerPath(): string {
  // Resolved at run time from the project folder: the worker runs outside Next's bundle.
  return path.join(/* turbopackIgnore: true */ process.cwd(), "lib", "embeddings", "use-lite.worker.mjs");
}
