import { describe, expect, it } from "vitest";
import {
  mergeLineLabels,
  placeLineLabels,
  textWidthPx,
  tickIntervalForWidth,
  type LineLabelInput,
  type PlacedLineLabel,
} from "./label-placement";

const line = (name: string, value: number): LineLabelInput => ({ name, value, valueText: value.toFixed(2) });

/** Two labels in one row whose extents (plus nothing) meet or cross. */
function overlaps(labels: readonly PlacedLineLabel[]): [string, string][] {
  const found: [string, string][] = [];
  for (const [i, a] of labels.entries()) {
    for (const b of labels.slice(i + 1)) {
      if (a.row === b.row && a.left < b.right && b.left < a.right) found.push([a.text, b.text]);
    }
  }
  return found;
}

describe("mergeLineLabels", () => {
  it("gives lines drawn at the same value one label naming both", () => {
    expect(mergeLineLabels([line("low guard", 0.4), line("moderate guard", 0.4), line("strong cosine", 0.85)])).toEqual([
      { value: 0.4, names: ["low guard", "moderate guard"], text: "low guard / moderate guard 0.40" },
      { value: 0.85, names: ["strong cosine"], text: "strong cosine 0.85" },
    ]);
  });
  it("merges values that read the same on the chart, and drops values that cannot be drawn", () => {
    expect(mergeLineLabels([line("a", 0.4), line("b", 0.4000001), line("c", Number.NaN)]).map((m) => m.text)).toEqual([
      "a / b 0.40",
    ]);
  });
});

describe("placeLineLabels", () => {
  // The crowded case the placement was made for: a fitted profile's guards both at 0.40, and prominence bands at −0.12 and 0.00.
  const guards = [line("low guard", 0.4), line("moderate guard", 0.4), line("strong cosine", 0.85)];
  const bands = [line("low", -0.12), line("moderate", 0), line("high", 0.4)];

  for (const plotPx of [220, 270, 520, 600]) {
    it(`leaves no two labels overlapping and every label inside the plot at ${plotPx} px`, () => {
      for (const [lines, domain] of [
        [guards, [0.3, 0.85]],
        [bands, [-0.15, 0.6]],
      ] as const) {
        const layout = placeLineLabels(lines, domain, plotPx);
        expect(overlaps(layout.labels)).toEqual([]);
        for (const l of layout.labels) {
          expect(l.left).toBeGreaterThanOrEqual(0);
          expect(l.right).toBeLessThanOrEqual(plotPx + 1e-9);
        }
        expect(layout.rows).toBe(Math.max(0, ...layout.labels.map((l) => l.row + 1)));
      }
    });
  }

  it("slides a label at the right edge to end at its line instead of running out of the plot", () => {
    const layout = placeLineLabels(guards, [0.3, 0.85], 600);
    const strong = layout.labels.find((l) => l.names.includes("strong cosine"))!;
    const width = textWidthPx("strong cosine 0.85", 11);
    expect(strong.right).toBeCloseTo(600, 9);
    expect(strong.dx).toBeCloseTo(-width, 9);
    const low = layout.labels.find((l) => l.names.includes("low guard"))!;
    expect(low.text).toBe("low guard / moderate guard 0.40");
    // Room on both sides at 600 px: centred on its line.
    expect(low.dx).toBeCloseTo(-textWidthPx(low.text, 11) / 2, 9);
  });

  it("slides a label at the left edge to start at its line, and a wide one as little as it must", () => {
    expect(placeLineLabels([line("low", -0.15)], [-0.15, 0.6], 300).labels[0]).toMatchObject({ dx: 0, left: 0, row: 0 });
    // 0.40 sits 40 px in at 220 px: the merged label cannot be centred there, it starts at the plot's edge.
    const wide = placeLineLabels(guards, [0.3, 0.85], 220).labels[0]!;
    expect(wide.left).toBe(0);
    expect(wide.dx).toBeCloseTo(-40, 9);
  });

  it("staggers close labels into rows and keeps far ones on the first", () => {
    const close = placeLineLabels(bands, [-0.15, 0.6], 300);
    expect(close.labels.map((l) => [l.text, l.row])).toEqual([
      ["low -0.12", 0],
      ["moderate 0.00", 1],
      ["high 0.40", 0],
    ]);
    expect(close.rows).toBe(2);
    const wide = placeLineLabels([line("a", 0), line("b", 1)], [0, 1], 600);
    expect(wide.labels.map((l) => l.row)).toEqual([0, 0]);
    expect(wide.rows).toBe(1);
  });

  it("labels nothing outside the domain, and has no rows without lines", () => {
    expect(placeLineLabels([line("far", 2)], [0, 1], 400)).toEqual({ labels: [], rows: 0 });
    expect(placeLineLabels([], [0, 1], 400)).toEqual({ labels: [], rows: 0 });
  });
});

describe("tickIntervalForWidth", () => {
  // A day of hour buckets, the Insights default on a fresh demo: "00:00" … "23:00".
  const hours = Array.from({ length: 24 }, (_, h) => `${String(h).padStart(2, "0")}:00`);

  it("skips enough ticks at phone width that the shown ones have room", () => {
    const plotPx = 390 - 32 - 32 - 44 - 52; // the Insights plot on a 390 px phone, about 230 px
    const interval = tickIntervalForWidth(hours, plotPx);
    const shown = hours.filter((_, i) => i % (interval + 1) === 0);
    const slot = (plotPx / hours.length) * (interval + 1);
    expect(slot).toBeGreaterThanOrEqual(textWidthPx("00:00", 12));
    expect(shown.length).toBeLessThanOrEqual(5);
    expect(shown.length).toBeGreaterThanOrEqual(3);
  });

  it("shows every tick when there is room, and never more than maxTicks", () => {
    expect(tickIntervalForWidth(hours.slice(0, 6), 900)).toBe(0);
    expect(tickIntervalForWidth(hours, 2000)).toBe(1); // 24 ticks, at most 12 shown
  });

  it("falls back to about a dozen ticks without a measured width, and handles tiny axes", () => {
    expect(tickIntervalForWidth(hours, null)).toBe(1);
    const count = (n: number) => Array.from({ length: n }, (_, i) => String(i));
    expect(tickIntervalForWidth(count(10), null)).toBe(0);
    expect(tickIntervalForWidth(count(31), null)).toBe(2);
    expect(tickIntervalForWidth(count(721), null)).toBe(60);
    expect(tickIntervalForWidth([], 300)).toBe(0);
    expect(tickIntervalForWidth(["Jan 9"], 10)).toBe(0);
    // Narrower than one label: one tick shown (interval count − 1).
    expect(tickIntervalForWidth(hours, 20)).toBe(23);
  });

  it("makes room for the widest tick, not the first", () => {
    const mixed = ["Jan 9", "01:00", "02:00", "Wed Jan 10", "04:00", "05:00"];
    expect(tickIntervalForWidth(mixed, 300)).toBeGreaterThan(
      tickIntervalForWidth(
        mixed.map(() => "01:00"),
        300,
      ),
    );
  });
});
