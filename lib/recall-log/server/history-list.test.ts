import { describe, expect, it } from "vitest";
import { escapeLike, historyWhere } from "./history-list";

const ID = "3f2a1b9c-5d6e-4f70-8a9b-0c1d2e3f4a5b";

describe("historyWhere", () => {
  it("is empty without filters", () => {
    expect(historyWhere({})).toEqual({});
  });

  it("maps each filter onto the flattened columns", () => {
    expect(historyWhere({ store: "embedded" })).toEqual({ store: "embedded" });
    expect(historyWhere({ level: ["low"] })).toEqual({ level: "low" });
    expect(historyWhere({ level: ["high", "low"] })).toEqual({ level: { in: ["high", "low"] } });
    expect(historyWhere({ has_dropped: true })).toEqual({ selectorDropped: { gt: 0 } });
    expect(historyWhere({ has_dropped: false })).toEqual({ OR: [{ selectorDropped: null }, { selectorDropped: { lte: 0 } }] });
    expect(historyWhere({ q: "Kafka" })).toEqual({ query: { contains: "Kafka", mode: "insensitive" } });
    expect(historyWhere({ selector_model: "gpt-x" })).toEqual({ selectorModel: "gpt-x" });
    expect(historyWhere({ dropped_memory: "mem-1" })).toEqual({ droppedMemoryIds: { has: "mem-1" } });
    const from = new Date("2025-01-01T00:00:00Z");
    expect(historyWhere({ from })).toEqual({ createdAt: { gte: from } });
  });

  it("reads the store's verdict as the profile's level where a profile judged the recall, else the reference level", () => {
    expect(historyWhere({ verdict: ["low", "none"] })).toEqual({
      OR: [
        { profileName: null, level: { in: ["low", "none"] } },
        { profileName: { not: null }, profileLevel: { in: ["low", "none"] } },
      ],
    });
    expect(historyWhere({ verdict: [] })).toEqual({});
  });

  it("makes LIKE wildcards in q literal", () => {
    expect(escapeLike("100%_done\\x")).toBe("100\\%\\_done\\\\x");
    expect(historyWhere({ q: "a_b" })).toEqual({ query: { contains: "a\\_b", mode: "insensitive" } });
  });

  it("writes the keyset condition as an index range plus a tie-breaker", () => {
    const createdAt = new Date("2025-01-01T00:00:00Z");
    expect(historyWhere({ status: "ok", cursor: { createdAt, id: ID } })).toEqual({
      AND: [{ status: "ok" }, { createdAt: { lte: createdAt } }, { OR: [{ createdAt: { lt: createdAt } }, { id: { lt: ID } }] }],
    });
  });
});
