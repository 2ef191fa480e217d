"use client";

import { useEffect, useId, useState, type FormEvent } from "react";
import { fromLocalInput, RANGE_PRESETS, toLocalInput, type RangePreset } from "@/components/history/history-url";
import type { InsightBucket } from "@/lib/insights/schema";
import { allowedBuckets, spanOf, type InsightsUrlState } from "./insights-url";
import styles from "./insights.module.css";

type RangeChoice = RangePreset | "custom";

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
export function InsightsFilterBar({ state, onChange, bucket, allowedBuckets, stores, models, browserTz, onRefresh, refreshing }: InsightsFilterBarProps) {
  const ids = useId();
  const urlChoice: RangeChoice = state.range ?? "custom";
  const [choice, setChoice] = useState<RangeChoice>(urlChoice);
  const [from, setFrom] = useState(toLocalInput(state.from));
  const [to, setTo] = useState(toLocalInput(state.to));
  const [error, setError] = useState<string | null>(null);

  // Follow the URL when it changes from outside (back/forward, a preset, a shared link).
  const fromIso = state.from?.toISOString() ?? "";
  const toIso = state.to?.toISOString() ?? "";
  useEffect(() => {
    setChoice(urlChoice);
    setFrom(toLocalInput(fromIso ? new Date(fromIso) : undefined));
    setTo(toLocalInput(toIso ? new Date(toIso) : undefined));
    setError(null);
  }, [urlChoice, fromIso, toIso]);

  const pickRange = (next: RangeChoice) => {
    setChoice(next);
    setError(null);
    if (next === "custom") {
      // Start from what is shown: the preset's span up to now.
      const span = spanOf(state, Date.now());
      setFrom(toLocalInput(span.from));
      setTo(toLocalInput(span.to));
      return;
    }
    onChange(keepBucket({ ...state, range: next, from: undefined, to: undefined }));
  };

  const applyCustom = (event: FormEvent) => {
    event.preventDefault();
    const fromDate = fromLocalInput(from);
    const toDate = fromLocalInput(to);
    if (!fromDate) return setError("“From” is not a valid date and time.");
    if (!toDate) return setError("“To” is not a valid date and time.");
    if (fromDate.getTime() >= toDate.getTime()) return setError("“From” must be earlier than “To”.");
    setError(null);
    onChange(keepBucket({ ...state, range: null, from: fromDate, to: toDate }));
  };

  const tzValue = state.tz ?? "";
  const tzOptions: [string, string][] = [["", browserTz ? `Browser: ${browserTz}` : "Browser"]];
  if (browserTz !== "UTC") tzOptions.push(["UTC", "UTC"]);
  if (state.tz && state.tz !== "UTC") tzOptions.push([state.tz, state.tz]);

  return (
    <div className={styles.filters} role="group" aria-label="Filters">
      <div className={styles.field}>
        <label htmlFor={`${ids}-range`}>Time</label>
        <select id={`${ids}-range`} value={choice} onChange={(e) => pickRange(e.target.value as RangeChoice)}>
          {RANGE_PRESETS.map((p) => (
            <option key={p.value} value={p.value}>
              {p.label}
            </option>
          ))}
          <option value="custom">Custom range…</option>
        </select>
      </div>
      {choice === "custom" ? (
        <form className={styles.customRange} onSubmit={applyCustom} aria-label="Custom time range">
          <div className={styles.field}>
            <label htmlFor={`${ids}-from`}>From</label>
            <input id={`${ids}-from`} type="datetime-local" value={from} onChange={(e) => setFrom(e.target.value)} aria-invalid={error ? true : undefined} aria-describedby={error ? `${ids}-error` : undefined} />
          </div>
          <div className={styles.field}>
            <label htmlFor={`${ids}-to`}>To</label>
            <input id={`${ids}-to`} type="datetime-local" value={to} onChange={(e) => setTo(e.target.value)} aria-invalid={error ? true : undefined} aria-describedby={error ? `${ids}-error` : undefined} />
          </div>
          <button type="submit" className={styles.button}>
            Apply
          </button>
          {error ? (
            <p id={`${ids}-error`} className={styles.fieldError} role="alert">
              {error}
            </p>
          ) : null}
        </form>
      ) : null}
      <div className={styles.field}>
        <label htmlFor={`${ids}-bucket`}>Buckets</label>
        <select id={`${ids}-bucket`} value={bucket} onChange={(e) => onChange({ ...state, bucket: e.target.value as InsightBucket })}>
          {(["hour", "day", "week"] as const).map((b) => (
            <option key={b} value={b} disabled={!allowedBuckets.includes(b)}>
              {BUCKET_WORDS[b]}
            </option>
          ))}
        </select>
      </div>
      <div className={styles.field}>
        <label htmlFor={`${ids}-store`}>Store</label>
        <select id={`${ids}-store`} value={state.store ?? ""} onChange={(e) => onChange({ ...state, store: e.target.value || undefined })}>
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
        <select id={`${ids}-model`} value={state.selector_model ?? ""} onChange={(e) => onChange({ ...state, selector_model: e.target.value || undefined })}>
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
