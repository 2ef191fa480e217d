/**
 * The History page's state as it lives in the URL: the API's own filter parameters (so a page URL
 * and an API URL read the same) plus `range`, a relative time preset that stays relative when the
 * link is shared. Pure; unit-tested in history-url.test.ts.
 */
import { RANGE_PRESETS, type RangePreset } from "@/components/filters/time-range";
import { HistoryFiltersSchema, historyFilterParams, hasHistoryFilters, type HistoryFilters } from "@/lib/recall-log/history";

// Moved to components/filters/time-range.ts (shared by History and Insights); re-exported for the
// History page's own modules and tests.
export { fromLocalInput, RANGE_PRESETS, toLocalInput, type RangePreset } from "@/components/filters/time-range";

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
