import type { PrismaClient } from "@prisma/client";
import { randomUUID } from "node:crypto";
import type pg from "pg";

/**
 * Keeps the in-memory indexes of several app instances on one PostgreSQL in step
 * (lib/db/README.md "Database"): every write of the embedded store announces the ids
 * it touched with `pg_notify`, and every instance LISTENs and re-reads those rows into its index
 * (through the store's own add/remove path, never the index internals). PostgreSQL delivers a
 * notification when the writing transaction has committed, so a memory written or deleted
 * through one instance reaches the others' recalls within milliseconds; each recall also waits
 * for the changes already received.
 *
 * PGlite needs none of this: its lock lets one process open the data.
 */
export const MEMORY_CHANGES_CHANNEL = "recall_inspector_memory_changes";
/** PostgreSQL refuses payloads of 8000 bytes or more. */
const MAX_PAYLOAD_CHARS = 7_000;
const RECONNECT_MS = 1_000;

interface Notice {
  origin: string;
  /** The embedded store the ids belong to (ids are unique per store). */
  store: string;
  ids: string[];
}

/** What the sync needs from the store: re-read these ids (present → index, gone → remove). */
export interface SyncTarget {
  refreshMemories(ids: readonly string[]): Promise<void>;
  /** After a lost connection: notifications may have been missed, so read everything again. */
  reloadAll(): Promise<void>;
}

/**
 * One connection per process for every embedded store: notices carry their store, and each open
 * store gets its own (a store not open here ignores them: it reads the table when it opens).
 */
export class MemorySync {
  /** This instance, so its own announcements are not applied twice. */
  readonly origin = randomUUID();
  private client: pg.Client | null = null;
  private readonly stores = new Map<string, StoreSync>();
  private closed = false;

  constructor(
    private readonly url: string,
    private readonly prisma: PrismaClient,
  ) {}

  /** The sync of one store: what it announces and the changes others announced for it. */
  attach(store: string, target: SyncTarget): StoreSync {
    const sync = new StoreSync(store, target, (ids) => this.announce(store, ids));
    this.stores.set(store, sync);
    return sync;
  }

  /** The store was dropped from memory (idle) or deleted: its notices are ignored from now on. */
  detach(store: string, sync: StoreSync): void {
    if (this.stores.get(store) === sync) this.stores.delete(store);
  }

  /** Opens the listening connection. */
  async start(): Promise<void> {
    const { default: pgModule } = await import("pg");
    const client = new pgModule.Client({ connectionString: this.url });
    client.on("notification", (message) => {
      if (message.channel !== MEMORY_CHANGES_CHANNEL || !message.payload) return;
      let notice: Notice;
      try {
        notice = JSON.parse(message.payload) as Notice;
      } catch {
        return;
      }
      if (notice.origin === this.origin || !Array.isArray(notice.ids) || typeof notice.store !== "string") return;
      this.stores.get(notice.store)?.received(notice.ids.filter((id): id is string => typeof id === "string"));
    });
    const lost = () => {
      if (this.client !== client) return;
      this.client = null;
      client.end().catch(() => undefined);
      if (this.closed) return;
      console.warn("Recall Inspector: lost the memory-change connection to PostgreSQL; reconnecting.");
      setTimeout(() => void this.reconnect(), RECONNECT_MS).unref();
    };
    client.on("error", lost);
    client.on("end", lost);
    await client.connect();
    await client.query(`LISTEN ${MEMORY_CHANGES_CHANNEL}`);
    this.client = client;
  }

  private async reconnect(): Promise<void> {
    if (this.closed) return;
    try {
      await this.start();
      // Whatever was announced while we were away is in the database: read it all again.
      for (const sync of this.stores.values()) sync.reloadAll();
    } catch {
      setTimeout(() => void this.reconnect(), RECONNECT_MS).unref();
    }
  }

  /** Tells the other instances which memories of `store` changed (after the write committed). */
  private async announce(store: string, ids: readonly string[]): Promise<void> {
    let batch: string[] = [];
    let chars = 0;
    const send = async () => {
      if (batch.length === 0) return;
      const payload = JSON.stringify({ origin: this.origin, store, ids: batch } satisfies Notice);
      batch = [];
      chars = 0;
      await this.prisma.$executeRaw`SELECT pg_notify(${MEMORY_CHANGES_CHANNEL}, ${payload})`;
    };
    const overhead = JSON.stringify(store).length + 80;
    for (const id of ids) {
      if (overhead + chars + JSON.stringify(id).length + 1 > MAX_PAYLOAD_CHARS) await send();
      batch.push(id);
      chars += JSON.stringify(id).length + 1;
    }
    await send();
  }

  async close(): Promise<void> {
    this.closed = true;
    const client = this.client;
    this.client = null;
    await client?.end().catch(() => undefined);
  }
}

/** One store's side of the sync: the ids others changed, applied before its next recall. */
export class StoreSync {
  private pending = new Set<string>();
  private applying: Promise<void> = Promise.resolve();
  private timer: ReturnType<typeof setTimeout> | null = null;

  constructor(
    readonly store: string,
    private readonly target: SyncTarget,
    /** Tells the other instances which memories of this store changed (after the write committed). */
    readonly announce: (ids: readonly string[]) => Promise<void>,
  ) {}

  received(ids: readonly string[]): void {
    for (const id of ids) this.pending.add(id);
    this.schedule();
  }

  reloadAll(): void {
    this.applying = this.applying.then(() => this.target.reloadAll()).catch(() => undefined);
  }

  /** Applies every change received so far; a recall awaits this before it searches. */
  flush(): Promise<void> {
    if (this.pending.size > 0) {
      const ids = [...this.pending];
      this.pending.clear();
      this.applying = this.applying
        .then(() => this.target.refreshMemories(ids))
        .catch((error: unknown) => {
          // Try these again with the next change or recall rather than lose them.
          for (const id of ids) this.pending.add(id);
          console.warn(`Recall Inspector: could not apply memory changes from another instance (${String(error)}).`);
        });
    }
    return this.applying;
  }

  private schedule(): void {
    if (this.timer) return;
    this.timer = setTimeout(() => {
      this.timer = null;
      void this.flush();
    }, 20);
    this.timer.unref();
  }
}
