import { describe, expect, it } from "vitest";
import { BAND_COLORS, MARKER_COLORS, POINT_STYLES, prepareScoreDistribution } from "./index";
import { PRESENT, contrastOnWhite, marker, semantic, view } from "./test-fixtures";

describe("colours", () => {
  it("points and markers have at least 4.5:1 contrast on white, and differ by kind", () => {
    const colours = [
      POINT_STYLES.pool.fill,
      POINT_STYLES.pool.stroke,
      POINT_STYLES.outside.stroke,
      POINT_STYLES.returned.fill,
      POINT_STYLES.returned.stroke,
      POINT_STYLES.dropped.fill,
      ...Object.values(BAND_COLORS),
      ...Object.values(MARKER_COLORS),
    ];
    for (const c of colours) expect(contrastOnWhite(c), c).toBeGreaterThanOrEqual(4.5);
    const markerColours = [...Object.values(BAND_COLORS), ...Object.values(MARKER_COLORS)];
    expect(new Set(markerColours).size).toBe(markerColours.length);
  });

  it("every prepared marker and point carries its colour", () => {
    const p = prepareScoreDistribution(view(semantic(PRESENT)), "raw_cosine");
    for (const m of p.markers) {
      const expected = m.kind === "prominence_band" || m.kind === "z_band" ? BAND_COLORS[m.band!] : MARKER_COLORS[m.kind];
      expect(m.color).toBe(expected);
    }
    expect(marker(p, "top").dash).toBe("");
    expect(marker(p, "background_mean").dash).not.toBe("");
    for (const pt of p.points) expect(pt.fill).toBe(POINT_STYLES[pt.category].fill);
  });
});
