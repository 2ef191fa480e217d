/**
 * Calibration without labels (lib/profiles/README.md "Calibration without labels"): what "nothing relevant"
 * scores in one store, learnt by running a bundled set of unrelated probe queries against it
 * (data/calibration), and the store-relative signals that measure a recall against that null —
 * a top cosine of 0.45 means one thing in a small store of short notes and another in a large
 * one. The store's own memories give the present side: queries made from a memory's text with
 * words dropped and shuffled, which the label-free estimate scores against the probes. Pure.
 */
import { FEATURE_NAMES, type RecallSignals } from "./features";

/** Per feature: the probes' mean and spread (the top share trimmed: a few probes may be on topic). */
export interface StoreNull {
  mean: number[];
  std: number[];
  /** How many probe recalls it was learnt from. */
  probes: number;
  /** Memories the store held then (a store that changed by more than a few per cent calibrates again). */
  memories?: number;
}

/** Share of each feature's highest probe values left out (probes that happen to match the store). */
export const NULL_TRIM = 0.05;
/** A spread below this is treated as this (a feature that never moves would blow up). */
const MIN_STD = 1e-3;

export function storeNull(probes: readonly RecallSignals[], trim = NULL_TRIM): StoreNull {
  const mean: number[] = [];
  const std: number[] = [];
  for (const name of FEATURE_NAMES) {
    const values = probes
      .map((p) => p[name])
      .filter((v): v is number => v !== null)
      .sort((a, b) => a - b);
    const kept = values.slice(0, Math.max(1, Math.ceil(values.length * (1 - trim))));
    if (values.length === 0) {
      mean.push(0);
      std.push(1);
      continue;
    }
    const m = kept.reduce((s, v) => s + v, 0) / kept.length;
    const sd = Math.sqrt(kept.reduce((s, v) => s + (v - m) ** 2, 0) / kept.length);
    mean.push(m);
    std.push(Math.max(sd, MIN_STD));
  }
  return { mean, std, probes: probes.length };
}

/** The signals measured in the store's null's standard deviations above its mean. */
export function relativeSignals(signals: RecallSignals, nul: StoreNull): RecallSignals {
  const out = { ...signals };
  FEATURE_NAMES.forEach((name, j) => {
    const v = signals[name];
    out[name] = v === null ? null : (v - nul.mean[j]!) / nul.std[j]!;
  });
  return out;
}

/**
 * A query made from a memory's text: a window of its words with about a third dropped and one
 * neighbouring pair swapped, so it is not the memory's own wording. Null for a text too short.
 */
export function queryFromMemory(text: string, rng: () => number, maxWords = 12): string | null {
  const words = text.split(/\s+/).filter((w) => /[\p{L}\p{N}]/u.test(w));
  if (words.length < 4) return null;
  const start = Math.floor(rng() * Math.max(1, words.length - maxWords));
  const window = words.slice(start, start + maxWords);
  const kept = window.filter(() => rng() >= 0.35);
  if (kept.length < 3) return null;
  const i = Math.floor(rng() * (kept.length - 1));
  [kept[i], kept[i + 1]] = [kept[i + 1]!, kept[i]!];
  return kept.join(" ").replace(/[.,;:!?]+$/u, "");
}
