import { describe, expect, it } from "vitest";
import { RecallInputError } from "./errors";
import {
  isCompleteSelector,
  MAX_DROPPED_IDS,
  parseSelector,
  selectorApplied,
  selectorNotApplied,
  serializeSelector,
  type SelectorBlock,
} from "./selector-block";
import { SELECTOR_REASONS } from "./selector-reasons";

const ids = (n: number, prefix = "m"): string[] => Array.from({ length: n }, (_, i) => `${prefix}${i + 1}`);

function selectorError(fn: () => unknown): RecallInputError {
  try {
    fn();
  } catch (e) {
    expect(e).toBeInstanceOf(RecallInputError);
    expect((e as RecallInputError).code).toBe("invalid_selector");
    return e as RecallInputError;
  }
  throw new Error("expected a RecallInputError");
}

describe("selectorApplied", () => {
  it("counts kept and dropped over the page and lists dropped ids in page order", () => {
    const block = selectorApplied({ model: "gpt-4o-mini", page: ["a", "b", "c", "d", "e"], keptIds: ["d", "a"] });
    expect(block).toEqual({ applied: true, model: "gpt-4o-mini", kept: 2, dropped: 3, dropped_memory_ids: ["b", "c", "e"] });
  });

  it("caps the id list at 20 when more are dropped, keeping the first 20 in page order", () => {
    const page = ids(30);
    const block = selectorApplied({ model: "m", page, keptIds: ["m3", "m10", "m30"] });
    expect(block.kept).toBe(3);
    expect(block.dropped).toBe(27);
    expect(block.dropped_memory_ids).toHaveLength(MAX_DROPPED_IDS);
    expect(block.dropped_memory_ids).toEqual(page.filter((id) => !["m3", "m10", "m30"].includes(id)).slice(0, 20));
    expect(block.dropped_memory_ids.at(-1)).toBe("m22");
  });

  it("handles keep-all and drop-all", () => {
    expect(selectorApplied({ model: "m", page: ["a", "b"], keptIds: new Set(["a", "b"]) })).toMatchObject({
      kept: 2,
      dropped: 0,
      dropped_memory_ids: [],
    });
    expect(selectorApplied({ model: "m", page: ids(25), keptIds: [] })).toMatchObject({ kept: 0, dropped: 25 });
    expect(selectorApplied({ model: "m", page: [], keptIds: [] })).toMatchObject({ kept: 0, dropped: 0 });
  });

  it("rejects an empty model, duplicate page ids and kept ids that are not on the page", () => {
    selectorError(() => selectorApplied({ model: " ", page: ["a"], keptIds: [] }));
    selectorError(() => selectorApplied({ model: "m", page: ["a", "a"], keptIds: [] }));
    const e = selectorError(() => selectorApplied({ model: "m", page: ["a"], keptIds: ["zzz"] }));
    expect(e.details.issues[0]?.path).toEqual(["kept_ids"]);
  });
});

describe("selectorNotApplied", () => {
  it("carries only the reason", () => {
    expect(selectorNotApplied("disabled")).toEqual({ applied: false, reason: "disabled" });
    expect(Object.keys(selectorNotApplied("timeout"))).toEqual(["applied", "reason"]);
    selectorError(() => selectorNotApplied("" as never));
  });

  it("accepts every reason on the one list and nothing else", () => {
    for (const reason of SELECTOR_REASONS) expect(selectorNotApplied(reason)).toEqual({ applied: false, reason });
    // Off the list: the old per-status code, the old score-gap "kept everything", free text.
    for (const reason of ["http_500", "no_clear_gap", "llm_error", "Timeout"]) {
      const e = selectorError(() => selectorNotApplied(reason as never));
      expect(e.details.issues[0]?.path).toEqual(["reason"]);
    }
  });
});

