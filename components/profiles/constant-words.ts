import type { ThresholdKey } from "@/lib/recall/thresholds";

/**
 * A profile's constants in plain words (reference-rules.md "The rules"): the label a form or a
 * table shows, with the constant's name beside it in small code (`NamedLabel`), and a line on
 * what it decides. The names stay the keys of the API, the URL and a profile's JSON.
 */
export const CONSTANT_WORDS: Readonly<Record<ThresholdKey | "pool_size", { label: string; hint: string }>> = {
  pool_size: { label: "Pool size", hint: "how many merged candidates the rules judge" },
  high_prominence: { label: "Prominence for high", hint: "the top's prominence over the background needed for high" },
  moderate_prominence: { label: "Prominence for moderate", hint: "the prominence needed for moderate" },
  low_prominence: { label: "Prominence for low", hint: "the prominence needed for low; below it, none" },
  strong_abs_cosine: { label: "Near-duplicate cosine", hint: "a top cosine at least this is at least moderate" },
  abs_moderate_cosine: { label: "Cosine guard for high", hint: "high also needs a top cosine at least this" },
  abs_low_cosine: { label: "Cosine guard for moderate", hint: "moderate also needs a top cosine at least this" },
  bg_eps: { label: "Least usable background mean", hint: "at or below it, prominence is not used" },
  std_eps: { label: "Flat background spread", hint: "a background spread at or below it counts as flat" },
  z_high: { label: "Fallback z-score for high", hint: "keyword-only pools: the z-score needed for high" },
  z_moderate: { label: "Fallback z-score for moderate", hint: "keyword-only pools: the z-score needed for moderate" },
  z_low: { label: "Fallback z-score for low", hint: "keyword-only pools: the z-score needed for low" },
};
