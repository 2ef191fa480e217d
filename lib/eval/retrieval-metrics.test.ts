import { describe, expect, it } from "vitest";
import { retrievalReport, type LabeledQuery } from "./retrieval-metrics";

const on = (id: string, relevant: string[]): LabeledQuery => ({ id, query: id, kind: "on_topic", relevant });
const off = (id: string): LabeledQuery => ({ id, query: id, kind: "off_topic", relevant: [] });

describe("retrievalReport", () => {
  it("computes hit@1, hit@5 and MRR from the first relevant rank", () => {
    const report = retrievalReport([
      { query: on("a", ["x"]), ranked: ["x", "y"], level: "high" }, // rank 1
      { query: on("b", ["y", "z"]), ranked: ["q", "w", "z", "y"], level: "moderate" }, // rank 3
      { query: on("c", ["x"]), ranked: ["1", "2", "3", "4", "5", "x"], level: "low" }, // rank 6
      { query: on("d", ["x"]), ranked: [], level: "none" }, // missed
      { query: off("e"), ranked: ["x"], level: "low" },
    ]);
    expect(report.onTopic).toBe(4);
    expect(report.offTopic).toBe(1);
    expect(report.hitAt1).toBe(0.25);
    expect(report.hitAt5).toBe(0.5);
    expect(report.mrr).toBeCloseTo((1 + 1 / 3 + 1 / 6 + 0) / 4, 12);
    expect(report.levels.on_topic).toEqual({ high: 1, moderate: 1, low: 1, none: 1 });
    expect(report.levels.off_topic).toEqual({ high: 0, moderate: 0, low: 1, none: 0 });
  });

  it("reports zeros, not NaN, when there are no on-topic queries", () => {
    const report = retrievalReport([{ query: off("e"), ranked: [], level: "none" }]);
    expect([report.hitAt1, report.hitAt5, report.mrr]).toEqual([0, 0, 0]);
  });
});
