import { describe, expect, it } from "vitest";
import {
  hiddenColumnsKey,
  isColumnShown,
  readHiddenColumns,
  setColumnShown,
  shownColumns,
  writeHiddenColumns,
  type ColumnChoice,
} from "./column-visibility";

type Id = "time" | "query" | "level" | "latency";
const COLUMNS: readonly ColumnChoice<Id>[] = [
  { id: "time", label: "Time" },
  { id: "query", label: "Query", required: true },
  { id: "level", label: "Level" },
  { id: "latency", label: "Latency" },
];

describe("readHiddenColumns", () => {
  it("reads nothing hidden from no value, an empty value, bad JSON or a non-array", () => {
    for (const stored of [null, "", "{", '{"time":true}', '"time"', "42", "null"]) {
      expect([...readHiddenColumns(stored, COLUMNS)], String(stored)).toEqual([]);
    }
  });

  it("keeps the known, hideable ids and drops the rest", () => {
    const hidden = readHiddenColumns(JSON.stringify(["latency", "query", "gone", 3, null, "time", "latency"]), COLUMNS);
    expect([...hidden].sort()).toEqual(["latency", "time"]);
  });

  it("never hides every column: such a value reads as nothing hidden", () => {
    const all: readonly ColumnChoice<"a" | "b">[] = [
      { id: "a", label: "A" },
      { id: "b", label: "B" },
    ];
    expect([...readHiddenColumns('["a","b"]', all)]).toEqual([]);
    expect([...readHiddenColumns('["a"]', all)]).toEqual(["a"]);
  });
});

describe("writeHiddenColumns", () => {
  it("stores the ids in the table's order, so equal choices store equal strings", () => {
    expect(writeHiddenColumns(new Set<Id>(["latency", "time"]), COLUMNS)).toBe('["time","latency"]');
    expect(writeHiddenColumns(new Set<Id>(["time", "latency"]), COLUMNS)).toBe('["time","latency"]');
    expect(writeHiddenColumns(new Set<Id>(), COLUMNS)).toBe("[]");
  });

  it("never stores a key column, and reads back what it wrote", () => {
    const written = writeHiddenColumns(new Set<Id>(["query", "level"]), COLUMNS);
    expect(written).toBe('["level"]');
    expect([...readHiddenColumns(written, COLUMNS)]).toEqual(["level"]);
  });
});

describe("setColumnShown", () => {
  it("hides and shows a column", () => {
    const hidden = setColumnShown(new Set<Id>(), COLUMNS, "latency", false);
    expect([...hidden]).toEqual(["latency"]);
    expect([...setColumnShown(hidden, COLUMNS, "latency", true)]).toEqual([]);
  });

  it("leaves the set as it was for a key column, an unknown id, or no change", () => {
    const hidden = new Set<Id>(["time"]);
    expect(setColumnShown(hidden, COLUMNS, "query", false)).toBe(hidden);
    expect(setColumnShown(hidden, COLUMNS, "nope" as Id, false)).toBe(hidden);
    expect(setColumnShown(hidden, COLUMNS, "time", false)).toBe(hidden);
    expect(setColumnShown(hidden, COLUMNS, "level", true)).toBe(hidden);
  });

  it("does not hide the last column shown of a table without a key column", () => {
    const two: readonly ColumnChoice<"a" | "b">[] = [
      { id: "a", label: "A" },
      { id: "b", label: "B" },
    ];
    const one = setColumnShown(new Set<"a" | "b">(), two, "a", false);
    expect([...one]).toEqual(["a"]);
    expect(setColumnShown(one, two, "b", false)).toBe(one);
  });

  it("does not change the set it was given", () => {
    const hidden = new Set<Id>(["time"]);
    setColumnShown(hidden, COLUMNS, "level", false);
    expect([...hidden]).toEqual(["time"]);
  });
});

describe("shownColumns and isColumnShown", () => {
  it("lists the shown columns in order, a key column always", () => {
    // A set that names the key column (not one readHiddenColumns makes) still shows it.
    const hidden = new Set<Id>(["query", "time"]);
    expect(shownColumns(hidden, COLUMNS)).toEqual(["query", "level", "latency"]);
    expect(isColumnShown(hidden, COLUMNS, "query")).toBe(true);
    expect(isColumnShown(hidden, COLUMNS, "time")).toBe(false);
    expect(shownColumns(new Set<Id>(), COLUMNS)).toEqual(["time", "query", "level", "latency"]);
  });
});

describe("hiddenColumnsKey", () => {
  it("names the table under the app's prefix", () => {
    expect(hiddenColumnsKey("history")).toBe("recall-inspector:hidden-columns:history");
    expect(hiddenColumnsKey("memory-recalls")).not.toBe(hiddenColumnsKey("history"));
  });
});
