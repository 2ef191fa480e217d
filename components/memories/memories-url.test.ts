import { describe, expect, it } from "vitest";
import { describeMemoryFilters, memoryFiltersFrom, memoryFiltersQuery, memoryResultsLine } from "./memories-url";

const none = { store: "", q: "", type: "", tag: "" };

describe("memoryFiltersFrom", () => {
  it("reads the four filters, trimming the search and the store", () => {
    const params = new URLSearchParams("store=embedded&q=%20deploy%20&type=task&tag=ops&cursor=x");
    expect(memoryFiltersFrom(params)).toEqual({ store: "embedded", q: "deploy", type: "task", tag: "ops" });
  });
  it("keeps any store's name: `embedded` is a store like the others", () => {
    expect(memoryFiltersFrom(new URLSearchParams("store=%20fake%20")).store).toBe("fake");
    expect(memoryFiltersFrom(new URLSearchParams("store=demo")).store).toBe("demo");
  });
  it("no store in the URL is '' (the default store)", () => {
    expect(memoryFiltersFrom(new URLSearchParams("q=x")).store).toBe("");
  });
});

describe("memoryFiltersQuery", () => {
  it("sets, removes and leaves alone", () => {
    expect(memoryFiltersQuery("q=a&type=note&other=1", { q: "b", type: "" })).toBe("q=b&other=1");
    expect(memoryFiltersQuery("q=a", { tag: "ops" })).toBe("q=a&tag=ops");
    expect(memoryFiltersQuery("", {})).toBe("");
  });
});

describe("describeMemoryFilters", () => {
  it("joins one, two or three conditions in words", () => {
    expect(describeMemoryFilters(none)).toBe("");
    expect(describeMemoryFilters({ ...none, q: "x" })).toBe("match “x”");
    expect(describeMemoryFilters({ ...none, q: "x", tag: "t" })).toBe("match “x” and are tagged “t”");
    expect(describeMemoryFilters({ ...none, q: "x", type: "y", tag: "t" })).toBe("match “x”, are of type “y” and are tagged “t”");
  });
});

describe("memoryResultsLine", () => {
  it("says how many of how many, the filters and the order", () => {
    expect(memoryResultsLine(none, { shown: 50, total: 1345, remote: false })).toBe(
      "Showing 50 of 1,345 memories, newest first.",
    );
    expect(memoryResultsLine({ ...none, q: "tok" }, { shown: 1, total: 1, remote: false })).toBe(
      "Showing 1 of 1 memory for search “tok”, newest first.",
    );
    expect(memoryResultsLine({ ...none, type: "t", tag: "g" }, { shown: 2, total: 4, remote: true })).toBe(
      "Showing 2 of 4 memories for type “t”, tag “g”, in the service’s order.",
    );
  });
  it("tells an empty store from no matches", () => {
    expect(memoryResultsLine(none, { shown: 0, total: 0, remote: false })).toBe("No memories.");
    expect(memoryResultsLine({ ...none, tag: "g" }, { shown: 0, total: 0, remote: false })).toBe("No matches.");
  });
});
