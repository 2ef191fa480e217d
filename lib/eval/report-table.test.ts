import { describe, expect, it } from "vitest";
import { parseSortDir, parseSortKey, sortItems } from "./report-table";
import { evalRunItem } from "./test-fixtures";

const item = evalRunItem;

describe("sortItems", () => {
  const items = [
    item(0, { first_relevant_rank: 3, level: "high" }),
    item(1, { first_relevant_rank: null, level: null }),
    item(2, { first_relevant_rank: 1, level: "none" }),
  ];
  it("sorts numbers both ways with nulls last", () => {
    expect(sortItems(items, "first_relevant_rank", "asc").map((i) => i.position)).toEqual([2, 0, 1]);
    expect(sortItems(items, "first_relevant_rank", "desc").map((i) => i.position)).toEqual([0, 2, 1]);
  });
  it("sorts levels by strength", () => {
    expect(sortItems(items, "level", "desc").map((i) => i.position)).toEqual([0, 2, 1]);
  });
  it("reads sort settings from the URL, falling back to position ascending", () => {
    expect(parseSortKey("top_score")).toBe("top_score");
    expect(parseSortKey("nope")).toBe("position");
    expect(parseSortDir(null)).toBe("asc");
  });
});
