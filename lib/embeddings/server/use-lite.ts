import path from "node:path";
import { Worker } from "node:worker_threads";
import { embeddingWorkerCount, queryWorkerEnabled, USE_LITE_ID } from "./config";
import { assertEmbeddable, EmbeddingServiceError, normalize, type Embedder } from "../types";

const DIM = 512;
/** Texts per bulk job: the model's per-call overhead is spread over 32 texts. */
const CHUNK = 32;
/** Bulk jobs handed to one worker at a time: the next is queued there before the current ends. */
const BULK_DEPTH = 2;
/** After the second crash in a row a worker restarts 1 s later, then 2 s, 4 s … at most this. */
const MAX_RESTART_DELAY_MS = 30_000;

interface Slot {
  worker: Worker;
  /** The query worker takes only queries, so no query ever waits behind an import chunk. */
  role: "query" | "bulk";
  /** Jobs posted to the worker and not answered yet, oldest first. */
  jobs: Job[];
}

interface Job {
  id: number;
  texts: readonly string[];
  resolve: (vectors: Float32Array) => void;
  reject: (error: Error) => void;
}

/**
 * Universal Sentence Encoder lite (512-d, shipped inside npm) on worker threads, so embedding a
 * 10,000-memory import never blocks the server's event loop. `workerCount` workers embed bulk
 * chunks, two deep so none idles between chunks; one more worker (started by the first query)
 * embeds queries only, so a query waits for at most another query, never behind an import
 * (lib/embeddings/README.md "Embeddings"). A query also takes an idle bulk worker when the query
 * worker is busy. The first query starts the query worker alone: the bulk workers start once it
 * has answered (or crashed), or at once when bulk work comes, so its model load does not share
 * the cores with theirs. Without a query worker, the first job of either kind starts the bulk
 * workers. Vectors are re-normalized to unit length, as a cosine index does.
 */
export class UseLiteEmbedder implements Embedder {
  readonly id = USE_LITE_ID;
  readonly dim = DIM;
  private readonly workers: Slot[] = [];
  private readonly queries: Job[] = [];
  private readonly bulk: Job[] = [];
  private nextJob = 1;
  /** Whether the bulk workers may start; held back only while the first query waits for the query worker. */
  private bulkStarts: boolean;
  /**
   * Crashes since a worker last answered, the last one's message, and when a worker may start
   * again: a worker that cannot load (a broken install) is not restarted in a tight loop.
   */
  private crashes = 0;
  private lastCrash = "";
  private restartAt = 0;
  private restartTimer: ReturnType<typeof setTimeout> | null = null;

  /** `workerFile`: the worker script (tests start one that crashes). */
  constructor(
    private readonly workerCount = embeddingWorkerCount(),
    private readonly queryWorker = queryWorkerEnabled(),
    private readonly workerFile = workerPath(),
  ) {
    this.bulkStarts = !queryWorker;
  }

  async embed(texts: readonly string[], options: { priority?: "query" | "bulk" } = {}): Promise<Float32Array[]> {
    assertEmbeddable(texts);
    if (texts.length === 0) return [];
    const queue = options.priority === "bulk" ? this.bulk : this.queries;
    if (queue === this.bulk) this.bulkStarts = true;
    const chunks: Promise<Float32Array>[] = [];
    for (let start = 0; start < texts.length; start += CHUNK) {
      const slice = texts.slice(start, start + CHUNK);
      chunks.push(new Promise((resolve, reject) => queue.push({ id: this.nextJob++, texts: slice, resolve, reject })));
    }
    this.pump();
    const flat = await Promise.all(chunks);
    const out: Float32Array[] = [];
    for (const block of flat) {
      for (let i = 0; i < block.length; i += DIM) out.push(normalize(block.slice(i, i + DIM)));
    }
    return out;
  }

  /**
   * Embeds one query now, so the first recall finds the query worker's model loaded and its first
   * inference done; the bulk workers then start as after any first query. Resolves once answered.
   */
  async warm(): Promise<void> {
    await this.embed(["warm up the query worker"]);
  }

  /** Roles of the running workers, in start order (tests, benchmarks). */
  workerRoles(): ("query" | "bulk")[] {
    return this.workers.map((w) => w.role);
  }

  /** Stops the workers (tests, scripts); the next embed starts them as on a fresh embedder. */
  async close(): Promise<void> {
    const workers = this.workers.splice(0);
    this.bulkStarts = !this.queryWorker;
    if (this.restartTimer) clearTimeout(this.restartTimer);
    this.restartTimer = null;
    this.crashes = 0;
    this.restartAt = 0;
    await Promise.all(workers.map((w) => w.worker.terminate()));
    const orphans = [...workers.flatMap((w) => w.jobs), ...this.queries.splice(0), ...this.bulk.splice(0)];
    for (const job of orphans) job.reject(new EmbeddingServiceError("The embedding workers were stopped.", "unavailable"));
  }