describe("serializeSelector (strict contract)", () => {
  it("emits exactly the keys of each form, in a fixed order", () => {
    const applied = selectorApplied({ model: "m", page: ids(3), keptIds: ["m2"] });
    expect(JSON.stringify(serializeSelector(applied))).toBe(
      '{"applied":true,"model":"m","kept":1,"dropped":2,"dropped_memory_ids":["m1","m3"]}',
    );
    expect(JSON.stringify(serializeSelector(selectorNotApplied("disabled")))).toBe('{"applied":false,"reason":"disabled"}');
  });

  it("omits keys explicitly set to undefined", () => {
    const block = { applied: false, reason: "disabled", model: undefined } as unknown as SelectorBlock;
    expect(Object.keys(serializeSelector(block))).toEqual(["applied", "reason"]);
  });

  it("rejects blocks that break the contract", () => {
    const base = { applied: true, model: "m", kept: 1, dropped: 2, dropped_memory_ids: ["a", "b"] } as const;
    const bad: unknown[] = [
      { ...base, reason: "x" }, // applied:true carries no reason
      { applied: false, reason: "x", model: "m" }, // applied:false carries only reason
      { applied: false }, // reason required
      { ...base, dropped_memory_ids: ["a"] }, // must list min(dropped, 20) ids
      { ...base, dropped: 25, dropped_memory_ids: ids(21) }, // more than 20
      { ...base, dropped: 25, dropped_memory_ids: ids(19) }, // fewer than min(25, 20)
      { ...base, dropped_memory_ids: ["a", "a"] }, // duplicates
      { ...base, kept: -1 },
      { ...base, dropped: 1.5 },
      { ...base, model: "" },
    ];
    for (const block of bad) selectorError(() => serializeSelector(block as SelectorBlock));
    expect(serializeSelector({ ...base, dropped: 25, dropped_memory_ids: ids(20) }).applied).toBe(true);
  });
});

describe("parseSelector (tolerant ingestion)", () => {
  it("returns null for an absent block", () => {
    expect(parseSelector(undefined)).toBeNull();
    expect(parseSelector(null)).toBeNull();
  });

  it("accepts dropped greater than the capped id list, and never derives dropped from it", () => {
    const parsed = parseSelector({ applied: true, model: "m", kept: 5, dropped: 57, dropped_memory_ids: ids(20) });
    expect(parsed).toEqual({ applied: true, model: "m", kept: 5, dropped: 57, dropped_memory_ids: ids(20) });
    const noCount = parseSelector({ applied: true, dropped_memory_ids: ["a", "b"] });
    expect(noCount).toEqual({ applied: true, dropped_memory_ids: ["a", "b"] });
    expect(noCount && "dropped" in noCount).toBe(false);
  });

  it("treats null keys as missing and omits them", () => {
    const parsed = parseSelector({ applied: true, model: null, kept: 3, dropped: null, dropped_memory_ids: null });
    expect(parsed).toEqual({ applied: true, kept: 3 });
    expect(Object.keys(parsed ?? {})).toEqual(["applied", "kept"]);
    expect(parseSelector({ applied: false, reason: null })).toEqual({ applied: false });
  });

  it("drops unknown keys and keys of the other form", () => {
    expect(parseSelector({ applied: false, reason: "disabled", model: "m", kept: 3, extra: 1 })).toEqual({
      applied: false,
      reason: "disabled",
    });
    expect(parseSelector({ applied: true, model: "m", reason: "llm ranked", future: true })).toEqual({
      applied: true,
      model: "m",
    });
  });

  it("rejects what cannot be a selector block", () => {
    const bad: unknown[] = [
      {},
      { applied: "yes" },
      { applied: true, dropped: 1, dropped_memory_ids: ["a", "b"] }, // more ids than dropped
      { applied: true, dropped_memory_ids: ids(21) },
      { applied: true, kept: -2 },
      { applied: true, dropped_memory_ids: [""] },
      "applied",
      [true],
    ];
    for (const raw of bad) selectorError(() => parseSelector(raw));
  });

  it("round-trips complete blocks through serialize → parse", () => {
    const blocks: SelectorBlock[] = [
      selectorApplied({ model: "m", page: ids(25), keptIds: ["m1"] }),
      selectorApplied({ model: "m", page: ids(3), keptIds: ids(3) }),
      selectorNotApplied("unknown_id"),
    ];
    for (const block of blocks) {
      const parsed = parseSelector(JSON.parse(JSON.stringify(serializeSelector(block))));
      expect(parsed).toEqual(block);
      expect(parsed !== null && isCompleteSelector(parsed)).toBe(true);
    }
    expect(isCompleteSelector({ applied: true, model: "m" })).toBe(false);
    expect(isCompleteSelector({ applied: false })).toBe(false);
  });
});
