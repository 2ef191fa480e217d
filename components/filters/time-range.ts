/**
 * Time ranges as the History and Insights filter bars offer them: relative presets (which stay
 * relative when a link is shared) and the browser's `datetime-local` values. Pure.
 */
export type RangePreset = "24h" | "7d" | "30d";

const HOUR = 3_600_000;

export const RANGE_PRESETS: readonly { value: RangePreset; label: string; ms: number }[] = [
  { value: "24h", label: "Last 24 hours", ms: 24 * HOUR },
  { value: "7d", label: "Last 7 days", ms: 7 * 24 * HOUR },
  { value: "30d", label: "Last 30 days", ms: 30 * 24 * HOUR },
];

/** A `datetime-local` input's value (local wall time, to the minute) for an instant. */
export function toLocalInput(date: Date | undefined): string {
  if (!date) return "";
  const pad = (n: number) => String(n).padStart(2, "0");
  return `${date.getFullYear()}-${pad(date.getMonth() + 1)}-${pad(date.getDate())}T${pad(date.getHours())}:${pad(date.getMinutes())}`;
}

/** The instant a `datetime-local` value names in the browser's time zone, or undefined when empty or invalid. */
export function fromLocalInput(value: string): Date | undefined {
  if (!/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d{1,3})?)?$/.test(value)) return undefined;
  const date = new Date(value); // no zone: local time
  return Number.isNaN(date.getTime()) ? undefined : date;
}
