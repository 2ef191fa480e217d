import { describe, expect, it } from "vitest";
import { abConventionText, baselineFirst, canonicalCompareUrl } from "./compare-order";

const older = { id: "11111111-1111-4111-8111-111111111111", created_at: "2026-12-01T10:00:00.000Z" };
const newer = { id: "22222222-2222-4222-8222-222222222222", created_at: "2026-12-02T10:00:00.000Z" };

describe("baselineFirst", () => {
  it("puts the older first whichever order it is given in", () => {
    expect(baselineFirst(older, newer, (s) => s.created_at)).toEqual([older, newer]);
    expect(baselineFirst(newer, older, (s) => s.created_at)).toEqual([older, newer]);
  });
  it("reads Date values as well as ISO strings", () => {
    const a = { at: new Date("2026-12-03T00:00:00Z") };
    const b = { at: new Date("2026-12-01T00:00:00Z") };
    expect(baselineFirst(a, b, (s) => s.at)).toEqual([b, a]);
  });
  it("keeps the given order for equal or unreadable times", () => {
    const same = { ...newer, created_at: older.created_at };
    expect(baselineFirst(older, same, (s) => s.created_at)).toEqual([older, same]);
    expect(baselineFirst(same, older, (s) => s.created_at)).toEqual([same, older]);
    const bad = { ...newer, created_at: "not a date" };
    expect(baselineFirst(bad, older, (s) => s.created_at)).toEqual([bad, older]);
  });
});

describe("canonicalCompareUrl", () => {
  it("is null when A is already the older", () => {
    expect(canonicalCompareUrl("/recalls/compare", { a: older.id, b: newer.id }, older, newer)).toBeNull();
  });
  it("swaps a and b when A is the newer, keeping the other parameters", () => {
    expect(canonicalCompareUrl("/recalls/compare", { a: newer.id, b: older.id, metric: "bm25" }, newer, older)).toBe(
      `/recalls/compare?a=${older.id}&b=${newer.id}&metric=bm25`,
    );
    expect(
      canonicalCompareUrl("/evaluate/compare", { b: older.id, a: newer.id, x: ["1", "2"], y: undefined }, newer, older),
    ).toBe(`/evaluate/compare?a=${older.id}&b=${newer.id}&x=1&x=2`);
  });
});

describe("abConventionText", () => {
  it("names the baseline, the change and the sign of the deltas", () => {
    expect(abConventionText("run")).toBe("A = the baseline (the older run), B = the change (the newer run); deltas are B − A.");
  });
});
