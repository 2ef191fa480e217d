import { describe, expect, it } from "vitest";
import { describeItemError, parseItems, parseJsonLines } from "./dataset-schemas";

describe("parseJsonLines", () => {
  it("reads one item a line, skipping blank lines, deduplicating relevant ids", () => {
    const parsed = parseJsonLines(
      '{"query": "a", "relevant": ["m1", "m1"]}\n\n{"query": "b", "relevant": [], "kind": "off_topic", "id": "x", "tags": ["t"]}\r\n',
    );
    expect(parsed).toEqual({
      ok: true,
      items: [
        { query: "a", relevant: ["m1"] },
        { query: "b", relevant: [], kind: "off_topic", id: "x", tags: ["t"] },
      ],
    });
  });
  it("reports every bad line by its number, in order, and keeps nothing", () => {
    const parsed = parseJsonLines(
      ['{"query": "ok", "relevant": []}', "nope", '{"query": "q"}', '{"query": "q", "relevant": [], "kind": "two words"}'].join(
        "\n",
      ),
    );
    expect(parsed.ok).toBe(false);
    if (parsed.ok) return;
    expect(parsed.errors.map((e) => e.line)).toEqual([2, 3, 4]);
    expect(describeItemError(parsed.errors[1]!)).toMatch(/^line 3: relevant: /);
    expect(parsed.errors[2]!.errors[0]!.path).toEqual(["kind"]);
  });
  it("refuses an empty upload and NUL characters", () => {
    expect(parseJsonLines("\n \n")).toMatchObject({ ok: false, errors: [{ line: 1 }] });
    const nul = parseJsonLines(JSON.stringify({ query: "a\u0000b", relevant: [] }));
    expect(nul.ok).toBe(false);
  });
});

describe("parseItems", () => {
  it("names bad items by index and refuses a reused id", () => {
    const parsed = parseItems([{ query: "a", relevant: [], id: "1" }, { query: "b", relevant: [], id: "1" }, "x"]);
    expect(parsed.ok).toBe(false);
    if (parsed.ok) return;
    expect(parsed.errors.map((e) => e.index)).toEqual([1, 2]);
  });
});
