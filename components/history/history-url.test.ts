import { describe, expect, it } from "vitest";
import { effectiveFilters, fromLocalInput, isFiltered, readHistoryUrl, toLocalInput, writeHistoryUrl } from "./history-url";

const read = (query: string) => readHistoryUrl(new URLSearchParams(query));

describe("History page URL", () => {
  it("reads the API's filter parameters and a range preset", () => {
    expect(read("")).toEqual({ filters: {}, range: null, invalid: null });
    expect(read("q=kafka&level=low,none&has_dropped=true&range=7d")).toEqual({
      filters: { q: "kafka", level: ["low", "none"], has_dropped: true },
      range: "7d",
      invalid: null,
    });
  });

  it("lets a preset win over explicit bounds", () => {
    expect(read("range=24h&from=2025-01-01T00:00:00Z")).toEqual({ filters: {}, range: "24h", invalid: null });
  });

  it("says what is wrong with a hand-edited link instead of guessing", () => {
    expect(read("level=great").invalid).toMatch(/^level: /);
    expect(read("range=1y").invalid).toMatch(/^range: expected 24h, 7d, 30d/);
    expect(read("from=2025-02-01T00:00:00Z&to=2025-01-01T00:00:00Z").invalid).toBe("from: from must be earlier than to");
    expect(read("level=great").filters).toEqual({});
  });

  it("writes back what it reads (round trip), dropping bounds when a preset is set", () => {
    for (const query of ["", "store=embedded&level=high&q=deploy&range=30d", "status=error&from=2025-01-01T00%3A00%3A00.000Z"]) {
      const state = read(query);
      expect(writeHistoryUrl(state)).toBe(query);
    }
    expect(writeHistoryUrl({ filters: { from: new Date(0) }, range: "24h" })).toBe("range=24h");
  });

  it("turns a preset into a from bound floored to the minute", () => {
    const now = Date.parse("2025-03-10T12:34:56.789Z");
    expect(effectiveFilters({ filters: { q: "x" }, range: "24h" }, now)).toEqual({
      q: "x",
      from: new Date("2025-03-09T12:34:00.000Z"),
      to: undefined,
    });
    const custom = { filters: { from: new Date(1) }, range: null };
    expect(effectiveFilters(custom, now)).toBe(custom.filters);
  });

  it("counts a preset as a filter", () => {
    expect(isFiltered({ filters: {}, range: null })).toBe(false);
    expect(isFiltered({ filters: {}, range: "7d" })).toBe(true);
    expect(isFiltered({ filters: { status: "ok" }, range: null })).toBe(true);
  });

  it("converts datetime-local values in the browser's zone", () => {
    const date = fromLocalInput("2025-01-02T03:04")!;
    expect(date.getFullYear()).toBe(2025);
    expect(date.getHours()).toBe(3);
    expect(toLocalInput(date)).toBe("2025-01-02T03:04");
    expect(fromLocalInput("")).toBeUndefined();
    expect(fromLocalInput("2025-01-02")).toBeUndefined();
    expect(toLocalInput(undefined)).toBe("");
  });
});
