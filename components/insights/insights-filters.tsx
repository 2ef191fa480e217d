"use client";

import { useId } from "react";
import { TimeRangePicker } from "@/components/filters/time-range-picker";
import type { InsightBucket } from "@/lib/insights/schema";
import { allowedBuckets, spanOf, type InsightsUrlState } from "./insights-url";
import styles from "./insights.module.css";

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
  const ids = useId();
  const tzValue = state.tz ?? "";
  const tzOptions: [string, string][] = [["", browserTz ? `Browser: ${browserTz}` : "Browser"]];
  if (browserTz !== "UTC") tzOptions.push(["UTC", "UTC"]);
  if (state.tz && state.tz !== "UTC") tzOptions.push([state.tz, state.tz]);

  return (
    <div className={styles.filters} role="group" aria-label="Filters">
      <TimeRangePicker
        value={{ range: state.range ?? null, from: state.from, to: state.to }}
        onChange={({ range, from, to }) => onChange(keepBucket({ ...state, range, from, to }))}
        allowAll={false}
        requireBoth
        customStart={() => spanOf(state, Date.now())}
        classes={{
          field: styles.field!,
          customRange: styles.customRange!,
          button: styles.button!,
          fieldError: styles.fieldError!,
        }}
      />
      <div className={styles.field}>
        <label htmlFor={`${ids}-bucket`}>Buckets</label>
        <select
          id={`${ids}-bucket`}
          value={bucket}
          onChange={(e) => onChange({ ...state, bucket: e.target.value as InsightBucket })}
        >
          {(["hour", "day", "week"] as const).map((b) => (
            <option key={b} value={b} disabled={!allowedBuckets.includes(b)}>
              {BUCKET_WORDS[b]}
            </option>
          ))}
        </select>
      </div>
      <div className={styles.field}>
        <label htmlFor={`${ids}-store`}>Store</label>
        <select
          id={`${ids}-store`}
          value={state.store ?? ""}
          onChange={(e) => onChange({ ...state, store: e.target.value || undefined })}
        >
          <option value="">All stores</option>
          {stores.map((s) => (
            <option key={s} value={s}>
              {s}
            </option>
          ))}
        </select>
      </div>
      <div className={styles.field}>
        <label htmlFor={`${ids}-model`}>Selector model</label>
        <select
          id={`${ids}-model`}
          value={state.selector_model ?? ""}
          onChange={(e) => onChange({ ...state, selector_model: e.target.value || undefined })}
        >
          <option value="">All recalls</option>
          {models.map((m) => (
            <option key={m} value={m}>
              {m}
            </option>
          ))}
        </select>
      </div>
      <div className={styles.field}>
        <label htmlFor={`${ids}-tz`}>Time zone</label>
        <select id={`${ids}-tz`} value={tzValue} onChange={(e) => onChange({ ...state, tz: e.target.value || undefined })}>
          {tzOptions.map(([value, label]) => (
            <option key={value} value={value}>
              {label}
            </option>
          ))}
        </select>
      </div>
      <div className={styles.filterActions}>
        <button type="button" className={styles.button} onClick={onRefresh} disabled={refreshing}>
          Refresh
        </button>
      </div>
    </div>
  );
}
