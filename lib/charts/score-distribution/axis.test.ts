import { describe, expect, it } from "vitest";
import { niceDomain, niceStep } from "./index";

describe("axis helpers", () => {
  it("niceStep picks 1, 2 or 5 × 10^n", () => {
    expect(niceStep(0.07)).toBeCloseTo(0.1, 12);
    expect(niceStep(0.15)).toBeCloseTo(0.2, 12);
    expect(niceStep(0.3)).toBeCloseTo(0.5, 12);
    expect(niceStep(3)).toBe(5);
    expect(niceStep(0)).toBe(1);
  });

  it("niceDomain pads, rounds outward and clamps cosines", () => {
    const { domain, ticks } = niceDomain(0.4, 0.9, true);
    expect(domain[0]).toBeLessThan(0.4);
    expect(domain[1]).toBeGreaterThan(0.9);
    expect(domain[1]).toBeLessThanOrEqual(1);
    expect(ticks[0]).toBe(domain[0]);
    expect(ticks[ticks.length - 1]).toBe(domain[1]);
    const clamped = niceDomain(-1, 1, true);
    expect(clamped.domain).toEqual([-1, 1]);
    const single = niceDomain(5, 5, false);
    expect(single.domain[0]).toBeLessThan(5);
    expect(single.domain[1]).toBeGreaterThan(5);
    // No floating-point dust in ticks.
    for (const t of niceDomain(0.1, 0.7, true).ticks) expect(String(t).length).toBeLessThanOrEqual(5);
  });
});
