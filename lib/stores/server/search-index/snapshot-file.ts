/**
 * The index snapshot's file (lib/stores/embedded/index-snapshot.ts says when it is valid and used).
 *
 * Layout: 8-byte magic, u32 length of a JSON header, u32 0, the header (the ids, keyword terms,
 * each distinct type and tag set, and the array directory), then each typed array's bytes
 * (little-endian, 8-byte aligned) in directory order. Everything per memory but its id is an
 * array: types and tag sets as codes into the header's lists, summaries as one UTF-8 column,
 * keyword documents as rows, so a read allocates almost nothing per memory (a start at 100k spent
 * a fifth of its time collecting the objects the JSON of format 2 made). Written to a temporary
 * name and renamed, so a reader sees a whole file or none.
 */
import fs from "node:fs";
import path from "node:path";
import type { IndexState } from "./memory-index";
import type { MetaColumns } from "./memory-meta";

const MAGIC = Buffer.from("RISNAP\u0000\u0001", "latin1");
const FORMAT = 3;

/** Everything the store needs to answer recalls as it did when the snapshot was taken. */
export interface StoreSnapshot {
  /** `memory_changes` when the index matched the table: its row count and latest time (memoryVersion). */
  version: string;
  embedder: string;
  analyzer: string;
  index: IndexState;
  /** Per index row. */
  meta: MetaColumns;
  /** Memories without a usable vector: id → the model they were embedded with (null: none). */
  stale: [string, string | null][];
}

export type Typed = Uint8Array | Int8Array | Int32Array | Float32Array | Float64Array;
const TYPES = { u8: Uint8Array, i8: Int8Array, i32: Int32Array, f32: Float32Array, f64: Float64Array } as const;
type TypeName = keyof typeof TYPES;

function typeName(a: Typed): TypeName {
  if (a instanceof Uint8Array) return "u8";
  if (a instanceof Int8Array) return "i8";
  if (a instanceof Int32Array) return "i32";
  if (a instanceof Float32Array) return "f32";
  return "f64";
}

/**
 * Repeated values stored once: `names` holds each distinct value (by `key`), `codes[r]` row r's.
 * Types and tag sets repeat across memories, so a restore shares one string or array per value.
 */
function dictionary<T>(values: readonly T[], key: (value: T) => string): { names: T[]; codes: Int32Array } {
  const codeOf = new Map<string, number>();
  const names: T[] = [];
  const codes = new Int32Array(values.length);
  values.forEach((value, r) => {
    const k = key(value);
    let code = codeOf.get(k);
    if (code === undefined) {
      code = names.push(value) - 1;
      codeOf.set(k, code);
    }
    codes[r] = code;
  });
  return { names, codes };
}