  private pump(): void {
    this.ensureWorkers();
    // Queries first: the query worker when idle, else any bulk worker with nothing in flight, else
    // they queue on the query worker (never behind a bulk chunk).
    while (this.queries.length > 0) {
      const idle =
        this.workers.find((w) => w.role === "query" && w.jobs.length === 0) ??
        this.workers.find((w) => w.role === "bulk" && w.jobs.length === 0);
      if (!idle) break;
      this.post(idle, this.queries.shift()!);
    }
    for (const slot of this.workers) {
      if (slot.role !== "bulk") continue;
      while (slot.jobs.length < BULK_DEPTH && this.bulk.length > 0) this.post(slot, this.bulk.shift()!);
    }
    // No worker is left to wait for: the jobs fail now, with the reason, instead of hanging.
    if (this.workers.length === 0 && Date.now() < this.restartAt) {
      const seconds = Math.ceil((this.restartAt - Date.now()) / 1000);
      const error = new EmbeddingServiceError(
        `The embedding workers keep crashing (${this.lastCrash}); the next try is in ${seconds} s. ` +
          "A broken install is the usual cause: run `npm ci`, or set EMBEDDINGS_BASE_URL to embed elsewhere.",
        "unavailable",
      );
      for (const job of [...this.queries.splice(0), ...this.bulk.splice(0)]) job.reject(error);
    }
  }

  private post(slot: Slot, job: Job): void {
    slot.jobs.push(job);
    slot.worker.ref(); // keep the process alive while a job is in flight
    slot.worker.postMessage({ id: job.id, texts: job.texts });
  }

  /**
   * Starts missing workers: the query worker only once a query comes (bulk-only scripts never load
   * its model), the bulk workers once `bulkStarts` says they may.
   */
  private ensureWorkers(): void {
    for (;;) {
      const bulk = this.workers.filter((w) => w.role === "bulk").length;
      const hasQuery = this.workers.some((w) => w.role === "query");
      const role =
        this.queryWorker && this.queries.length > 0 && !hasQuery
          ? "query"
          : this.bulkStarts && bulk < this.workerCount
            ? "bulk"
            : null;
      if (!role) return;
      if (Date.now() < this.restartAt) return this.startLater();
      const worker = new Worker(this.workerFile);
      const slot: Slot = { worker, role, jobs: [] };
      worker.on("message", (message: { id: number; vectors?: Float32Array; error?: string }) => {
        const at = slot.jobs.findIndex((j) => j.id === message.id);
        const job = at >= 0 ? slot.jobs.splice(at, 1)[0] : undefined;
        if (slot.jobs.length === 0) slot.worker.unref(); // an idle worker must not keep a script from exiting
        if (slot.role === "query") this.bulkStarts = true;
        this.crashes = 0;
        this.restartAt = 0;
        if (job) {
          if (message.vectors) job.resolve(message.vectors);
          else job.reject(new EmbeddingServiceError(`The embedding model failed: ${message.error}`, "unavailable"));
        }
        this.pump();
      });
      worker.on("error", (error) => this.retire(slot, error));
      // An exit without an error (the worker called process.exit) is a crash too; after an error,
      // or once close() took the slot, it is already gone from the list.
      worker.on("exit", (code) => {
        if (this.workers.includes(slot)) this.retire(slot, new Error(`it exited with code ${code}`));
      });
      worker.unref();
      this.workers.push(slot);
    }
  }

  /** Pumps again once workers may start (see `restartAt`). */
  private startLater(): void {
    if (this.restartTimer) return;
    this.restartTimer = setTimeout(
      () => {
        this.restartTimer = null;
        this.pump();
      },
      Math.max(0, this.restartAt - Date.now()),
    );
    this.restartTimer.unref();
  }

  /**
   * A crashed worker fails its in-flight jobs; a fresh one takes its place on the next pump, at
   * once after a first crash, later after each further one until a worker answers again.
   */
  private retire(slot: Slot, error: Error): void {
    const index = this.workers.indexOf(slot);
    if (index >= 0) this.workers.splice(index, 1);
    this.crashes++;
    this.lastCrash = error.message;
    this.restartAt = this.crashes === 1 ? 0 : Date.now() + Math.min(MAX_RESTART_DELAY_MS, 1000 * 2 ** (this.crashes - 2));
    // A query worker that keeps crashing must not leave queries with no other worker to go to.
    if (slot.role === "query") this.bulkStarts = true;
    for (const job of slot.jobs.splice(0)) {
      job.reject(new EmbeddingServiceError(`The embedding worker crashed: ${error.message}`, "unavailable", { cause: error }));
    }
    this.pump();
  }
}

function workerPath(): string {
  // Resolved at run time from the project folder: the worker runs outside Next's bundle.
  return path.join(/* turbopackIgnore: true */ process.cwd(), "lib", "embeddings", "server", "use-lite.worker.mjs");
}
