import { describe, expect, it } from "vitest";
import { labeledSetItems, type LabeledRecallInput } from "./labeled-set";

const recall = (
  id: string,
  query: string,
  label_present: LabeledRecallInput["label_present"],
  label_relevant: string[] = [],
) => ({
  id,
  query,
  label_present,
  label_relevant,
});

describe("labeledSetItems", () => {
  it("turns present labels into items: relevant ids, or none when nothing relevant was present", () => {
    const draft = labeledSetItems([
      recall("1", "who is on call", "yes", ["oncall", "rota"]),
      recall("2", "good morning in Japanese", "no"),
      recall("3", "kafka lag", null, ["kafka"]),
    ]);
    expect(draft.items).toEqual([
      { query: "who is on call", relevant: ["oncall", "rota"] },
      { query: "good morning in Japanese", relevant: [] },
      { query: "kafka lag", relevant: ["kafka"] },
    ]);
    expect(draft.skipped).toEqual([]);
  });

  it("gives relevant ids sorted and once, whatever order the store returned them in", () => {
    expect(labeledSetItems([recall("1", "q", "yes", ["mem-0229", "mem-0159", "mem-0229"])]).items).toEqual([
      { query: "q", relevant: ["mem-0159", "mem-0229"] },
    ]);
  });

  it("takes present = no over rows marked relevant", () => {
    expect(labeledSetItems([recall("1", "q", "no", ["a"])]).items).toEqual([{ query: "q", relevant: [] }]);
  });

  it("skips what says nothing usable, with the reason, in input order", () => {
    const draft = labeledSetItems([
      recall("1", "unlabeled", null),
      recall("2", "unsure", "unsure", ["a"]),
      recall("3", "present but which", "yes"),
      recall("4", "kept", "yes", ["a"]),
    ]);
    expect(draft.items).toEqual([{ query: "kept", relevant: ["a"] }]);
    expect(draft.skipped).toEqual([
      { id: "1", query: "unlabeled", reason: "unlabeled" },
      { id: "2", query: "unsure", reason: "unsure" },
      { id: "3", query: "present but which", reason: "present_without_relevant" },
    ]);
  });

  it("keeps an identical item once (same query, same ids in any order), but not a different labeling", () => {
    const draft = labeledSetItems([
      recall("1", "q", "yes", ["a", "b"]),
      recall("2", "q", "yes", ["b", "a"]),
      recall("3", "q", "yes", ["a"]),
      recall("4", "q", "no"),
      recall("5", "q", "no"),
      recall("6", "Q", "no"),
    ]);
    expect(draft.items).toEqual([
      { query: "q", relevant: ["a", "b"] },
      { query: "q", relevant: ["a"] },
      { query: "q", relevant: [] },
      { query: "Q", relevant: [] },
    ]);
    expect(draft.skipped.map((s) => [s.id, s.reason])).toEqual([
      ["2", "duplicate"],
      ["5", "duplicate"],
    ]);
  });

  it("drops repeated ids within a recall and is empty for no input", () => {
    expect(labeledSetItems([recall("1", "q", "yes", ["a", "a", "b"])]).items).toEqual([{ query: "q", relevant: ["a", "b"] }]);
    expect(labeledSetItems([])).toEqual({ items: [], skipped: [] });
  });
});
