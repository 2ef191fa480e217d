"use client";

import { useDebouncedCommit } from "@/lib/hooks/use-debounced-commit";
import { useCallback, useEffect, useId, useState, type FormEvent } from "react";
import type { Level } from "@/lib/recall/confidence";
import { HISTORY_LEVELS, HISTORY_QUERY_MAX_CHARS, type HistoryFilters } from "@/lib/recalls/history";
import { levelWord } from "@/lib/recalls/format";
import { fromLocalInput, RANGE_PRESETS, toLocalInput, type HistoryUrlState, type RangePreset } from "./history-url";
import styles from "./history.module.css";

const DEBOUNCE_MS = 300;

/**
 * A text box that keeps what the person types and commits it after a pause (or on Enter); when
 * the committed value changes on its own (back/forward, "Clear filters") the box follows it.
 */
function DebouncedText({
  label,
  value,
  onCommit,
  placeholder,
  list,
  maxLength,
  type = "text",
  className,
  eager,
}: {
  label: string;
  value: string;
  onCommit: (text: string) => void;
  placeholder?: string;
  list?: string;
  maxLength?: number;
  type?: "text" | "search";
  className?: string;
  /** Whether a value commits after a pause (default: always); otherwise on Enter or leaving the box. */
  eager?: (text: string) => boolean;
}) {
  const id = useId();
  const { text, setText, commitNow: commit } = useDebouncedCommit(value, onCommit, { delayMs: DEBOUNCE_MS, eager });
  const commitNow = (event?: FormEvent) => {
    event?.preventDefault();
    commit();
  };

  return (
    <form className={`${styles.field} ${className ?? ""}`} onSubmit={commitNow} role={type === "search" ? "search" : undefined}>
      <label htmlFor={id}>{label}</label>
      <input
        id={id}
        type={type}
        value={text}
        onChange={(e) => setText(e.target.value)}
        onBlur={() => commitNow()}
        placeholder={placeholder}
        list={list}
        maxLength={maxLength}
        autoComplete="off"
        spellCheck={false}
      />
    </form>
  );
}

type Tri = "" | "true" | "false";
const triOf = (value: boolean | undefined): Tri => (value === undefined ? "" : value ? "true" : "false");
const boolOf = (value: string): boolean | undefined => (value === "true" ? true : value === "false" ? false : undefined);

function TriSelect({
  label,
  value,
  onChange,
  options,
}: {
  label: string;
  value: string;
  onChange: (value: string) => void;
  options: readonly [value: string, label: string][];
}) {
  const id = useId();
  return (
    <div className={styles.field}>
      <label htmlFor={id}>{label}</label>
      <select id={id} value={value} onChange={(e) => onChange(e.target.value)}>
        {options.map(([v, text]) => (
          <option key={v} value={v}>
            {text}
          </option>
        ))}
      </select>
    </div>
  );
}

type RangeChoice = "all" | RangePreset | "custom";

