import { LEVEL_COLORS } from "@/lib/level-palette";
import type { BandLevel, MarkerKind, PointCategory, PointSymbol } from "./types";

// ---------------------------------------------------------------------------------------------
// Colours (chosen for contrast on white: points and lines ≥ 4.5:1, histogram is decoration)

export const POINT_STYLES: Readonly<Record<PointCategory, { fill: string; stroke: string; symbol: PointSymbol; label: string }>> =
  Object.freeze({
    pool: { fill: "#334e68", stroke: "#1f2f40", symbol: "circle", label: "in the confidence pool" },
    outside: { fill: "#ffffff", stroke: "#5f6b7a", symbol: "ring", label: "fetched, outside the pool" },
    returned: { fill: "#3b4a8c", stroke: "#242f5e", symbol: "circle", label: "returned result (the page)" },
    dropped: { fill: "#b42318", stroke: "#b42318", symbol: "cross", label: "dropped by the selector" },
  });

export const BAND_COLORS: Readonly<Record<BandLevel, string>> = Object.freeze({
  high: LEVEL_COLORS.high,
  moderate: LEVEL_COLORS.moderate,
  low: LEVEL_COLORS.low,
});

export const MARKER_COLORS: Readonly<Record<Exclude<MarkerKind, "prominence_band" | "z_band">, string>> = Object.freeze({
  background_mean: "#5b6573",
  top: "#111827",
  absolute_guard: "#6d28d9",
  near_duplicate: "#0f766e",
  // The dropped points' red (POINT_STYLES.dropped): the line is where they start.
  selector_cut: "#b42318",
});

export const MARKER_DASH: Readonly<Record<MarkerKind, string>> = Object.freeze({
  background_mean: "6 4",
  top: "",
  prominence_band: "4 3",
  absolute_guard: "2 3",
  near_duplicate: "8 3 2 3",
  z_band: "4 3",
  selector_cut: "1 3",
});

export const HISTOGRAM_COLOR = "#dfe5ee";

export const POINT_RADIUS = 5;
export const TOP_POINT_RADIUS = 7;
