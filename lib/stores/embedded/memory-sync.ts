import { randomUUID } from "node:crypto";
import type { PrismaClient } from "@prisma/client";
import type pg from "pg";

/**
 * Keeps the in-memory indexes of several app instances on one PostgreSQL in step
 * (docs/ARCHITECTURE.md, "Database"): every write of the embedded store announces the ids
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
  ids: string[];
}

/** What the sync needs from the store: re-read these ids (present → index, gone → remove). */
export interface SyncTarget {
  refreshMemories(ids: readonly string[]): Promise<void>;
  /** After a lost connection: notifications may have been missed, so read everything again. */
  reloadAll(): Promise<void>;
}

export class MemorySync {
  /** This instance, so its own announcements are not applied twice. */
  readonly origin = randomUUID();
  private client: pg.Client | null = null;
  private pending = new Set<string>();
  private applying: Promise<void> = Promise.resolve();
  private timer: ReturnType<typeof setTimeout> | null = null;
  private closed = false;

  constructor(
    private readonly url: string,
    private readonly prisma: PrismaClient,
    private target: SyncTarget | null = null,
  ) {}

  attach(target: SyncTarget): void {
    this.target = target;
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
      if (notice.origin === this.origin || !Array.isArray(notice.ids)) return;
      for (const id of notice.ids) if (typeof id === "string") this.pending.add(id);
      this.schedule();
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
      this.applying = this.applying.then(() => this.target?.reloadAll()).catch(() => undefined);
    } catch {
      setTimeout(() => void this.reconnect(), RECONNECT_MS).unref();
    }
  }

  /** Tells the other instances which memories changed (after the write committed). */
  async announce(ids: readonly string[]): Promise<void> {
    let batch: string[] = [];
    let chars = 0;
    const send = async () => {
      if (batch.length === 0) return;
      const payload = JSON.stringify({ origin: this.origin, ids: batch } satisfies Notice);
      batch = [];
      chars = 0;
      await this.prisma.$executeRaw`SELECT pg_notify(${MEMORY_CHANGES_CHANNEL}, ${payload})`;
    };
    for (const id of ids) {
      if (chars + id.length + 4 > MAX_PAYLOAD_CHARS) await send();
      batch.push(id);
      chars += JSON.stringify(id).length + 1;
    }
    await send();
  }

  /** Applies every change received so far; a recall awaits this before it searches. */
  flush(): Promise<void> {
    if (this.pending.size > 0) {
      const ids = [...this.pending];
      this.pending.clear();
      this.applying = this.applying
        .then(() => this.target?.refreshMemories(ids))
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

  async close(): Promise<void> {
    this.closed = true;
    const client = this.client;
    this.client = null;
    await client?.end().catch(() => undefined);
  }
}
