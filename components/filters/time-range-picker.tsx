"use client";

import { useEffect, useId, useState, type FormEvent } from "react";
import { fromLocalInput, RANGE_PRESETS, toLocalInput, type RangePreset } from "./time-range";

/** A time filter: a preset span up to now, or fixed bounds. */
export interface TimeRangeValue {
  range: RangePreset | null;
  from?: Date;
  to?: Date;
}

type Choice = "all" | RangePreset | "custom";

/**
 * The time control of the History and Insights filter bars: a preset select ("Last 24 hours" …,
 * optionally "All time") and, for "Custom range…", a from/to form validated before it is applied.
 * It follows `value` when the URL changes from outside (back/forward, a preset, a shared link).
 * Styling comes from the caller's CSS module.
 */
export function TimeRangePicker({
  value,
  onChange,
  allowAll,
  requireBoth,
  customStart,
  classes,
}: {
  value: TimeRangeValue;
  onChange: (next: TimeRangeValue) => void;
  /** Offer "All time" (no bounds). */
  allowAll: boolean;
  /** A custom range needs both ends (otherwise either is enough). */
  requireBoth: boolean;
  /** What the custom form starts from when opened over a preset. */
  customStart: () => { from?: Date; to?: Date };
  classes: { field: string; customRange: string; button: string; fieldError: string };
}) {
  const ids = useId();
  const urlChoice: Choice = value.range ?? (value.from || value.to || !allowAll ? "custom" : "all");
  const [choice, setChoice] = useState<Choice>(urlChoice);
  const [from, setFrom] = useState(toLocalInput(value.from));
  const [to, setTo] = useState(toLocalInput(value.to));
  const [error, setError] = useState<string | null>(null);

  const fromIso = value.from?.toISOString() ?? "";
  const toIso = value.to?.toISOString() ?? "";
  useEffect(() => {
    // eslint-disable-next-line react-hooks/set-state-in-effect -- the draft (edited here, committed on Apply) is reset when the URL's range changes under it (back/forward, a saved view); keying the picker on the range instead would remount it and drop the focus
    setChoice(urlChoice);
    setFrom(toLocalInput(fromIso ? new Date(fromIso) : undefined));
    setTo(toLocalInput(toIso ? new Date(toIso) : undefined));
    setError(null);
  }, [urlChoice, fromIso, toIso]);

  const pick = (next: Choice) => {
    setChoice(next);
    setError(null);
    if (next === "custom") {
      // Start from what is shown now: the preset's span up to now.
      if (!from) {
        const start = customStart();
        setFrom(toLocalInput(start.from));
        if (start.to) setTo(toLocalInput(start.to));
      }
      return;
    }
    onChange({ range: next === "all" ? null : next, from: undefined, to: undefined });
  };

  const apply = (event: FormEvent) => {
    event.preventDefault();
    const fromDate = fromLocalInput(from);
    const toDate = fromLocalInput(to);
    if ((from || requireBoth) && !fromDate) return setError("“From” is not a valid date and time.");
    if ((to || requireBoth) && !toDate) return setError("“To” is not a valid date and time.");
    if (!fromDate && !toDate) return setError("Set a start, an end, or both.");
    if (fromDate && toDate && fromDate.getTime() >= toDate.getTime()) return setError("“From” must be earlier than “To”.");
    setError(null);
    onChange({ range: null, from: fromDate, to: toDate });
  };

  const invalid = error ? true : undefined;
  const described = error ? `${ids}-error` : undefined;
  return (
    <>
      <div className={classes.field}>
        <label htmlFor={`${ids}-range`}>Time</label>
        <select id={`${ids}-range`} value={choice} onChange={(e) => pick(e.target.value as Choice)}>
          {allowAll ? <option value="all">All time</option> : null}
          {RANGE_PRESETS.map((p) => (
            <option key={p.value} value={p.value}>
              {p.label}
            </option>
          ))}
          <option value="custom">Custom range…</option>
        </select>
      </div>
      {choice === "custom" ? (
        <form className={classes.customRange} onSubmit={apply} aria-label="Custom time range">
          <div className={classes.field}>
            <label htmlFor={`${ids}-from`}>From</label>
            <input
              id={`${ids}-from`}
              type="datetime-local"
              value={from}
              onChange={(e) => setFrom(e.target.value)}
              aria-invalid={invalid}
              aria-describedby={described}
            />
          </div>
          <div className={classes.field}>
            <label htmlFor={`${ids}-to`}>To</label>
            <input
              id={`${ids}-to`}
              type="datetime-local"
              value={to}
              onChange={(e) => setTo(e.target.value)}
              aria-invalid={invalid}
              aria-describedby={described}
            />
          </div>
          <button type="submit" className={classes.button}>
            Apply
          </button>
          {error ? (
            <p id={`${ids}-error`} className={classes.fieldError} role="alert">
              {error}
            </p>
          ) : null}
        </form>
      ) : null}
    </>
  );
}
