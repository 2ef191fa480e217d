/**
 * The one format module (docs/ARCHITECTURE.md "One home per thing"): numbers, counts, shares and
 * ids as every page shows them. Pure and client-safe. Scores use the reference's rounding (Python
 * half-to-even on the exact binary value), so a figure here reads as the reference service's own.
 */
import { formatFixed } from "@/lib/recall/numeric";

/** Shown wherever a value is missing (null, undefined or not a finite number). */
export const MISSING = "—";

/**
 * Fixed-point text with `digits` decimals, or "—" when the value is missing.
 * A result that rounds to zero drops its minus sign ("-0.000" → "0.000").
 */
export function formatNumber(value: number | null | undefined, digits: number): string {
  if (value === null || value === undefined || !Number.isFinite(value)) return MISSING;
  const text = formatFixed(value, digits);
  return /^-0(\.0*)?$/.test(text) ? text.slice(1) : text;
}

/** Scores and cosines: 3 decimals. */
export const formatScore = (value: number | null | undefined): string => formatNumber(value, 3);

/** BM25 scores: 2 decimals. */
export const formatBm25 = (value: number | null | undefined): string => formatNumber(value, 2);

/** A count with its noun, singular or plural: `plural(1, "candidate")` → "1 candidate". */
export function plural(count: number, singular: string, pluralForm = `${singular}s`): string {
  return `${count} ${count === 1 ? singular : pluralForm}`;
}

/**
 * A long id shortened in the middle, keeping both ends recognisable:
 * "3f2a1b9c-5d6e-4f70-8a9b-0c1d2e3f4a5b" → "3f2a1b9c…4a5b". Ids up to `max` characters stay whole.
 */
export function shortenId(id: string, max = 14, head = 8, tail = 4): string {
  const chars = Array.from(id); // by code point, so no surrogate pair is split
  if (chars.length <= max || head + tail + 1 >= chars.length) return id;
  return `${chars.slice(0, head).join("")}…${chars.slice(chars.length - tail).join("")}`;
}

/** 0.318 → "31.8%"; null → "—". Whole numbers lose the ".0"; a non-zero share never reads "0%". */
export function formatPercent(share: number | null | undefined, digits = 1): string {
  if (share === null || share === undefined || !Number.isFinite(share)) return MISSING;
  const pct = share * 100;
  if (pct > 0 && pct < 10 ** -digits) return `<${(10 ** -digits).toFixed(digits)}%`;
  if (pct < 100 && pct > 100 - 10 ** -digits) return `>${(100 - 10 ** -digits).toFixed(digits)}%`;
  const text = pct.toFixed(digits);
  return `${text.replace(/\.0+$/, "")}%`;
}

export function formatCount(n: number): string {
  return n.toLocaleString("en-US");
}

/** "3 recalls", "1 recall". */
export function countOf(n: number, singular: string, plural = `${singular}s`): string {
  return `${formatCount(n)} ${n === 1 ? singular : plural}`;
}