export async function writeSnapshot(file: string, snapshot: StoreSnapshot): Promise<{ bytes: number }> {
  const { index, meta } = snapshot;
  const k = index.keyword;
  const types = dictionary(index.types, (type) => type);
  const tagSets = dictionary(index.tags, (tags) => JSON.stringify(tags));
  // A live keyword document is a row's memory: its key is written as that row (-1: removed).
  const rowOf = new Map(index.ids.map((id, row) => [id, row]));
  const keyRows = Int32Array.from(k.keys, (key) => (key === null ? -1 : (rowOf.get(key) ?? -2)));
  if (keyRows.includes(-2)) throw new Error("a keyword document is not a memory of the index");
  const arrays: [string, Typed][] = [
    ...index.matrix.flatMap((m, i): [string, Typed][] => [
      [`m${i}.f32`, m.f32],
      [`m${i}.i8`, m.i8],
      [`m${i}.present`, m.present],
      [`m${i}.scale`, m.scale],
      [`m${i}.residual`, m.residual],
      [`m${i}.quantNorm`, m.quantNorm],
    ]),
    ["kw.listStart", k.listStart],
    ["kw.listInts", k.listInts],
    ["kw.listMinLen", k.listMinLen],
    ["kw.docs", k.docs],
    ["kw.tfs", k.tfs],
    ["kw.lengths", k.lengths],
    ["kw.docTermStart", k.docTermStart],
    ["kw.docTermIds", k.docTermIds],
    ["kw.keyRows", keyRows],
    ["rows.type", types.codes],
    ["rows.tagSet", tagSets.codes],
    ["meta.summaryBytes", meta.summaryBytes],
    ["meta.summaryStart", meta.summaryStart],
    ["meta.importance", meta.importance],
    ["meta.createdAt", meta.createdAt],
    ["meta.updatedAt", meta.updatedAt],
  ];
  const header = Buffer.from(
    JSON.stringify({
      format: FORMAT,
      version: snapshot.version,
      embedder: snapshot.embedder,
      analyzer: snapshot.analyzer,
      dim: index.dim,
      shardRows: index.shardRows,
      matrix: index.matrix.map((m) => ({ rows: m.rows, maxResidual: m.maxResidual, maxNorm: m.maxNorm })),
      ids: index.ids,
      typeNames: types.names,
      tagSets: tagSets.names,
      keyword: { terms: k.terms, count: k.count, avgLength: k.avgLength },
      stale: snapshot.stale,
      arrays: arrays.map(([name, a]) => ({ name, type: typeName(a), length: a.length })),
    }),
  );
  fs.mkdirSync(path.dirname(file), { recursive: true });
  removeAbandonedWrites(file);
  const temp = `${file}.${process.pid}.tmp`;
  const handle = await fs.promises.open(temp, "w");
  let position = 0;
  const write = async (bytes: Uint8Array) => {
    for (let at = 0; at < bytes.length;) {
      const { bytesWritten } = await handle.write(bytes, at, Math.min(bytes.length - at, 1 << 30), position);
      at += bytesWritten;
      position += bytesWritten;
    }
  };
  const pad = async () => {
    if (position % 8 !== 0) await write(new Uint8Array(8 - (position % 8)));
  };
  try {
    const lengths = Buffer.alloc(8);
    lengths.writeUInt32LE(header.length, 0);
    await write(MAGIC);
    await write(lengths);
    await write(header);
    await pad();
    for (const [, a] of arrays) {
      await write(new Uint8Array(a.buffer, a.byteOffset, a.byteLength));
      await pad();
    }
    await handle.sync();
  } catch (error) {
    await handle.close();
    fs.rmSync(temp, { force: true });
    throw error;
  }
  await handle.close();
  fs.renameSync(temp, file);
  return { bytes: position };
}

/**
 * Removes the temporary files of writes whose process is gone (a server stopped or killed while
 * writing): each is as large as the snapshot, and nothing else would ever delete it.
 */
function removeAbandonedWrites(file: string): void {
  const dir = path.dirname(file);
  const prefix = `${path.basename(file)}.`;
  for (const name of fs.readdirSync(dir)) {
    const pid = name.startsWith(prefix) && name.endsWith(".tmp") ? Number(name.slice(prefix.length, -4)) : NaN;
    if (!Number.isInteger(pid) || pid <= 0 || pid === process.pid || processAlive(pid)) continue;
    fs.rmSync(path.join(dir, name), { force: true });
  }
}

function processAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    // EPERM: alive, another user's.
    return (error as NodeJS.ErrnoException).code === "EPERM";
  }
}

/**
 * The snapshot in `file`; null when there is none, or when `accept` turns its header down.
 * `into` may name, for an accepted header, where some arrays are to be read (views of the same
 * type and length; the index's WebAssembly memory), instead of new arrays. Throws on a damaged or
 * foreign file.
 */
