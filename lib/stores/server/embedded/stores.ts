import type { PrismaClient } from "@prisma/client";
import type { Embedder } from "@/lib/embeddings/types";
import type { RerankConfig } from "@/lib/rerank/config";
import { EmbeddedStore } from "./embedded-store";
import { readIndexSnapshot, storeSnapshotPath } from "./index-snapshot";
import type { MemorySync } from "./memory-sync";
import { StoreCatalog, type EmbeddedStoreRow } from "./store-catalog";
import type { CreateStoreBody } from "../../store-schemas";
import { StoreError } from "../../types";
import { KEYWORD_ANALYZER } from "../search-index/memory-index";

export interface EmbeddedStoresOptions {
  sync?: MemorySync;
  reranker: RerankConfig | null;
  /** The snapshot path stores' files are named after (index-snapshot.ts); none: always rebuild. */
  snapshotBase: string | null;
  /** A store not recalled, written or read for this long is dropped from memory; 0: never. */
  idleMs: number;
  log?: (line: string) => void;
}

interface OpenStore {
  store: Promise<EmbeddedStore>;
  lastUsed: number;
}

/**
 * The process's embedded stores (lib/stores/server/embedded/README.md "Embedded stores"): each is opened on its
 * first use — its index read from its snapshot or rebuilt from its rows, with the time in the log
 * line — and dropped after `idleMs` without use, so a store nobody recalls holds no memory.
 */
export class EmbeddedStores {
  readonly catalog: StoreCatalog;
  private readonly open = new Map<string, OpenStore>();
  private sweeper: ReturnType<typeof setInterval> | null = null;

  constructor(
    private readonly prisma: PrismaClient,
    readonly embedder: Embedder,
    private readonly options: EmbeddedStoresOptions,
  ) {
    this.catalog = new StoreCatalog(prisma);
    if (options.idleMs > 0) {
      this.sweeper = setInterval(() => void this.dropIdle(), Math.min(options.idleMs, 60_000));
      this.sweeper.unref();
    }
  }

  /**
   * The store named `name`, opened if it is not.
   * @throws StoreError 404 `unknown_store` when there is no such embedded store.
   */
  async get(name: string): Promise<EmbeddedStore> {
    const held = this.open.get(name);
    if (held) {
      held.lastUsed = Date.now();
      return held.store;
    }
    const row = await this.catalog.find(name);
    if (!row)
      throw unknownStore(
        name,
        (await this.catalog.list()).map((r) => r.name),
      );
    return this.openStore(name);
  }

  /** Whether the store is in memory now (GET /api/stores says so; the benchmark reads it). */
  isOpen(name: string): boolean {
    return this.open.has(name);
  }

  /** A store named in the catalog, opened without the catalog read (a store just created). */
  private openStore(name: string): Promise<EmbeddedStore> {
    const again = this.open.get(name);
    if (again) return again.store;
    const entry: OpenStore = { store: this.load(name), lastUsed: Date.now() };
    this.open.set(name, entry);
    entry.store.catch(() => {
      if (this.open.get(name) === entry) this.open.delete(name);
    });
    return entry.store;
  }

  private async load(name: string): Promise<EmbeddedStore> {
    const snapshot = storeSnapshotPath(this.options.snapshotBase, name);
    const store = new EmbeddedStore(this.prisma, this.embedder, {
      name,
      createRecord: false,
      sync: this.options.sync,
      reranker: this.options.reranker,
      snapshot,
      snapshotRead: snapshot
        ? readIndexSnapshot(snapshot, { embedder: this.embedder.id, dim: this.embedder.dim, analyzer: KEYWORD_ANALYZER })
        : undefined,
    });
    const { memories, ms, source, reason } = await store.open();
    this.options.log?.(
      source === "snapshot"
        ? `Recall Inspector: store "${name}" loaded from its snapshot (${memories} memories, ${Math.round(ms)} ms).`
        : `Recall Inspector: store "${name}" index built (${memories} memories, ${Math.round(ms)} ms${reason ? `; ${reason}` : ""}).`,
    );
    return store;
  }

  /** Creates the store (empty, so it opens at once). @throws StoreError 409 when the name is taken. */
  create(body: CreateStoreBody): Promise<EmbeddedStoreRow> {
    return this.catalog.create(body, this.embedder.id);
  }

  /** Creates the store if it does not exist, then opens it (first starts; the default store's first write). */
  async ensure(name: string, description: string | null = null): Promise<EmbeddedStore> {
    await this.catalog.ensure(name, this.embedder.id, description);
    return this.openStore(name);
  }

  /** Deletes the store with its memories, and lets go of its index. */
  async delete(name: string): Promise<{ deleted: boolean; memories: number }> {
    const result = await this.catalog.delete(name);
    await this.drop(name);
    return result;
  }

  /** Lets go of a store's index (it opens again on its next use). */
  async drop(name: string): Promise<void> {
    const held = this.open.get(name);
    if (!held) return;
    this.open.delete(name);
    const store = await held.store.catch(() => null);
    await store?.close();
  }

  /** Drops every store unused for `idleMs`. */
  async dropIdle(now = Date.now()): Promise<string[]> {
    const idle = [...this.open].filter(([, held]) => now - held.lastUsed >= this.options.idleMs).map(([name]) => name);
    for (const name of idle) {
      await this.drop(name);
      this.options.log?.(
        `Recall Inspector: store "${name}" dropped from memory after ${Math.round(this.options.idleMs / 60_000)} min unused.`,
      );
    }
    return idle;
  }

  /** Every open store's index released (tests, shutdown). */
  async close(): Promise<void> {
    if (this.sweeper) clearInterval(this.sweeper);
    for (const name of [...this.open.keys()]) await this.drop(name);
  }
}

export function unknownStore(name: string, known: readonly string[]): StoreError {
  return new StoreError(
    404,
    "unknown_store",
    `There is no store named "${name}"; the stores are: ${known.length ? known.join(", ") : "none yet"}.`,
    { store: name, stores: [...known] },
  );
}
