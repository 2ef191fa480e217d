/** What the store keeps in memory about each memory, to answer recalls without a query. */
export interface MemoryMeta {
  summary: string;
  type: string;
  tags: string[];
  importance: number;
  createdAt: Date;
  updatedAt: Date | null;
}

/**
 * The per-memory fields the store shows in results (summary, importance, dates), as the index
 * snapshot keeps them: columns in index row order (lib/stores/embedded/index-snapshot.ts). Type and tags
 * are the index's own (IndexState), so they are not repeated here.
 */
export interface MetaColumns {
  /** Every summary's UTF-8, back to back; row r's is [summaryStart[r], summaryStart[r + 1]). */
  summaryBytes: Uint8Array;
  summaryStart: Int32Array;
  importance: Float64Array;
  /** Milliseconds since the epoch. */
  createdAt: Float64Array;
  /** Milliseconds since the epoch; NaN when never updated. */
  updatedAt: Float64Array;
}

/** The columns a table was restored from, with the type and tags of the same rows. */
interface Restored {
  columns: MetaColumns;
  types: readonly string[];
  tags: readonly (readonly string[])[];
}

const utf8 = new TextDecoder();

/**
 * The store's per-memory fields by id. A table read back from a snapshot keeps the snapshot's
 * columns and builds a memory's fields when they are asked for, so a start creates no object per
 * memory (lib/stores/server/search-index/README.md "The in-memory index": a restore allocated 100k objects and 200k
 * dates, and collecting them was a fifth of the start); a memory written since holds its fields.
 */
export class MemoryMetaTable {
  /** A memory's fields, or its row in `restored` while it is unchanged since the restore. */
  private readonly entries = new Map<string, MemoryMeta | number>();
  private restored: Restored | null = null;

  /** A table holding row r's fields for ids[r] (the arrays are adopted, not copied). */
  static fromColumns(
    ids: readonly string[],
    types: readonly string[],
    tags: readonly (readonly string[])[],
    columns: MetaColumns,
  ): MemoryMetaTable {
    const n = ids.length;
    for (const column of [columns.importance, columns.createdAt, columns.updatedAt, types, tags]) {
      if (column.length !== n) throw new Error("the memory fields and ids disagree");
    }
    if (columns.summaryStart.length !== n + 1 || columns.summaryStart[n] !== columns.summaryBytes.length) {
      throw new Error("the summaries and ids disagree");
    }
    const table = new MemoryMetaTable();
    table.restored = { columns, types, tags };
    for (let row = 0; row < n; row++) table.entries.set(ids[row]!, row);
    return table;
  }

  get size(): number {
    return this.entries.size;
  }

  has(id: string): boolean {
    return this.entries.has(id);
  }

  keys(): IterableIterator<string> {
    return this.entries.keys();
  }

  get(id: string): MemoryMeta | undefined {
    const entry = this.entries.get(id);
    if (typeof entry !== "number") return entry;
    const { columns, types, tags } = this.restored!;
    const updatedAt = columns.updatedAt[entry]!;
    return {
      summary: this.summaryAt(entry),
      type: types[entry]!,
      tags: [...tags[entry]!],
      importance: columns.importance[entry]!,
      createdAt: new Date(columns.createdAt[entry]!),
      updatedAt: Number.isNaN(updatedAt) ? null : new Date(updatedAt),
    };
  }

  set(id: string, meta: MemoryMeta): void {
    this.entries.set(id, meta);
  }

  delete(id: string): void {
    this.entries.delete(id);
  }

  /**
   * The fields of `ids`, in that order, as columns (a snapshot): a restored row's summary bytes
   * are copied as they are, without decoding them. Every id must be in the table.
   */
  columns(ids: readonly string[]): MetaColumns {
    const n = ids.length;
    const entries = ids.map((id) => {
      const entry = this.entries.get(id);
      if (entry === undefined) throw new Error(`no fields for memory ${id}`);
      return entry;
    });
    const encoded = entries.map((e) => (typeof e === "number" ? null : Buffer.from(e.summary, "utf8")));
    const summaryStart = new Int32Array(n + 1);
    const from = this.restored?.columns;
    for (let r = 0; r < n; r++) {
      const e = entries[r]!;
      const length = typeof e === "number" ? from!.summaryStart[e + 1]! - from!.summaryStart[e]! : encoded[r]!.length;
      summaryStart[r + 1] = summaryStart[r]! + length;
    }
    const out: MetaColumns = {
      summaryBytes: new Uint8Array(summaryStart[n]!),
      summaryStart,
      importance: new Float64Array(n),
      createdAt: new Float64Array(n),
      updatedAt: new Float64Array(n),
    };
    for (let r = 0; r < n; r++) {
      const e = entries[r]!;
      if (typeof e === "number") {
        out.summaryBytes.set(from!.summaryBytes.subarray(from!.summaryStart[e]!, from!.summaryStart[e + 1]!), summaryStart[r]!);
        out.importance[r] = from!.importance[e]!;
        out.createdAt[r] = from!.createdAt[e]!;
        out.updatedAt[r] = from!.updatedAt[e]!;
      } else {
        out.summaryBytes.set(encoded[r]!, summaryStart[r]!);
        out.importance[r] = e.importance;
        out.createdAt[r] = e.createdAt.getTime();
        out.updatedAt[r] = e.updatedAt ? e.updatedAt.getTime() : NaN;
      }
    }
    return out;
  }

  private summaryAt(row: number): string {
    const { summaryBytes, summaryStart } = this.restored!.columns;
    return utf8.decode(summaryBytes.subarray(summaryStart[row]!, summaryStart[row + 1]!));
  }
}
