import { describe, expect, it } from "vitest";
import { mulberry32 } from "@/lib/random";
import type { RecallSignals } from "./features";
import { queryFromMemory, relativeSignals, storeNull } from "./store-null";

const s = (top: number | null): RecallSignals => ({
  top_cosine: top,
  gap: 0.02,
  bg_mean: 0.3,
  bg_std: 0.05,
  bm25_ratio: null,
  idf_coverage: 0.1,
});

describe("storeNull", () => {
  it("learns each signal's mean and spread with the highest probes trimmed", () => {
    // 95 probes around 0.3, 5 that happen to match the store at 0.9: trimmed away.
    const probes = [
      ...Array.from({ length: 95 }, (_, i) => s(0.25 + (i % 11) * 0.01)),
      ...Array.from({ length: 5 }, () => s(0.9)),
    ];
    const nul = storeNull(probes);
    expect(nul.probes).toBe(100);
    expect(nul.mean[0]).toBeCloseTo(0.3, 2);
    expect(nul.std[0]).toBeLessThan(0.05);
    // A signal no probe has: mean 0, spread 1 (it passes through unchanged).
    expect(nul.mean[4]).toBe(0);
    expect(nul.std[4]).toBe(1);
    // A constant signal keeps a floor spread instead of dividing by zero.
    expect(nul.std[1]).toBeGreaterThan(0);
  });

  it("measures a recall in the null's spreads above its mean; a missing signal stays missing", () => {
    const nul = { mean: [0.3, 0, 0, 0, 0, 0], std: [0.05, 1, 1, 1, 1, 1], probes: 10 };
    const r = relativeSignals(s(0.4), nul);
    expect(r.top_cosine).toBeCloseTo(2, 6);
    expect(r.bm25_ratio).toBeNull();
  });
});

describe("queryFromMemory", () => {
  it("drops and swaps words of the memory, deterministically for a seed, and refuses a short text", () => {
    const text = "The quoting service keeps quotes in the rate cache for fifteen minutes since the March incident.";
    const a = queryFromMemory(text, mulberry32(1));
    const b = queryFromMemory(text, mulberry32(1));
    expect(a).toBe(b);
    expect(a).not.toBe(text);
    const words = a!.split(" ");
    expect(words.length).toBeGreaterThanOrEqual(3);
    expect(words.length).toBeLessThan(text.split(" ").length);
    for (const w of words) expect(text).toContain(w);
    expect(queryFromMemory("too short", mulberry32(1))).toBeNull();
  });
});
