import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { captureSnapshot, readIndexSnapshot } from "./index-snapshot";
import { MemoryIndex } from "../search-index/memory-index";
import type { MemoryMeta } from "../search-index/memory-meta";
import { MemoryMetaTable } from "../search-index/memory-meta";
import { readSnapshot, writeSnapshot } from "../search-index/snapshot-file";
import { rng } from "../search-index/test-fixtures";

const WORDS =
  "deploy token expired storm fixed refresh postgres billing jsonb standup berlin coffee oat milk editor neovim allergies cats".split(
    " ",
  );

function memory(i: number, dim: number, random: () => number) {
  const words = Array.from({ length: 3 + Math.floor(random() * 12) }, () => WORDS[Math.floor(random() * WORDS.length)]!);
  const vector = i % 10 === 3 ? null : Float32Array.from({ length: dim }, () => random() - 0.5);
  if (vector) {
    const n = Math.hypot(...vector);
    vector.forEach((x, j) => (vector[j] = x / n));
  }
  return {
    id: `m${i}`,
    vector,
    text: `${words.join(" ")} the and of`,
    type: ["fact", "note"][i % 2]!,
    tags: i % 3 ? ["a"] : ["a", "b"],
  };
}

const scratch = fs.mkdtempSync(path.join(os.tmpdir(), "index-snapshot-"));
afterAll(() => fs.rmSync(scratch, { recursive: true, force: true }));

/** Every question a recall asks of the index, answered by both. */
function expectSameAnswers(a: MemoryIndex, b: MemoryIndex, random: () => number, dim: number) {
  expect(b.size).toBe(a.size);
  expect(b.vectorCount).toBe(a.vectorCount);
  for (let trial = 0; trial < 4; trial++) {
    const q = memory(1000 + trial * 10, dim, random);
    const query = q.vector!;
    for (const scan of ["f32", "int8"] as const) {
      expect(b.semanticTop(query, 25, undefined, { scan })).toEqual(a.semanticTop(query, 25, undefined, { scan }));
      expect(b.semanticTop(query, 25, { types: ["fact"], tags: ["b"] }, { scan })).toEqual(
        a.semanticTop(query, 25, { types: ["fact"], tags: ["b"] }, { scan }),
      );
    }
    const text = q.text.split(" ").slice(0, 3).join(" ");
    for (const prune of [true, false])
      expect(b.keywordTop(text, 30, undefined, { prune })).toEqual(a.keywordTop(text, 30, undefined, { prune }));
    expect(b.keywordTop(text, 30, { tags: ["b"] })).toEqual(a.keywordTop(text, 30, { tags: ["b"] }));
    for (const id of ["m1", "m4", "m13", "m250"]) {
      expect(b.keywordScoreOf(text, id)).toBe(a.keywordScoreOf(text, id));
      expect(b.cosineOf(query, id)).toBe(a.cosineOf(query, id));
      expect(b.entry(id)).toEqual(a.entry(id));
    }
  }
}

