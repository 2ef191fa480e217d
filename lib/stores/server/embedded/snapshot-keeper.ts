import { writeSnapshot, type StoreSnapshot } from "../search-index/snapshot-file";

/**
 * When the embedded store writes its index snapshot (lib/stores/embedded/index-snapshot.ts): at once
 * after a start-up rebuild that saw the table unchanged, and, for a single instance, again once
 * writes pause. A snapshot is only valid for a version the index provably equals, so writes are
 * counted: a version read while none ran, and none started or ended meanwhile, is the state of
 * the index (this process made every change, and each is in the index when its write ends).
 */
export class SnapshotKeeper {
  private writes = 0;
  /** Bumped at every write start and end. */
  private generation = 0;
  private timer: ReturnType<typeof setTimeout> | null = null;
  private pending: Promise<void> = Promise.resolve();

  constructor(
    private readonly file: string,
    private readonly version: () => Promise<string>,
    private readonly capture: (version: string) => StoreSnapshot,
    private readonly options: { afterWrites: boolean; delayMs: number },
  ) {}

  /** Runs a write; afterwards a rewrite is scheduled. */
  async tracked<T>(write: () => Promise<T>): Promise<T> {
    this.writes++;
    this.generation++;
    try {
      return await write();
    } finally {
      this.writes--;
      this.generation++;
      this.schedule();
    }
  }

  /** Captures the index now (synchronously) as the state at `version` and writes it in the background. */
  save(version: string): void {
    const snapshot = this.capture(version);
    this.pending = this.pending
      .then(() => writeSnapshot(this.file, snapshot))
      .then(
        () => undefined,
        (error: unknown) =>
          console.warn(
            `Recall Inspector: could not write the index snapshot ${this.file} (${String(error)}); the next start rebuilds the index.`,
          ),
      );
  }

  /** Settles when no write of the snapshot is scheduled or running. */
  async written(): Promise<void> {
    for (;;) {
      const pending = this.pending;
      await pending;
      if (!this.timer && pending === this.pending) return;
      if (this.timer) {
        clearTimeout(this.timer);
        this.timer = null;
        await this.refresh();
      }
    }
  }

  private schedule(): void {
    if (!this.options.afterWrites || this.timer) return;
    this.timer = setTimeout(() => {
      this.timer = null;
      void this.refresh();
    }, this.options.delayMs);
    this.timer.unref();
  }

  private async refresh(): Promise<void> {
    const generation = this.generation;
    if (this.writes > 0) return this.schedule();
    let version: string;
    try {
      version = await this.version();
    } catch {
      return this.schedule();
    }
    // A write started, ran or ended while the version was read: try again after it.
    if (this.writes > 0 || generation !== this.generation) return this.schedule();
    this.save(version);
  }
}
