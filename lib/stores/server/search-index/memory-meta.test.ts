import { describe, expect, it } from "vitest";
import type { MemoryMeta } from "./memory-meta";
import { MemoryMetaTable } from "./memory-meta";
import { rng } from "./test-fixtures";

const SUMMARIES = ["deploy token expired", "Café — 東京 🎉", "", "oat milk, no sugar", "naïve résumé\nsecond line"];
const TYPES = ["fact", "note", "decision"];
const TAG_SETS = [[], ["a"], ["a", "b"], ["ünïcode"]];

function fields(i: number, random: () => number): MemoryMeta {
  return {
    summary: `${SUMMARIES[i % SUMMARIES.length]!} ${i}`,
    type: TYPES[i % TYPES.length]!,
    tags: [...TAG_SETS[i % TAG_SETS.length]!],
    importance: Math.round(random() * 1000) / 1000,
    createdAt: new Date(1_700_000_000_000 + Math.floor(random() * 1e9)),
    updatedAt: i % 3 ? new Date(1_800_000_000_000 + i) : null,
  };
}

/** A table as a restore makes it: the fields of `ids` as columns, read back. */
function restoredTable(ids: string[], byId: ReadonlyMap<string, MemoryMeta>): MemoryMetaTable {
  const written = new MemoryMetaTable();
  for (const id of ids) written.set(id, byId.get(id)!);
  return MemoryMetaTable.fromColumns(
    ids,
    ids.map((id) => byId.get(id)!.type),
    ids.map((id) => byId.get(id)!.tags),
    written.columns(ids),
  );
}

describe("memory fields table", () => {
  const random = rng(3);
  const byId = new Map(Array.from({ length: 60 }, (_, i) => [`m${i}`, fields(i, random)]));
  const ids = [...byId.keys()];

  it("gives back every memory's fields from the columns, UTF-8 and missing update times included", () => {
    const table = restoredTable(ids, byId);
    expect(table.size).toBe(ids.length);
    expect([...table.keys()]).toEqual(ids);
    for (const [id, meta] of byId) expect(table.get(id)).toEqual(meta);
    expect(table.get("unknown")).toBeUndefined();
    expect(table.has("m7")).toBe(true);
  });

  it("hands out copies of a restored memory's tags, so a caller cannot change the table", () => {
    const table = restoredTable(ids, byId);
    table.get("m2")!.tags.push("changed");
    expect(table.get("m2")!.tags).toEqual(byId.get("m2")!.tags);
  });

  it("lets writes replace and delete restored memories, and writes every kind of row back as columns", () => {
    const table = restoredTable(ids, byId);
    const now = new Map(byId);
    const changed = { ...fields(99, random), summary: "rewritten — ✓" };
    table.set("m4", changed);
    now.set("m4", changed);
    table.delete("m9");
    now.delete("m9");
    const added = fields(100, random);
    table.set("new", added);
    now.set("new", added);
    expect(table.has("m9")).toBe(false);
    expect(table.get("m4")).toEqual(changed);

    // In another order, as the index's rows are after swaps: restored, replaced and new rows alike.
    const order = [...now.keys()].sort(() => random() - 0.5);
    const again = MemoryMetaTable.fromColumns(
      order,
      order.map((id) => now.get(id)!.type),
      order.map((id) => now.get(id)!.tags),
      table.columns(order),
    );
    for (const id of order) expect(again.get(id)).toEqual(now.get(id));
    expect(() => table.columns(["m9"])).toThrow(/no fields for memory m9/);
  });

  it("refuses columns that do not match the ids", () => {
    const table = restoredTable(ids, byId);
    const columns = table.columns(ids);
    const types = ids.map((id) => byId.get(id)!.type);
    const tags = ids.map((id) => byId.get(id)!.tags);
    expect(() => MemoryMetaTable.fromColumns(ids.slice(1), types.slice(1), tags.slice(1), columns)).toThrow(/disagree/);
    const short = { ...columns, summaryBytes: columns.summaryBytes.subarray(1) };
    expect(() => MemoryMetaTable.fromColumns(ids, types, tags, short)).toThrow(/summaries and ids disagree/);
  });
});
