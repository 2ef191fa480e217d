import { describe, expect, it } from "vitest";
import {
  EMPTY_LABELS,
  LabelsPatchSchema,
  MAX_LABELED_IDS,
  combinePatches,
  cycleResultLabel,
  labelRows,
  labelShortcut,
  labelableIds,
  labelsFromColumns,
  mergeLabels,
  presentWord,
  relevantIds,
  unknownLabelIds,
  type RecallLabels,
} from "./labels";

const NOW = "2026-12-01T09:00:00.000Z";

describe("LabelsPatchSchema", () => {
  it.each([
    [{ present: "yes" }, { present: "yes" }],
    [{ present: null }, { present: null }],
    [{ results: { a: true, b: false, c: null } }, { results: { a: true, b: false, c: null } }],
    [{ labeler: "  Priya " }, { labeler: "Priya" }],
    [{ labeler: "   " }, { labeler: null }],
    [{ labeler: null }, { labeler: null }],
    [
      { present: "unsure", results: {}, labeler: "x" },
      { present: "unsure", results: {}, labeler: "x" },
    ],
  ])("accepts %j", (body, parsed) => {
    const result = LabelsPatchSchema.safeParse(body);
    expect(result.success).toBe(true);
    expect(result.data).toEqual(parsed);
  });

  it.each([
    [{}, /at least one of present, results, labeler/],
    [{ present: "maybe" }, /present is one of yes, no, unsure/],
    [{ present: true }, /present is one of yes, no, unsure/],
    [{ results: { a: "yes" } }, /true \(relevant\), false/],
    [{ results: { "": true } }, /memory id is empty/],
    [{ results: [true] }, /./],
    [{ labeler: "x".repeat(101) }, /longer than 100/],
    [{ present: "yes", extra: 1 }, /./],
  ])("refuses %j", (body, message) => {
    const result = LabelsPatchSchema.safeParse(body);
    expect(result.success).toBe(false);
    expect(result.error!.issues.map((i) => i.message).join("; ")).toMatch(message);
  });

  it("caps the ids of one save", () => {
    const many = Object.fromEntries(Array.from({ length: MAX_LABELED_IDS + 1 }, (_, i) => [`m${i}`, true]));
    expect(LabelsPatchSchema.safeParse({ results: many }).success).toBe(false);
    delete many.m0;
    expect(LabelsPatchSchema.safeParse({ results: many }).success).toBe(true);
  });
});

describe("labelableIds / unknownLabelIds", () => {
  const allowed = labelableIds({
    results: [{ memory_id: "r1" }, { memory_id: "r2" }],
    candidates: [{ memory_id: "r1" }, { memory_id: "c3" }],
  });

  it("is the results and the candidates", () => {
    expect([...allowed].sort()).toEqual(["c3", "r1", "r2"]);
    expect([...labelableIds({ results: [{ memory_id: "r1" }], candidates: null })]).toEqual(["r1"]);
  });

  it("lists the ids outside them in the order sent (clearing one counts too)", () => {
    expect(unknownLabelIds({ results: { zz: true, r1: true, c3: false, aa: null } }, allowed)).toEqual(["zz", "aa"]);
    expect(unknownLabelIds({}, allowed)).toEqual([]);
  });
});

describe("mergeLabels", () => {
  const current: RecallLabels = {
    present: "yes",
    results: { a: true, b: false },
    labeler: "Priya",
    labeled_at: "2026-01-01T00:00:00.000Z",
  };

  it("changes only what the patch sends", () => {
    expect(mergeLabels(current, { results: { b: true, c: false } }, NOW)).toEqual({
      present: "yes",
      results: { a: true, b: true, c: false },
      labeler: "Priya",
      labeled_at: NOW,
    });
    expect(mergeLabels(current, { present: "no" }, NOW)).toEqual({ ...current, present: "no", labeled_at: NOW });
    expect(mergeLabels(current, { labeler: null }, NOW)).toEqual({ ...current, labeler: null, labeled_at: NOW });
  });

  it("clears one id with null, and labeled_at once nothing is left", () => {
    const cleared = mergeLabels(current, { present: null, results: { a: null, b: null } }, NOW);
    expect(cleared).toEqual({ present: null, results: {}, labeler: "Priya", labeled_at: null });
    expect(mergeLabels(cleared, { results: { a: false } }, NOW).labeled_at).toBe(NOW);
  });

  it("never changes its input", () => {
    const copy = structuredClone(current);
    mergeLabels(current, { results: { a: null, z: true } }, NOW);
    expect(current).toEqual(copy);
    expect(mergeLabels(EMPTY_LABELS, { present: "unsure" }, NOW)).toEqual({
      present: "unsure",
      results: {},
      labeler: null,
      labeled_at: NOW,
    });
    expect(EMPTY_LABELS.results).toEqual({});
  });
});

