import { expect, type Locator } from "@playwright/test";

/**
 * Label boxes of a drawn Recharts chart, measured in the browser: the x-axis tick labels, each
 * y axis's tick labels, and the chart's own labels (reference-line labels such as thresholds,
 * `[data-testid=threshold-label]`, and axis names, `.recharts-label`). Two boxes overlap when
 * their rectangles share more than `TOLERANCE_PX` each way.
 *
 * Checked: no two tick labels of one axis overlap; no chart label overlaps any other text of the
 * chart; every chart label lies wholly inside the chart's SVG (so none is cut off at its edge).
 */
const TOLERANCE_PX = 0.5;

interface Found {
  texts: number;
  overlaps: string[];
  outside: string[];
}

export async function labelProblems(chart: Locator): Promise<Found> {
  return chart.evaluate((root, tolerance) => {
    const visible = (el: Element) => {
      const r = el.getBoundingClientRect();
      return r.width > 0 && r.height > 0 && (el.textContent ?? "").trim() !== "";
    };
    const name = (el: Element) => JSON.stringify((el.textContent ?? "").trim());
    const hit = (a: DOMRect, b: DOMRect) =>
      Math.min(a.right, b.right) - Math.max(a.left, b.left) > tolerance &&
      Math.min(a.bottom, b.bottom) - Math.max(a.top, b.top) > tolerance;
    const overlaps: string[] = [];
    const outside: string[] = [];
    let texts = 0;
    for (const svg of root.querySelectorAll("svg.recharts-surface")) {
      const all = [...svg.querySelectorAll("text")].filter(visible);
      texts += all.length;
      const axes = [...svg.querySelectorAll(".recharts-xAxis-tick-labels, .recharts-yAxis-tick-labels")].map((g) =>
        [...g.querySelectorAll("text")].filter(visible),
      );
      for (const ticks of axes) {
        for (const [i, a] of ticks.entries()) {
          for (const b of ticks.slice(i + 1)) {
            if (hit(a.getBoundingClientRect(), b.getBoundingClientRect())) overlaps.push(`tick ${name(a)} × tick ${name(b)}`);
          }
        }
      }
      const box = svg.getBoundingClientRect();
      const labels = [...svg.querySelectorAll("[data-testid=threshold-label], text.recharts-label")].filter(visible);
      for (const label of labels) {
        const r = label.getBoundingClientRect();
        if (
          r.left < box.left - tolerance ||
          r.right > box.right + tolerance ||
          r.top < box.top - tolerance ||
          r.bottom > box.bottom + tolerance
        ) {
          outside.push(name(label));
        }
        for (const other of all) {
          if (other === label || (labels.includes(other) && labels.indexOf(other) < labels.indexOf(label))) continue;
          if (hit(r, other.getBoundingClientRect())) overlaps.push(`label ${name(label)} × ${name(other)}`);
        }
      }
    }
    return { texts, overlaps, outside };
  }, TOLERANCE_PX);
}

/** The chart has drawn some text, none of its labels overlap and none is cut off. */
export async function expectNoLabelOverlap(chart: Locator, what: string): Promise<Found> {
  await expect(chart.locator("svg.recharts-surface").first(), `${what} is drawn`).toBeVisible({ timeout: 30_000 });
  const found = await labelProblems(chart);
  expect(found.texts, `${what} has labels`).toBeGreaterThan(0);
  expect(found.overlaps, `${what}: overlapping labels`).toEqual([]);
  expect(found.outside, `${what}: labels cut off at the chart's edge`).toEqual([]);
  return found;
}
