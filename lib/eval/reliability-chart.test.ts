import { describe, expect, it } from "vitest";
import { reliabilityChart } from "./reliability-chart";

describe("reliabilityChart", () => {
  it("places a calibrated bin on the diagonal and skips empty bins", () => {
    const chart = reliabilityChart(
      [
        { from: 0, to: 0.1, count: 0, mean_predicted: null, observed_rate: null },
        { from: 0.8, to: 0.9, count: 10, mean_predicted: 0.85, observed_rate: 0.85 },
        { from: 0.2, to: 0.3, count: 10, mean_predicted: 0.25, observed_rate: 0.75 },
      ],
      100,
      0,
    );
    expect(chart.points).toHaveLength(2);
    const [onDiagonal, above] = chart.points;
    expect(onDiagonal!.x).toBeCloseTo(85, 6);
    expect(onDiagonal!.y).toBeCloseTo(15, 6);
    // Observed above predicted: the point sits above the diagonal (smaller y in SVG).
    expect(above!.y).toBeLessThan(100 - above!.x);
    expect(chart.diagonal).toEqual({ x1: 0, y1: 100, x2: 100, y2: 0 });
  });
});
