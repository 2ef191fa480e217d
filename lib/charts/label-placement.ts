/**
 * Where a chart's text goes so that no two labels overlap (pure, client-safe; part of the prepare
 * step, docs/ARCHITECTURE.md "Charts: prepare, then visualise"). The components measure their
 * plot's width and pass it in; the text widths are estimates from the character count, kept on
 * the generous side so an estimate never lets two labels touch.
 *
 * - `placeLineLabels`: the labels of vertical reference lines (thresholds). Lines at the same x
 *   share one label ("low guard / moderate guard 0.40"), close labels are staggered into rows
 *   above the plot, and a label near an edge is slid to stay inside the plot.
 * - `tickIntervalForWidth`: how many category ticks to skip so the shown ones have room
 *   (Insights' hour ticks at 390 px).
 */

/** Average advance of a character of the chart's sans-serif text, as a share of the font size (digits ≈ 0.56). */
const CHAR_EM = 0.62;
/** Space kept clear between two labels in one row, px. */
const LABEL_GAP_PX = 8;

/** The estimated width of `text` in px at `fontPx`. */
export function textWidthPx(text: string, fontPx: number): number {
  return [...text].length * fontPx * CHAR_EM;
}

export interface LineLabelInput {
  /** Where the line is on the x axis (data units). */
  value: number;
  /** What the line is, without its value ("low guard"). */
  name: string;
  /** The value as written on the chart ("0.40"). */
  valueText: string;
}

export interface PlacedLineLabel {
  /** The x of the line (data units); one label for every line at this x. */
  value: number;
  /** The names of the lines it labels, in input order. */
  names: string[];
  text: string;
  /** 0 is the row nearest the plot; each row above it is one line of text higher. */
  row: number;
  /** Where the text starts, px from its line (drawn with text-anchor start): −width/2 when centred. */
  dx: number;
  /** The estimated extent of the text from the plot's left edge, px. */
  left: number;
  right: number;
}

export interface LineLabelLayout {
  labels: PlacedLineLabel[];
  /** Rows used (0 for no label): the chart's top margin makes room for them. */
  rows: number;
}

/**
 * One label per distinct x: lines whose values are equal (to the text drawn, so two thresholds
 * that both read 0.40 share it) are named together, "a / b 0.40".
 */
export function mergeLineLabels(lines: readonly LineLabelInput[]): { value: number; names: string[]; text: string }[] {
  const groups = new Map<string, { value: number; names: string[]; valueText: string }>();
  for (const line of lines) {
    if (!Number.isFinite(line.value)) continue;
    const seen = groups.get(line.valueText);
    if (seen) {
      if (!seen.names.includes(line.name)) seen.names.push(line.name);
    } else {
      groups.set(line.valueText, { value: line.value, names: [line.name], valueText: line.valueText });
    }
  }
  return [...groups.values()].map((g) => ({ value: g.value, names: g.names, text: `${g.names.join(" / ")} ${g.valueText}` }));
}

/**
 * Places the labels of vertical lines over a plot `plotPx` wide spanning `domain`. Each label is
 * centred on its line unless that would cross an edge of the plot, then slid inside it; labels
 * are laid left to right into the first row where they clear every label already there by
 * LABEL_GAP_PX, opening a new row when none has room. Lines outside the domain get no label.
 * (A label wider than the plot starts at its left edge: the plot is never that narrow here.)
 */
export function placeLineLabels(
  lines: readonly LineLabelInput[],
  domain: readonly [number, number],
  plotPx: number,
  fontPx = 11,
): LineLabelLayout {
  const [lo, hi] = domain;
  const span = hi - lo || 1;
  const width = Math.max(plotPx, 1);
  const merged = mergeLineLabels(lines)
    .filter((m) => m.value >= lo && m.value <= hi)
    .sort((a, b) => a.value - b.value);
  const rowEnds: number[] = [];
  const labels: PlacedLineLabel[] = [];
  for (const m of merged) {
    const x = ((m.value - lo) / span) * width;
    const w = textWidthPx(m.text, fontPx);
    // Centred on its line, slid inward as far as needed to stay inside the plot.
    const left = Math.max(0, Math.min(x - w / 2, width - w));
    const right = left + w;
    let row = rowEnds.findIndex((end) => end + LABEL_GAP_PX <= left);
    if (row === -1) {
      row = rowEnds.length;
      rowEnds.push(right);
    } else {
      rowEnds[row] = right;
    }
    labels.push({ value: m.value, names: m.names, text: m.text, row, dx: left - x, left, right });
  }
  return { labels, rows: rowEnds.length };
}

/**
 * The `interval` of a category axis (ticks skipped between two shown ones) so that the shown
 * tick labels, evenly spaced over `plotPx`, each have room for the widest of them. Without a
 * measured width it falls back to about `maxTicks` ticks; it never shows more than that.
 */
export function tickIntervalForWidth(ticks: readonly string[], plotPx: number | null, fontPx = 12, maxTicks = 12): number {
  const count = ticks.length;
  if (count <= 1) return 0;
  const byCount = count <= maxTicks ? 0 : Math.ceil(count / maxTicks) - 1;
  if (plotPx === null || !(plotPx > 0)) return byCount;
  const widest = Math.max(...ticks.map((t) => textWidthPx(t, fontPx)));
  const slot = plotPx / count;
  const step = Math.ceil((widest + LABEL_GAP_PX) / slot);
  return Math.max(byCount, Math.min(count - 1, step - 1));
}
