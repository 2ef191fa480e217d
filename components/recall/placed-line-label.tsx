import type { PlacedLineLabel } from "@/lib/charts/label-placement";

/**
 * The text of a chart line's label where lib/charts/label-placement.ts put it: on its row above
 * the plot (`row` × LABEL_ROW_PX), slid inside it by `dx`. Recharts hands `x`/`y` of the line's top.
 */
export const LABEL_FONT_PX = 11;
export const LABEL_ROW_PX = 15;

export function PlacedLineLabelText({
  x,
  y,
  label,
  fill,
}: {
  x?: number | string;
  y?: number | string;
  label: PlacedLineLabel;
  fill: string;
}) {
  if (typeof x !== "number" || typeof y !== "number") return null;
  return (
    <text
      x={x + label.dx}
      y={y - label.row * LABEL_ROW_PX}
      textAnchor="start"
      fontSize={LABEL_FONT_PX}
      fill={fill}
      data-testid="threshold-label"
    >
      {label.text}
    </text>
  );
}
