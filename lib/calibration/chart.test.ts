import { describe, expect, it } from "vitest";
import { cutBinLabel, topHistogram } from "./chart";

describe("topHistogram", () => {
  it("bins present and absent on shared edges", () => {
    const bins = topHistogram([
      { top: 0.31, present: false },
      { top: 0.34, present: false },
      { top: 0.41, present: true },
      { top: 0.44, present: false },
      { top: 0.5, present: true },
      { top: null, present: true },
    ]);
    expect(bins.map((b) => b.label)).toEqual(["0.30", "0.35", "0.40", "0.45", "0.50"]);
    expect(bins.map((b) => [b.present, b.absent])).toEqual([
      [0, 2],
      [0, 0],
      [1, 1],
      [0, 0],
      [1, 0],
    ]);
    expect(cutBinLabel(bins, 0.41)).toBe("0.40");
    expect(cutBinLabel(bins, 0.9)).toBeNull();
  });

  it("is empty without signals", () => {
    expect(topHistogram([{ top: null, present: true }])).toEqual([]);
  });
});
