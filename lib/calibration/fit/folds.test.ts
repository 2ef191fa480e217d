import { describe, expect, it } from "vitest";
import { assignFolds } from "./folds";
import type { FitExample } from "./types";

describe("assignFolds", () => {
  it("keeps a group in one fold and stratifies by class", () => {
    const examples: FitExample[] = [];
    for (let q = 0; q < 20; q++)
      for (const k of [5, 10, 20]) examples.push({ group: `q${q}`, present: q < 12, k, candidates: [] });
    const folds = assignFolds(examples, 4, 1);
    for (let q = 0; q < 20; q++) expect(new Set(folds.slice(q * 3, q * 3 + 3)).size).toBe(1);
    for (let f = 0; f < 4; f++) {
      const present = examples.filter((e, i) => folds[i] === f && e.present).length / 3;
      expect(present).toBe(3);
    }
    expect(assignFolds(examples, 4, 1)).toEqual(folds);
  });
});
