/**
 * The level palette, once (docs/ARCHITECTURE.md "One home per thing"): the colour of each
 * confidence level wherever it is drawn — badges (through the `--level-*` CSS variables in
 * app/globals.css, which a unit test keeps equal to this), the score-distribution bands and the
 * Insights level mix. Chosen for ≥ 4.5:1 contrast on white. Client-safe.
 */
import type { Level } from "@/lib/recall/confidence";

export const LEVEL_COLORS: Readonly<Record<Level, string>> = Object.freeze({
  high: "#17703a",
  moderate: "#2f5bd3",
  low: "#a05a00",
  none: "#9a1c1c",
});
