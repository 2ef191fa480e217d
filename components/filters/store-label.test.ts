import { describe, expect, it } from "vitest";
import { defaultStoreName, isEmptyStore, missingIdsLine, storeHoldsWords, storeOptionLabel, type StoreLike } from "./store-label";

const embedded = (name: string, memories?: number, isDefault = false): StoreLike => ({
  name,
  kind: "embedded",
  label: name,
  ...(memories === undefined ? {} : { memories }),
  ...(isDefault ? { default: true } : {}),
});
const remote = (name: string, ok = true): StoreLike => ({ name, kind: "remote", label: name, health: { ok } });

describe("store option labels", () => {
  it("name what an embedded store holds", () => {
    expect(storeOptionLabel(embedded("demo", 345))).toBe("demo · 345 memories");
    expect(storeOptionLabel(embedded("a", 1))).toBe("a · 1 memory");
    expect(storeOptionLabel(embedded("a", 0))).toBe("a · empty");
    expect(storeOptionLabel(embedded("big", 12_345))).toBe("big · 12,345 memories");
  });

  it("an unknown count is left out", () => {
    expect(storeOptionLabel(embedded("a"))).toBe("a");
    expect(storeHoldsWords({})).toBeNull();
  });

  it("mark a remote store remote, with its reachability", () => {
    expect(storeOptionLabel(remote("mem0"))).toBe("mem0 (remote)");
    expect(storeOptionLabel(remote("mem0", false))).toBe("mem0 (remote, unreachable)");
  });
});

describe("the store a page opens with", () => {
  it("is the one marked default, wherever it stands", () => {
    expect(defaultStoreName([embedded("embedded", 3), embedded("demo", 345, true), remote("mem0")])).toBe("demo");
  });

  it("else the first embedded store, else the first store", () => {
    expect(defaultStoreName([remote("mem0"), embedded("a", 0)])).toBe("a");
    expect(defaultStoreName([remote("mem0")])).toBe("mem0");
  });

  it("is not known before the list is", () => {
    expect(defaultStoreName(undefined)).toBe("");
    expect(defaultStoreName([])).toBe("");
  });
});

describe("an empty store", () => {
  it("is an embedded store holding nothing", () => {
    expect(isEmptyStore(embedded("a", 0))).toBe(true);
    expect(isEmptyStore(embedded("a", 2))).toBe(false);
    // A remote service does not say how many it holds; a count not yet known is not "empty".
    expect(isEmptyStore(remote("mem0"))).toBe(false);
    expect(isEmptyStore(embedded("a"))).toBe(false);
    expect(isEmptyStore(undefined)).toBe(false);
  });
});

describe("relevant ids not in the store", () => {
  it("counts them and names a few", () => {
    expect(missingIdsLine({ checked: true, count: 12, ids: ["m1", "m2", "m3", "m4", "m5", "m6"] }, "a")).toBe(
      "12 of the set's relevant ids are not in store a: m1, m2, m3, m4, m5 and 7 more.",
    );
    expect(missingIdsLine({ checked: true, count: 1, ids: ["m1"] }, "a")).toBe(
      "1 of the set's relevant ids is not in store a: m1.",
    );
  });

  it("says nothing when all are there or the store could not be checked", () => {
    expect(missingIdsLine({ checked: true, count: 0, ids: [] }, "a")).toBeNull();
    expect(missingIdsLine({ checked: false, count: null, ids: [] }, "mem0")).toBeNull();
    expect(missingIdsLine(undefined, "a")).toBeNull();
  });
});
