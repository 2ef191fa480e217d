import { describe, expect, it } from "vitest";
import type { PoolSignals } from "../signals";
import { bestCut, CUT_STEP } from "./cut";

/** A semantic pool's signals with a usable background frame. */
const sem = (top: number, prominence = 0.3): PoolSignals => ({
  basis: "semantic",
  top,
  prominence,
  backgroundUsable: true,
  z: null,
});

describe("bestCut", () => {
  it("puts the cut between separable classes, in the middle of the run of perfect cuts", () => {
    const signals = [sem(0.3), sem(0.32), sem(0.35), sem(0.5), sem(0.52), sem(0.6)];
    const present = [false, false, false, true, true, true];
    const c = bestCut(signals, present, 0, 0);
    expect(c.ba).toBe(1);
    expect(c.cut).toBeGreaterThan(0.35);
    expect(c.cut).toBeLessThanOrEqual(0.5);
    // every cut in (0.35, 0.5] is perfect; the middle of that run is chosen
    expect(Math.abs(c.cut - 0.4275)).toBeLessThanOrEqual(CUT_STEP);
  });

  it("with smoothing, prefers a broad good region to a narrow spike", () => {
    // A cut in (0.455, 0.46] is perfect but 0.005 wide; anywhere in (0.30, 0.455] makes one error.
    const signals = [0.2, 0.25, 0.3, 0.455, 0.46, 0.462, 0.464, 0.6, 0.7].map((t) => sem(t));
    const present = [false, false, false, false, true, true, true, true, true];
    const sharp = bestCut(signals, present, 0, 0);
    const smooth = bestCut(signals, present, 0, 0.05);
    expect(sharp.ba).toBe(1);
    expect(sharp.cut).toBeGreaterThan(0.455);
    expect(sharp.cut).toBeLessThanOrEqual(0.46);
    expect(smooth.cut).toBeGreaterThan(0.3);
    expect(smooth.cut).toBeLessThanOrEqual(0.455);
    expect(smooth.ba).toBeCloseTo((1 + 3 / 4) / 2, 12);
  });

  it("counts pools whose verdict the cut cannot change as fixed calls", () => {
    // Below the prominence threshold a semantic pool is never worth reading; a single candidate always is.
    const signals: PoolSignals[] = [
      sem(0.9, 0.01), // strong cosine: the cut decides even below the prominence threshold
      sem(0.6, 0.05), // prominence below 0.1: never, whatever the cut
      { basis: "single", top: 0.2, prominence: null, backgroundUsable: false, z: null },
      sem(0.3, 0.5),
    ];
    const present = [true, true, true, false];
    const c = bestCut(signals, present, 0.1, 0);
    // tp: the strong one and the single one; fn: the low-prominence one; tn: the absent one under the cut
    expect(c.ba).toBeCloseTo((2 / 3 + 1) / 2, 12);
    expect(c.cut).toBeGreaterThan(0.3);
  });

  it("answers a null accuracy when a class is empty", () => {
    expect(bestCut([sem(0.4), sem(0.5)], [true, true], 0, 0.05).ba).toBeNull();
  });
});
