"use client";

import {
  FilterActions,
  FilterBar,
  FilterGroup,
  FilterSelect,
  filterStyles,
  TIME_RANGE_CLASSES,
} from "@/components/filters/filter-controls";
import { TimeRangePicker } from "@/components/filters/time-range-picker";
import type { InsightBucket } from "@/lib/insights/schema";
import { allowedBuckets, spanOf, type InsightsUrlState } from "./insights-url";

/** A new range keeps the chosen bucket while it fits (at most 2,000 of them), else takes the range's default. */
function keepBucket(next: InsightsUrlState): InsightsUrlState {
  return next.bucket && allowedBuckets(next, Date.now()).includes(next.bucket) ? next : { ...next, bucket: undefined };
}

const BUCKET_WORDS: Record<InsightBucket, string> = { hour: "Hours", day: "Days", week: "Weeks" };

export interface InsightsFilterBarProps {
  state: InsightsUrlState;
  onChange: (next: InsightsUrlState) => void;
  /** The bucket in effect (chosen, or the range's default). */
  bucket: InsightBucket;
  allowedBuckets: readonly InsightBucket[];
  stores: readonly string[];
  models: readonly string[];
  browserTz: string | null;
  onRefresh: () => void;
  refreshing: boolean;
}

/** The filter bar: every control writes the URL (through `onChange`); nothing is kept only here. */
export function InsightsFilterBar({
  state,
  onChange,
  bucket,
  allowedBuckets,
  stores,
  models,
  browserTz,
  onRefresh,
  refreshing,
}: InsightsFilterBarProps) {
  const tzValue = state.tz ?? "";
  const tzOptions: [string, string][] = [["", browserTz ? `Browser: ${browserTz}` : "Browser"]];
  if (browserTz !== "UTC") tzOptions.push(["UTC", "UTC"]);
  if (state.tz && state.tz !== "UTC") tzOptions.push([state.tz, state.tz]);

  return (
    <FilterBar>
      <FilterGroup>
        <TimeRangePicker
          value={{ range: state.range ?? null, from: state.from, to: state.to }}
          onChange={({ range, from, to }) => onChange(keepBucket({ ...state, range, from, to }))}
          allowAll={false}
          requireBoth
          customStart={() => spanOf(state, Date.now())}
          classes={TIME_RANGE_CLASSES}
        />
      </FilterGroup>
      <FilterSelect
        label="Buckets"
        value={bucket}
        onChange={(v) => onChange({ ...state, bucket: v as InsightBucket })}
        options={(["hour", "day", "week"] as const).map((b) => [b, BUCKET_WORDS[b], !allowedBuckets.includes(b)] as const)}
      />
      <FilterSelect
        label="Store"
        value={state.store ?? ""}
        onChange={(v) => onChange({ ...state, store: v || undefined })}
        options={[["", "All stores"], ...stores.map((s): [string, string] => [s, s])]}
      />
      <FilterSelect
        label="Selector model"
        value={state.selector_model ?? ""}
        onChange={(v) => onChange({ ...state, selector_model: v || undefined })}
        options={[["", "All recalls"], ...models.map((m): [string, string] => [m, m])]}
      />
      <FilterSelect
        label="Time zone"
        value={tzValue}
        onChange={(v) => onChange({ ...state, tz: v || undefined })}
        options={tzOptions}
      />
      <FilterActions>
        <button type="button" className={filterStyles.button} onClick={onRefresh} disabled={refreshing}>
          Refresh
        </button>
      </FilterActions>
    </FilterBar>
  );
}
