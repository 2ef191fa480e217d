import { describe, expect, it } from "vitest";
import { importFormatOf, prepareImport, rejectedRows } from "./import-file";

describe("prepareImport", () => {
  it("sends JSON Lines as they are and keeps the file's line numbers past blank lines", () => {
    const prepared = prepareImport("batch.jsonl", '{"summary":"a"}\n\n{"summary":"b"}\r\n  \n{"summary":"c"}\n');
    expect(prepared).toMatchObject({ ok: true, format: "jsonl", count: 3, positions: ["Line 1", "Line 3", "Line 5"] });
    if (prepared.ok) expect(prepared.body.kind).toBe("jsonl");
  });

  it("wraps a bare JSON array and takes the memories list of an object", () => {
    const bare = prepareImport("a.json", '[{"summary":"a"},{"summary":"b"}]');
    expect(bare).toMatchObject({
      ok: true,
      format: "json",
      count: 2,
      body: { kind: "json", memories: [{ summary: "a" }, { summary: "b" }] },
    });
    const wrapped = prepareImport("b.JSON", '\uFEFF{"memories":[{"summary":"a"}]}');
    expect(wrapped).toMatchObject({ ok: true, count: 1, positions: ["Item 1"] });
  });

  it("counts broken lines and refused items as errors before sending, placed in the file", () => {
    const text = ['{"summary":"a"}', '{"summary": "b"', "", '{"summary":"c","importance":3}', "not json", '{"summary":"d"}'].join(
      "\n",
    );
    const prepared = prepareImport("batch.jsonl", text);
    if (!prepared.ok) throw new Error(prepared.message);
    expect(prepared.count).toBe(5);
    expect(prepared.problems.map((p) => p.position)).toEqual(["Line 2", "Line 4", "Line 5"]);
    expect(prepared.problems[0]!.messages[0]).toMatch(/^not valid JSON/);
    expect(prepared.problems[1]!.messages).toEqual(["importance must be at most 1."]);
    const json = prepareImport("a.json", '[{"summary":"a"},{"summary":""},{"summary":"b","colour":"red"}]');
    if (!json.ok) throw new Error(json.message);
    expect(json.problems).toEqual([
      { position: "Item 2", messages: ["summary is empty."] },
      { position: "Item 3", messages: ["Unknown field: colour."] },
    ]);
    const clean = prepareImport("ok.jsonl", '{"summary":"a"}\n{"summary":"b"}');
    expect(clean.ok && clean.problems).toEqual([]);
  });

  it("explains files it cannot send", () => {
    expect(prepareImport("notes.txt", "x")).toMatchObject({ ok: false, message: expect.stringContaining(".jsonl") });
    expect(prepareImport("a.json", "{oops")).toMatchObject({ ok: false, message: expect.stringContaining("not valid JSON") });
    expect(prepareImport("a.json", '{"items":[]}')).toMatchObject({ ok: false, message: expect.stringContaining('"memories"') });
    expect(prepareImport("a.json", "[]")).toMatchObject({ ok: false, message: expect.stringContaining("no memories") });
    expect(prepareImport("a.ndjson", "\n \n")).toMatchObject({ ok: false, message: expect.stringContaining("no lines") });
    expect(prepareImport("a.jsonl", "{}\n".repeat(10_001))).toMatchObject({
      ok: false,
      message: expect.stringContaining("10,000"),
    });
  });

  it("knows the formats by extension", () => {
    expect(importFormatOf("x.NDJSON")).toBe("jsonl");
    expect(importFormatOf("x.json")).toBe("json");
    expect(importFormatOf("x.csv")).toBeNull();
  });
});

describe("rejectedRows", () => {
  it("places each rejected item in the file and keeps its messages", () => {
    const rows = rejectedRows(
      [
        { index: 0, status: "created", id: "m1" },
        { index: 1, status: "rejected", errors: [{ path: [], message: "line 2 is not valid JSON: Unexpected token" }] },
        { index: 2, status: "rejected", id: "dup", errors: [{ path: ["id"], message: "a memory with this id already exists" }] },
      ],
      ["Line 1", "Line 4", "Line 5"],
    );
    expect(rows).toEqual([
      { position: "Line 4", messages: [{ field: null, message: "not valid JSON: Unexpected token" }] },
      { position: "Line 5", id: "dup", messages: [{ field: "id", message: "a memory with this id already exists" }] },
    ]);
  });
});
