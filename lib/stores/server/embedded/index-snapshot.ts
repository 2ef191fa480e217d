/**
 * The embedded store's index on disk, beside the database (lib/stores/server/search-index/README.md "The in-memory
 * index"): a start reads it back instead of re-reading, decoding and re-tokenizing every memory,
 * when it provably matches the table.
 *
 * Validity: `memory_changes` gets one row per committed statement that changed `memories` (a
 * trigger), so its row count is the table's version (with the latest change's time, which tells a
 * recreated database from the one the snapshot was taken of). A snapshot records the version its index
 * reflects, the embedder, the dimension and the keyword analyzer; a start uses it only when all
 * four match, and rebuilds (and writes a new one) otherwise.
 *
 * The file's format, its writing and its reading: snapshot-file.ts.
 */
import type { PrismaClient } from "@prisma/client";
import path from "node:path";
import type { DatabaseConfig } from "@/lib/db/server/config";
import { MemoryIndex, type IndexState } from "../search-index/memory-index";
import { MemoryMetaTable } from "../search-index/memory-meta";
import { readSnapshot, type StoreSnapshot, type Typed } from "../search-index/snapshot-file";

/** A snapshot of `index` with the store's per-memory fields, in index row order. */
export function captureSnapshot(
  version: string,
  embedder: string,
  analyzer: string,
  index: IndexState,
  meta: MemoryMetaTable,
  stale: ReadonlyMap<string, string | null>,
): StoreSnapshot {
  return { version, embedder, analyzer, index, meta: meta.columns(index.ids), stale: [...stale] };
}

/** A snapshot read back into an index, or why not (in words, for the start-up line). */
export type SnapshotRead =
  | { restored: { version: string; index: MemoryIndex; meta: MemoryMetaTable; stale: Map<string, string | null> } }
  | { reason: string };

/**
 * The index in `file` when it was taken with this embedder, dimension and analyzer, rebuilt in
 * memory; its version is not checked yet (checkSnapshotVersion). It needs no database, so a start
 * runs it while the database opens: the file's read and decoding overlap PGlite's start. Never
 * rejects: a damaged file is a reason like any other.
 */
export async function readIndexSnapshot(
  file: string,
  expected: { embedder: string; dim: number; analyzer: string },
): Promise<SnapshotRead> {
  let refused = null as string | null;
  try {
    let target: MemoryIndex | undefined;
    const snapshot = await readSnapshot(
      file,
      // Checked on the header, before the arrays (hundreds of MiB) are read.
      (header) => {
        if (header.embedder !== expected.embedder || header.dim !== expected.dim) refused = "the embedder changed";
        else if (header.analyzer !== expected.analyzer) refused = "the keyword analyzer changed";
        return refused === null;
      },
      // The vectors go straight into the new index's WebAssembly memory: no second copy of them.
      (header) => {
        const { index, views } = MemoryIndex.forState(
          header.dim,
          header.shardRows,
          header.matrix.map((m) => m.rows),
        );
        target = index;
        return new Map(
          views.flatMap((v, i): [string, Typed][] => [
            [`m${i}.f32`, v.f32],
            [`m${i}.i8`, v.i8],
          ]),
        );
      },
    );
    if (refused) return { reason: refused };
    if (!snapshot) return { reason: "no snapshot yet" };
    const { index, meta, stale } = snapshot;
    return {
      restored: {
        version: snapshot.version,
        index: MemoryIndex.fromState(index, target),
        meta: MemoryMetaTable.fromColumns(index.ids, index.types, index.tags, meta),
        stale: new Map(stale),
      },
    };
  } catch (error) {
    return { reason: `the snapshot could not be read (${error instanceof Error ? error.message : String(error)})` };
  }
}

/** `read` when the table is still at the version it was taken at, else why not. */
export async function checkSnapshotVersion(
  read: Promise<SnapshotRead>,
  prisma: PrismaClient,
  store: string,
): Promise<SnapshotRead> {
  // No count(*) of memories beside it: the version moves with every change by construction, and
  // counting 1M rows would cost a second at start.
  const [found, version] = await Promise.all([read, memoryVersion(prisma, store)]);
  if ("restored" in found && found.restored.version !== version) return { reason: "memories changed since" };
  return found;
}

/**
 * A store's version: how many committed statements changed its memories (see the file comment),
 * counting the rows that name no store (a TRUNCATE, or changes from before stores were named).
 */
export async function memoryVersion(prisma: PrismaClient, store: string): Promise<string> {
  // The count moves with every committed change; the latest change's time tells two databases
  // apart that went through as many changes (a test database recreated beside an old snapshot).
  const [row] = await prisma.$queryRaw<{ version: string }[]>`
    SELECT count(*)::text || '@' || coalesce((extract(epoch FROM max("at")) * 1000)::bigint::text, '-') AS "version"
    FROM "memory_changes" WHERE "store" = ${store} OR "store" IS NULL`;
  return row?.version ?? "0@-";
}

/**
 * Where the snapshot lives: `INDEX_SNAPSHOT` when it names a file, none when it is `off`;
 * by default beside a PGlite data directory (`<dir>.index-snapshot`), none for PostgreSQL
 * (several instances, and no folder that belongs to the database).
 */
export function snapshotPath(config: DatabaseConfig, env: Readonly<Record<string, string | undefined>>): string | null {
  const setting = env.INDEX_SNAPSHOT?.trim();
  if (setting === "off") return null;
  if (setting) return path.resolve(/* turbopackIgnore: true */ setting);
  if (config.kind !== "pglite") return null;
  return path.join(path.dirname(config.dataDir), `${path.basename(config.dataDir)}.index-snapshot`);
}

/**
 * One store's snapshot file: `embedded`, the store a database had before stores were named, keeps
 * the path it always had (its snapshot stays valid across the upgrade); any other store's name is
 * appended, escaped so that no name can reach another folder or another store's file.
 */
export function storeSnapshotPath(base: string | null, store: string): string | null {
  if (!base) return null;
  if (store === "embedded") return base;
  const escaped = encodeURIComponent(store).replace(/[.!'()*~]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);
  return `${base}.${escaped}`;
}