export async function readSnapshot(
  file: string,
  accept: (header: { version: string; embedder: string; analyzer: string; dim: number }) => boolean = () => true,
  into?: (header: { dim: number; shardRows: number; matrix: { rows: number }[] }) => ReadonlyMap<string, Typed>,
): Promise<StoreSnapshot | null> {
  let handle: fs.promises.FileHandle;
  try {
    handle = await fs.promises.open(file, "r");
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return null;
    throw error;
  }
  try {
    const { size } = await handle.stat();
    let position = 0;
    const read = async (into: Uint8Array) => {
      if (position + into.length > size) throw new Error("the snapshot file is truncated");
      for (let at = 0; at < into.length;) {
        const { bytesRead } = await handle.read(into, at, Math.min(into.length - at, 1 << 30), position);
        if (bytesRead === 0) throw new Error("the snapshot file is truncated");
        at += bytesRead;
        position += bytesRead;
      }
    };
    const start = Buffer.alloc(16);
    await read(start);
    if (!start.subarray(0, 8).equals(MAGIC)) throw new Error("not an index snapshot");
    const header = Buffer.alloc(start.readUInt32LE(8));
    await read(header);
    const h = JSON.parse(header.toString("utf8")) as SnapshotHeader;
    if (h.format !== FORMAT) throw new Error(`snapshot format ${String(h.format)}, expected ${FORMAT}`);
    if (!accept(h)) return null;
    const destinations = into?.(h);
    const arrays = new Map<string, Typed>();
    for (const { name, type, length } of h.arrays) {
      position = Math.ceil(position / 8) * 8;
      const given = destinations?.get(name);
      if (given && (typeName(given) !== type || given.length !== length)) {
        throw new Error(`the snapshot's ${name} (${length} ${type}) does not fit its header`);
      }
      const a = given ?? new TYPES[type](length);
      await read(new Uint8Array(a.buffer, a.byteOffset, a.byteLength));
      arrays.set(name, a);
    }
    const get = <T extends Typed>(name: string) => {
      const a = arrays.get(name);
      if (!a) throw new Error(`the snapshot has no ${name}`);
      return a as T;
    };
    const decode = <T>(names: readonly T[], codes: Int32Array): T[] => {
      if (codes.length !== h.ids.length) throw new Error("the snapshot's rows and ids disagree");
      return Array.from(codes, (code) => {
        if (code < 0 || code >= names.length) throw new Error("the snapshot refers to a value it does not hold");
        return names[code]!;
      });
    };
    return {
      version: h.version,
      embedder: h.embedder,
      analyzer: h.analyzer,
      index: {
        dim: h.dim,
        shardRows: h.shardRows,
        ids: h.ids,
        types: decode(h.typeNames, get<Int32Array>("rows.type")),
        tags: decode(h.tagSets, get<Int32Array>("rows.tagSet")),
        matrix: h.matrix.map((m, i) => ({
          ...m,
          f32: get<Float32Array>(`m${i}.f32`),
          i8: get<Int8Array>(`m${i}.i8`),
          present: get<Uint8Array>(`m${i}.present`),
          scale: get<Float64Array>(`m${i}.scale`),
          residual: get<Float64Array>(`m${i}.residual`),
          quantNorm: get<Float64Array>(`m${i}.quantNorm`),
        })),
        keyword: {
          terms: h.keyword.terms,
          keys: Array.from(get<Int32Array>("kw.keyRows"), (row) => {
            if (row >= h.ids.length) throw new Error("the snapshot's keyword documents and ids disagree");
            return row < 0 ? null : h.ids[row]!;
          }),
          count: h.keyword.count,
          avgLength: h.keyword.avgLength,
          listStart: get<Int32Array>("kw.listStart"),
          listInts: get<Int32Array>("kw.listInts"),
          listMinLen: get<Float64Array>("kw.listMinLen"),
          docs: get<Int32Array>("kw.docs"),
          tfs: get<Int32Array>("kw.tfs"),
          lengths: get<Int32Array>("kw.lengths"),
          docTermStart: get<Int32Array>("kw.docTermStart"),
          docTermIds: get<Int32Array>("kw.docTermIds"),
        },
      },
      meta: {
        summaryBytes: get<Uint8Array>("meta.summaryBytes"),
        summaryStart: get<Int32Array>("meta.summaryStart"),
        importance: get<Float64Array>("meta.importance"),
        createdAt: get<Float64Array>("meta.createdAt"),
        updatedAt: get<Float64Array>("meta.updatedAt"),
      },
      stale: h.stale,
    };
  } finally {
    await handle.close();
  }
}

interface SnapshotHeader {
  format: number;
  version: string;
  embedder: string;
  analyzer: string;
  dim: number;
  shardRows: number;
  matrix: { rows: number; maxResidual: number; maxNorm: number }[];
  ids: string[];
  typeNames: string[];
  tagSets: string[][];
  keyword: { terms: string[]; count: number; avgLength: number };
  stale: [string, string | null][];
  arrays: { name: string; type: TypeName; length: number }[];
}