function TimeRange({ state, onChange }: { state: HistoryUrlState; onChange: (next: HistoryUrlState) => void }) {
  const ids = useId();
  const urlChoice: RangeChoice = state.range ?? (state.filters.from || state.filters.to ? "custom" : "all");
  const [choice, setChoice] = useState<RangeChoice>(urlChoice);
  const [from, setFrom] = useState(toLocalInput(state.filters.from));
  const [to, setTo] = useState(toLocalInput(state.filters.to));
  const [error, setError] = useState<string | null>(null);

  // Follow the URL when it changes from outside (back/forward, "Clear filters", a preset).
  const fromIso = state.filters.from?.toISOString() ?? "";
  const toIso = state.filters.to?.toISOString() ?? "";
  useEffect(() => {
    setChoice(urlChoice);
    setFrom(toLocalInput(fromIso ? new Date(fromIso) : undefined));
    setTo(toLocalInput(toIso ? new Date(toIso) : undefined));
    setError(null);
  }, [urlChoice, fromIso, toIso]);

  const pick = (next: RangeChoice) => {
    setChoice(next);
    setError(null);
    if (next === "custom") {
      // Start from what is shown now: the preset's span up to now, or the bounds already set.
      if (!from && state.range) {
        const preset = RANGE_PRESETS.find((p) => p.value === state.range)!;
        setFrom(toLocalInput(new Date(Date.now() - preset.ms)));
      }
      return;
    }
    onChange({
      filters: { ...state.filters, from: undefined, to: undefined },
      range: next === "all" ? null : next,
    });
  };

  const apply = (event: FormEvent) => {
    event.preventDefault();
    const fromDate = fromLocalInput(from);
    const toDate = fromLocalInput(to);
    if (from && !fromDate) return setError("“From” is not a valid date and time.");
    if (to && !toDate) return setError("“To” is not a valid date and time.");
    if (!fromDate && !toDate) return setError("Set a start, an end, or both.");
    if (fromDate && toDate && fromDate.getTime() >= toDate.getTime()) return setError("“From” must be earlier than “To”.");
    setError(null);
    onChange({ filters: { ...state.filters, from: fromDate, to: toDate }, range: null });
  };

  return (
    <div className={styles.timeRange}>
      <div className={styles.field}>
        <label htmlFor={`${ids}-range`}>Time</label>
        <select id={`${ids}-range`} value={choice} onChange={(e) => pick(e.target.value as RangeChoice)}>
          <option value="all">All time</option>
          {RANGE_PRESETS.map((p) => (
            <option key={p.value} value={p.value}>
              {p.label}
            </option>
          ))}
          <option value="custom">Custom range…</option>
        </select>
      </div>
      {choice === "custom" ? (
        <form className={styles.customRange} onSubmit={apply} aria-label="Custom time range">
          <div className={styles.field}>
            <label htmlFor={`${ids}-from`}>From</label>
            <input
              id={`${ids}-from`}
              type="datetime-local"
              value={from}
              onChange={(e) => setFrom(e.target.value)}
              aria-invalid={error ? true : undefined}
              aria-describedby={error ? `${ids}-error` : undefined}
            />
          </div>
          <div className={styles.field}>
            <label htmlFor={`${ids}-to`}>To</label>
            <input
              id={`${ids}-to`}
              type="datetime-local"
              value={to}
              onChange={(e) => setTo(e.target.value)}
              aria-invalid={error ? true : undefined}
              aria-describedby={error ? `${ids}-error` : undefined}
            />
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
    </div>
  );
}

function LevelChecks({ value, onChange }: { value: readonly Level[] | undefined; onChange: (levels: Level[] | undefined) => void }) {
  const id = useId();
  const selected = new Set(value ?? []);
  const toggle = (level: Level, on: boolean) => {
    const next = HISTORY_LEVELS.filter((l) => (l === level ? on : selected.has(l)));
    onChange(next.length ? next : undefined);
  };
  return (
    <div className={styles.levels} role="group" aria-labelledby={`${id}-legend`}>
      <span id={`${id}-legend`} className={styles.groupLabel}>
        Level
      </span>
      <div className={styles.levelOptions}>
        {HISTORY_LEVELS.map((level) => (
          <label key={level} htmlFor={`${id}-${level}`} className={styles.check} data-level={level}>
            <input id={`${id}-${level}`} type="checkbox" checked={selected.has(level)} onChange={(e) => toggle(level, e.target.checked)} />
            {levelWord(level)}
          </label>
        ))}
      </div>
    </div>
  );
}

export interface HistoryFiltersProps {
  state: HistoryUrlState;
  onChange: (next: HistoryUrlState) => void;
  onQuery: (q: string) => void;
  onStore: (store: string) => void;
  stores: readonly string[];
}

/** The filter bar: every control writes the URL (through `onChange`), nothing is kept only here. */
export function HistoryFilterBar({ state, onChange, onQuery, onStore, stores }: HistoryFiltersProps) {
  const ids = useId();
  const { filters } = state;
  const knownStore = useCallback((text: string) => text === "" || stores.includes(text), [stores]);
  const set = (patch: Partial<HistoryFilters>) => onChange({ ...state, filters: { ...filters, ...patch } });

  return (
    <div className={styles.filters} aria-label="Filters" role="group">
      <DebouncedText
        label="Search queries"
        type="search"
        value={filters.q ?? ""}
        onCommit={onQuery}
        placeholder="Text in the query, e.g. kafka"
        maxLength={HISTORY_QUERY_MAX_CHARS}
        className={styles.search}
      />
      {/* An exact match: a known store (or none) applies at once, other text on Enter or leaving the box. */}
      <DebouncedText
        label="Store"
        value={filters.store ?? ""}
        onCommit={onStore}
        placeholder="Any store"
        list={`${ids}-stores`}
        className={styles.storeField}
        eager={knownStore}
      />
      <datalist id={`${ids}-stores`}>
        {stores.map((store) => (
          <option key={store} value={store} />
        ))}
      </datalist>
      <LevelChecks value={filters.level} onChange={(level) => set({ level })} />
      <TriSelect
        label="Selector"
        value={triOf(filters.selector_applied)}
        onChange={(v) => set({ selector_applied: boolOf(v) })}
        options={[
          ["", "Any"],
          ["true", "Applied"],
          ["false", "Not applied"],
        ]}
      />
      <TriSelect
        label="Dropped results"
        value={triOf(filters.has_dropped)}
        onChange={(v) => set({ has_dropped: boolOf(v) })}
        options={[
          ["", "Any"],
          ["true", "Some dropped"],
          ["false", "None dropped"],
        ]}
      />
      <TriSelect
        label="Status"
        value={filters.status ?? ""}
        onChange={(v) => set({ status: v === "ok" || v === "error" ? v : undefined })}
        options={[
          ["", "Any"],
          ["ok", "OK"],
          ["error", "Failed"],
        ]}
      />
      <TriSelect
        label="Source"
        value={filters.source ?? ""}
        onChange={(v) => set({ source: v === "console" || v === "ingest" ? v : undefined })}
        options={[
          ["", "Any"],
          ["console", "Console"],
          ["ingest", "Ingested"],
        ]}
      />
      <TimeRange state={state} onChange={onChange} />
    </div>
  );
}
