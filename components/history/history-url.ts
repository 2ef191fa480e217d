/**
 * The History page's state as it lives in the URL: the API's own filter parameters (so a page URL
 * and an API URL read the same) plus `range`, a relative time preset that stays relative when the
 * link is shared. Pure; unit-tested in history-url.test.ts.
 */
import { HistoryFiltersSchema, historyFilterParams, hasHistoryFilters, type HistoryFilters } from "@/lib/recall-log/history";

export type RangePreset = "24h" | "7d" | "30d";

const HOUR = 3_600_000;

export const RANGE_PRESETS: readonly { value: RangePreset; label: string; ms: number }[] = [
  { value: "24h", label: "Last 24 hours", ms: 24 * HOUR },
  { value: "7d", label: "Last 7 days", ms: 7 * 24 * HOUR },
  { value: "30d", label: "Last 30 days", ms: 30 * 24 * HOUR },
];

export interface HistoryUrlState {
  /** The filters as written in the URL; with a preset, `from`/`to` are not set here. */
  filters: HistoryFilters;
  range: RangePreset | null;
}

export type ReadHistoryUrl = HistoryUrlState & {
  /** Why the URL's filters could not be read (then `filters` is empty and nothing should be fetched). */
  invalid: string | null;
};

type ParamSource = { forEach(fn: (value: string, key: string) => void): void };

export function readHistoryUrl(params: ParamSource): ReadHistoryUrl {
  const raw: Record<string, string> = {};
  params.forEach((value, key) => {
    raw[key] = value;
  });
  const { range: rawRange, ...rest } = raw;
  let range: RangePreset | null = null;
  const problems: string[] = [];
  if (rawRange !== undefined && rawRange !== "") {
    const preset = RANGE_PRESETS.find((p) => p.value === rawRange);
    if (preset) range = preset.value;
    else problems.push(`range: expected ${RANGE_PRESETS.map((p) => p.value).join(", ")}`);
  }
  if (range) {
    // A preset wins over explicit bounds (a hand-edited link may carry both).
    delete rest.from;
    delete rest.to;
  }
  const parsed = HistoryFiltersSchema.safeParse(rest);
  if (!parsed.success) {
    for (const issue of parsed.error.issues) {
      problems.push(`${issue.path.length ? issue.path.join(".") : "filters"}: ${issue.message}`);
    }
  }
  if (problems.length > 0 || !parsed.success) return { filters: {}, range: null, invalid: problems.join("; ") };
  return { filters: parsed.data, range, invalid: null };
}

/** The URL query string (without "?") for a state; "" when nothing is set. */
export function writeHistoryUrl(state: HistoryUrlState): string {
  const filters: HistoryFilters = state.range ? { ...state.filters, from: undefined, to: undefined } : state.filters;
  const params = historyFilterParams(filters);
  if (state.range) params.set("range", state.range);
  return params.toString();
}

/** The filters to query with: a preset becomes `from` = now − its span, floored to the minute. */
export function effectiveFilters(state: HistoryUrlState, now: number): HistoryFilters {
  if (!state.range) return state.filters;
  const preset = RANGE_PRESETS.find((p) => p.value === state.range)!;
  const from = new Date(Math.floor((now - preset.ms) / 60_000) * 60_000);
  return { ...state.filters, from, to: undefined };
}

export function isFiltered(state: HistoryUrlState): boolean {
  return state.range !== null || hasHistoryFilters(state.filters);
}

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