describe("index snapshot", () => {
  it("restores an index that answers every arm exactly as the one it was taken from, and keeps doing so after more writes", async () => {
    const dim = 16;
    const random = rng(11);
    const original = new MemoryIndex(dim);
    for (let i = 0; i < 300; i++) original.upsert([memory(i, dim, random)]);
    // Removals leave dead posting entries, swapped rows and a moved running average behind.
    original.remove(["m0", "m17", "m42", "m299", "m5"]);
    original.upsert([{ ...memory(17, dim, random), id: "m17" }]);

    const meta = new MemoryMetaTable();
    const expected = new Map<string, MemoryMeta>();
    for (let row = 0; row < original.size; row++) {
      const id = original.idAt(row);
      expected.set(id, {
        summary: row % 7 ? `summary of ${id}` : `Café — 東京 🎉 ${id}`,
        type: original.entry(id)!.type,
        tags: [...original.entry(id)!.tags],
        importance: row / 1000,
        createdAt: new Date(1_700_000_000_000 + row),
        updatedAt: row % 2 ? null : new Date(1_800_000_000_000 + row),
      });
      meta.set(id, expected.get(id)!);
    }
    const stale = new Map<string, string | null>([
      ["m3", null],
      ["m13", "text-embedding-3-small"],
    ]);
    const file = path.join(scratch, "a", "index.snapshot");
    await writeSnapshot(file, captureSnapshot("42", "use-lite", "en-porter-1", original.exportState(), meta, stale));
    const read = (await readSnapshot(file))!;
    expect({ version: read.version, embedder: read.embedder, analyzer: read.analyzer }).toEqual({
      version: "42",
      embedder: "use-lite",
      analyzer: "en-porter-1",
    });
    const restored = MemoryIndex.fromState(read.index);
    expectSameAnswers(original, restored, rng(5), dim);

    const found = await readIndexSnapshot(file, { embedder: "use-lite", dim, analyzer: "en-porter-1" });
    if (!("restored" in found)) throw new Error(found.reason);
    expect([...found.restored.meta.keys()].sort()).toEqual([...expected.keys()].sort());
    for (const [id, fields] of expected) expect(found.restored.meta.get(id)).toEqual(fields);
    expect(found.restored.stale).toEqual(stale);

    // Both go on taking the same writes: the restored lists grow and compact as the originals do.
    const more = rng(77);
    for (let i = 300; i < 340; i++) {
      const m = memory(i, dim, more);
      original.upsert([m]);
      restored.upsert([m]);
    }
    for (const id of ["m1", "m2", "m310", "m100"]) {
      original.remove([id]);
      restored.remove([id]);
    }
    expectSameAnswers(original, restored, rng(6), dim);
  });

  it("keeps a sharded index's shards, rows and int8 bounds", async () => {
    const dim = 8;
    const random = rng(21);
    const index = new MemoryIndex(dim, { shardRows: 40 });
    for (let i = 0; i < 150; i++) index.upsert([memory(i, dim, random)]);
    index.remove(["m5", "m77"]);
    const file = path.join(scratch, "shards.snapshot");
    const meta = new MemoryMetaTable();
    for (let row = 0; row < index.size; row++) {
      meta.set(index.idAt(row), {
        summary: "",
        type: "note",
        tags: [],
        importance: 0.5,
        createdAt: new Date(0),
        updatedAt: null,
      });
    }
    await writeSnapshot(file, captureSnapshot("1", "e", "x", index.exportState(), meta, new Map()));
    const state = (await readSnapshot(file))!.index;
    expect(state.matrix.map((m) => m.rows)).toEqual([40, 40, 40, 28]);
    const restored = MemoryIndex.fromState(state);
    expectSameAnswers(index, restored, rng(22), dim);
    for (let row = 0; row < index.size; row++)
      expect(restored.vectorOf(index.idAt(row))).toEqual(index.vectorOf(index.idAt(row)));

    // Read straight into the shards' WebAssembly memories (the start's path): the same index.
    const found = await readIndexSnapshot(file, { embedder: "e", dim, analyzer: "x" });
    if (!("restored" in found)) throw new Error(found.reason);
    expect(found.restored.version).toBe("1");
    expectSameAnswers(index, found.restored.index, rng(22), dim);
    for (let row = 0; row < index.size; row++)
      expect(found.restored.index.vectorOf(index.idAt(row))).toEqual(index.vectorOf(index.idAt(row)));
    expect(await readIndexSnapshot(file, { embedder: "e", dim, analyzer: "y" })).toEqual({
      reason: "the keyword analyzer changed",
    });
  });

  it("refuses arrays that do not fit the places named for them, and an index not empty to restore into", async () => {
    const index = new MemoryIndex(4);
    index.upsert([{ id: "x", vector: Float32Array.from([1, 0, 0, 0]), text: "hello world", type: "note", tags: [] }]);
    const meta = new MemoryMetaTable();
    meta.set("x", { summary: "hello", type: "note", tags: [], importance: 0.5, createdAt: new Date(0), updatedAt: null });
    const file = path.join(scratch, "fit.snapshot");
    await writeSnapshot(file, captureSnapshot("1", "e", "x", index.exportState(), meta, new Map()));
    await expect(
      readSnapshot(
        file,
        () => true,
        () => new Map([["m0.f32", new Float32Array(3)]]),
      ),
    ).rejects.toThrow(/m0\.f32 .* does not fit its header/);
    expect(() => MemoryIndex.fromState(index.exportState(), index)).toThrow(/empty index of its own shape/);
  });

  it("removes the temporary files of writes whose process is gone, and keeps a live one's", async () => {
    const index = new MemoryIndex(4);
    index.upsert([{ id: "x", vector: Float32Array.from([1, 0, 0, 0]), text: "hello world", type: "note", tags: [] }]);
    const meta = new MemoryMetaTable();
    meta.set("x", { summary: "hello", type: "note", tags: [], importance: 0.5, createdAt: new Date(0), updatedAt: null });
    const file = path.join(scratch, "temps", "index.snapshot");
    fs.mkdirSync(path.dirname(file), { recursive: true });
    const alive = (pid: number) => {
      try {
        process.kill(pid, 0);
        return true;
      } catch {
        return false;
      }
    };
    let gone = 4_000_000;
    while (alive(gone)) gone++;
    const abandoned = `${file}.${gone}.tmp`;
    const live = `${file}.${process.ppid}.tmp`;
    const other = `${file}.notes.txt`;
    for (const f of [abandoned, live, other]) fs.writeFileSync(f, "partial");
    await writeSnapshot(file, captureSnapshot("1", "e", "x", index.exportState(), meta, new Map()));
    expect(fs.existsSync(abandoned)).toBe(false);
    expect(fs.existsSync(live)).toBe(true);
    expect(fs.existsSync(other)).toBe(true);
    expect((await readSnapshot(file))?.version).toBe("1");
  });

  it("reads no snapshot from a missing file and refuses a damaged or foreign one", async () => {
    expect(await readSnapshot(path.join(scratch, "none.snapshot"))).toBeNull();
    const foreign = path.join(scratch, "foreign.snapshot");
    fs.writeFileSync(foreign, "not a snapshot at all, just text");
    await expect(readSnapshot(foreign)).rejects.toThrow(/not an index snapshot/);
    const index = new MemoryIndex(4);
    index.upsert([{ id: "x", vector: Float32Array.from([1, 0, 0, 0]), text: "hello world", type: "note", tags: [] }]);
    const meta = new MemoryMetaTable();
    meta.set("x", { summary: "hello", type: "note", tags: [], importance: 0.5, createdAt: new Date(0), updatedAt: null });
    const whole = path.join(scratch, "whole.snapshot");
    await writeSnapshot(whole, captureSnapshot("1", "e", "x", index.exportState(), meta, new Map()));
    const truncated = path.join(scratch, "truncated.snapshot");
    fs.writeFileSync(truncated, fs.readFileSync(whole).subarray(0, fs.statSync(whole).size - 9));
    await expect(readSnapshot(truncated)).rejects.toThrow(/truncated/);
  });
});
