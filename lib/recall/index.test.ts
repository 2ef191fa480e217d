import { describe, expect, it } from "vitest";
import * as recall from "./index";

describe("public API (index.ts)", () => {
  it("re-exports the library", () => {
    for (const name of [
      "computeConfidence",
      "resolveThresholds",
      "validateThresholds",
      "mergeHybrid",
      "fetchSize",
      "candidatesK",
      "selectorApplied",
      "selectorNotApplied",
      "serializeSelector",
      "parseSelector",
      "RecallRequestSchema",
      "RecallResponseSchema",
      "explainTrace",
      "triageAdvice",
      "backgroundMeanFromProminence",
      "RecallInputError",
      "ThresholdsError",
    ]) {
      expect(recall, name).toHaveProperty(name);
    }
    expect(recall.MAX_POOL_SCORES).toBe(10_000);
    expect(recall.MAX_DROPPED_IDS).toBe(20);
  });

  it("the wire level enum and the library's levels agree", () => {
    expect([...recall.LevelSchema.options].sort()).toEqual([...recall.LEVELS].sort());
    const level: recall.Level = recall.LevelSchema.parse("low");
    expect(recall.levelRank(level)).toBe(1);
  });

  it("a computed block validates against the reference wire schema", () => {
    const block = recall.toWireConfidence(recall.computeConfidence({ hybridScores: [0.9, 0.3, 0.2] }));
    expect(recall.RecallConfidenceSchema.parse(block)).toMatchObject({ level: block.level, result_count: 3 });
  });
});
