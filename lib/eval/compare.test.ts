import { describe, expect, it } from "vitest";
import { compareRuns } from "./compare";
import { evalMetrics } from "./metrics";
import type { EvalRunItem } from "./run-schemas";
import { evalRunItem } from "./test-fixtures";

const item = (position: number, o: Partial<EvalRunItem>): EvalRunItem =>
  evalRunItem(position, { recall_id: `r${position}`, top_score: 0.5, prominence: 0.2, relative_margin: 1, ...o });

const report = (items: EvalRunItem[], setId = "s") => ({
  dataset: { id: setId, name: "set" },
  items,
  metrics: evalMetrics(
    items.map((i) => ({ ...i, ranked: i.returned_ids })),
    5,
  ),
});

describe("compareRuns", () => {
  const a = report([
    item(0, { relevant: ["x"], returned_ids: ["y", "x"], first_relevant_rank: 2, level: "low" }),
    item(1, { relevant: [], level: "moderate" }),
    item(2, { relevant: ["z"], returned_ids: ["z"], first_relevant_rank: 1, level: "high" }),
  ]);
  const b = report([
    item(0, { relevant: ["x"], returned_ids: ["x"], first_relevant_rank: 1, level: "moderate" }),
    item(1, { relevant: [], level: "moderate" }),
    item(2, { relevant: ["z"], returned_ids: ["z"], first_relevant_rank: 1, level: "high" }),
  ]);
  const c = compareRuns(a, b);

  it("gives metric deltas b − a", () => {
    const hit1 = c.deltas.find((d) => d.key === "hit_at_1")!;
    expect(hit1).toEqual({ key: "hit_at_1", label: "hit@1", a: 0.5, b: 1, delta: 0.5 });
    expect(c.deltas.find((d) => d.key === "balanced_accuracy")).toMatchObject({ a: 0.25, b: 0.5, delta: 0.25 });
    expect(c.aucDeltas.map((d) => d.key)).toEqual(["auc.top_score", "auc.prominence", "auc.relative_margin"]);
  });
  it("lists rank and level changes and flipped verdicts, and whether the flip was right", () => {
    expect(c.sameSet).toBe(true);
    expect(c).toMatchObject({ flipped: 1, rankChanged: 1, levelChanged: 1 });
    expect(c.rows[0]).toMatchObject({
      rank_a: 2,
      rank_b: 1,
      level_a: "low",
      level_b: "moderate",
      verdict_a: "go_external",
      verdict_b: "worth_reading",
      flipped: true,
      flip_correct: true,
    });
    expect(c.rows[1]).toMatchObject({ flipped: false, flip_correct: null });
  });
  it("keeps rows that only one run reached, and flags different sets", () => {
    const partial = compareRuns(report([item(0, {})], "s1"), report([item(0, {}), item(1, { level: null })], "s2"));
    expect(partial.sameSet).toBe(false);
    expect(partial.rows).toHaveLength(2);
    expect(partial.rows[1]).toMatchObject({ level_a: null, recall_a: null, flipped: false });
    expect(partial.deltas[0]!.delta).toBeNull();
  });
});