describe("combinePatches", () => {
  it("lets the later save win per field and per id", () => {
    expect(
      combinePatches({ present: "yes", results: { a: true, b: true } }, { results: { b: null, c: false }, labeler: "x" }),
    ).toEqual({
      present: "yes",
      results: { a: true, b: null, c: false },
      labeler: "x",
    });
    expect(combinePatches({ present: "yes" }, { present: null })).toEqual({ present: null });
    expect(combinePatches({ labeler: "a" }, { present: "no" })).toEqual({ labeler: "a", present: "no" });
  });

  it("gives what applying both in turn gives", () => {
    const a = { present: "yes" as const, results: { x: true, y: false } };
    const b = { results: { y: null, z: true }, labeler: "n" };
    expect(mergeLabels(EMPTY_LABELS, combinePatches(a, b), NOW)).toEqual(mergeLabels(mergeLabels(EMPTY_LABELS, a, NOW), b, NOW));
  });
});

describe("labelsFromColumns", () => {
  it("reads the stored columns", () => {
    expect(
      labelsFromColumns({ labelPresent: "no", labelResults: { a: false, b: true }, labeler: null, labeledAt: new Date(NOW) }),
    ).toEqual({ present: "no", results: { a: false, b: true }, labeler: null, labeled_at: NOW });
  });

  it("ignores what is not a label", () => {
    expect(labelsFromColumns({ labelPresent: "perhaps", labelResults: [true], labeler: null, labeledAt: null })).toEqual(
      EMPTY_LABELS,
    );
    expect(
      labelsFromColumns({ labelPresent: null, labelResults: { a: "yes", b: true }, labeler: null, labeledAt: null }).results,
    ).toEqual({ b: true });
  });
});

describe("relevantIds / presentWord", () => {
  it("lists relevant ids in the given order first, then the rest sorted", () => {
    expect(relevantIds({ d: true, a: true, b: false, c: true }, ["c", "b", "x"])).toEqual(["c", "a", "d"]);
    expect(relevantIds({})).toEqual([]);
  });

  it("words the present label", () => {
    expect([null, "yes", "no", "unsure"].map((p) => presentWord(p as never))).toEqual([
      "Not labeled",
      "Relevant present",
      "Nothing relevant",
      "Unsure",
    ]);
  });
});

describe("labelRows", () => {
  it("lists results in page order (dropped marked), then outside candidates by rank, each id once", () => {
    const rows = labelRows({
      results: [
        { memory_id: "b", summary: "B" },
        { memory_id: "a", summary: "A", dropped: true },
        { memory_id: "c", summary: "C" },
      ],
      candidates: [
        { memory_id: "z", summary: null, rank: 9, returned: false, dropped: false },
        { memory_id: "a", summary: "A", rank: 1, returned: true, dropped: true },
        { memory_id: "c", summary: "C", rank: 3, returned: true, dropped: true },
        { memory_id: "y", summary: "Y", rank: 4, returned: false, dropped: false },
      ],
    });
    expect(rows).toEqual([
      { memory_id: "b", summary: "B", position: 1, kind: "result" },
      { memory_id: "a", summary: "A", position: 2, kind: "dropped" },
      { memory_id: "c", summary: "C", position: 3, kind: "dropped" },
      { memory_id: "y", summary: "Y", position: 4, kind: "candidate" },
      { memory_id: "z", summary: null, position: 9, kind: "candidate" },
    ]);
    expect(labelRows({ results: [], candidates: null })).toEqual([]);
  });
});

describe("cycleResultLabel / labelShortcut", () => {
  it("cycles unlabeled → relevant → not relevant → unlabeled", () => {
    expect([cycleResultLabel(undefined), cycleResultLabel(true), cycleResultLabel(false)]).toEqual([true, false, null]);
  });

  const plain = { editable: false, modifier: false, inRow: false };
  it("maps y / n / u (either case) and 1–9 anywhere outside a text field", () => {
    expect(labelShortcut("y", plain)).toEqual({ action: "present", value: "yes" });
    expect(labelShortcut("N", plain)).toEqual({ action: "present", value: "no" });
    expect(labelShortcut("u", plain)).toEqual({ action: "present", value: "unsure" });
    expect(labelShortcut("3", plain)).toEqual({ action: "toggle_row", index: 2 });
    expect(labelShortcut("0", plain)).toBeNull();
    expect(labelShortcut("r", plain)).toBeNull();
    expect(labelShortcut("ArrowDown", plain)).toBeNull();
  });

  it("maps r / x / c and the arrows only inside a row", () => {
    const inRow = { ...plain, inRow: true };
    expect(labelShortcut("r", inRow)).toEqual({ action: "row", value: true });
    expect(labelShortcut("x", inRow)).toEqual({ action: "row", value: false });
    expect(labelShortcut("Backspace", inRow)).toEqual({ action: "row", value: null });
    expect(labelShortcut("ArrowUp", inRow)).toEqual({ action: "move", by: -1 });
    expect(labelShortcut("j", inRow)).toEqual({ action: "move", by: 1 });
  });

  it("ignores keys typed into a field or with a modifier", () => {
    expect(labelShortcut("y", { ...plain, editable: true })).toBeNull();
    expect(labelShortcut("y", { ...plain, modifier: true })).toBeNull();
  });
});
