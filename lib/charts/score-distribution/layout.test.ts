import { describe, expect, it } from "vitest";
import { ASSUMED_PLOT_PX, MAX_LABEL_ROWS, prepareScoreDistribution, relayoutMarkerLabels } from "./index";
import type { DistributionMarker, PreparedScoreDistribution } from "./index";
import { MEAN_HALF, semantic, view } from "./test-fixtures";

/** The px each label covers on the plot, as the layout estimates it (6.4 px a character + 10). */
function extent(m: DistributionMarker, p: PreparedScoreDistribution, plotPx: number): [number, number] {
  const centre = ((m.x - p.domain[0]) / (p.domain[1] - p.domain[0])) * plotPx;
  const half = (m.shortLabel.length * 6.4 + 10) / 2;
  return [centre - half, centre + half];
}

function expectNoOverlap(p: PreparedScoreDistribution, plotPx: number) {
  const drawn = p.markers.filter((m) => m.inDomain && m.labelRow >= 0);
  for (const a of drawn) {
    for (const b of drawn) {
      if (a === b || a.labelRow !== b.labelRow || a.kind === "top" || b.kind === "top") continue;
      const [al, ar] = extent(a, p, plotPx);
      const [bl, br] = extent(b, p, plotPx);
      expect(ar <= bl + 1e-9 || br <= al + 1e-9, `${a.shortLabel} and ${b.shortLabel} overlap in row ${a.labelRow}`).toBe(true);
    }
  }
}

describe("relayoutMarkerLabels", () => {
  // A pool whose markers crowd one end of the axis: mean, the guards, the bands and the top.
  const crowded = () => prepareScoreDistribution(view(semantic([0.49, 0.45, 0.42, 0.4, 0.38, 0.36, 0.33, 0.3])), "raw_cosine");

  it("at the assumed width gives the same rows as prepare", () => {
    const p = crowded();
    const again = relayoutMarkerLabels(p, ASSUMED_PLOT_PX);
    expect(again.markers.map((m) => m.labelRow)).toEqual(p.markers.map((m) => m.labelRow));
    expect(again.labelRows).toBe(p.labelRows);
  });

  it("on a phone's plot keeps labels of one row apart, and hides what has no room instead of overlapping", () => {
    const p = crowded();
    const narrow = relayoutMarkerLabels(p, 240);
    expect(narrow.labelRows).toBeLessThanOrEqual(MAX_LABEL_ROWS);
    expectNoOverlap(narrow, 240);
    // The top is always labelled; every marker stays in the legend (markers are not removed).
    expect(narrow.markers.find((m) => m.kind === "top")!.labelRow).toBeGreaterThanOrEqual(0);
    expect(narrow.markers).toHaveLength(p.markers.length);
    // Something had to give at 240 px that fitted at 600.
    const hidden = narrow.markers.filter((m) => m.inDomain && m.labelRow < 0);
    expect(hidden.length + narrow.labelRows).toBeGreaterThan(p.labelRows);
  });

  it("does not change its input", () => {
    const p = crowded();
    const rows = p.markers.map((m) => m.labelRow);
    relayoutMarkerLabels(p, 200);
    expect(p.markers.map((m) => m.labelRow)).toEqual(rows);
  });

  it("marks off-axis markers unlabelled and keeps a 300 px plot free of overlaps", () => {
    const p = prepareScoreDistribution(view(semantic(MEAN_HALF)), "raw_cosine");
    const r = relayoutMarkerLabels(p, 300);
    for (const m of r.markers) if (!m.inDomain) expect(m.labelRow).toBe(-1);
    expectNoOverlap(r, 300);
  });
});
