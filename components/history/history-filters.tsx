"use client";

import { TimeRangePicker } from "@/components/filters/time-range-picker";
import { useDebouncedCommit } from "@/lib/hooks/use-debounced-commit";
import { useCallback, useId, type FormEvent } from "react";
import type { Level } from "@/lib/recall/confidence";
import {
  HISTORY_LABEL_FILTERS,
  HISTORY_LEVELS,
  HISTORY_QUERY_MAX_CHARS,
  type HistoryFilters,
  type HistoryLabelFilter,
} from "@/lib/recall-log/history";
import { levelWord } from "@/lib/recall-log/format";
import { isRecallSource, RECALL_SOURCE_LABELS, RECALL_SOURCES } from "@/lib/recall-log/sources";
import { RANGE_PRESETS, type HistoryUrlState } from "./history-url";
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

function TimeRange({ state, onChange }: { state: HistoryUrlState; onChange: (next: HistoryUrlState) => void }) {
  return (
    <div className={styles.timeRange}>
      <TimeRangePicker
        value={{ range: state.range, from: state.filters.from, to: state.filters.to }}
        onChange={({ range, from, to }) => onChange({ filters: { ...state.filters, from, to }, range })}
        allowAll
        requireBoth={false}
        customStart={() => {
          const preset = RANGE_PRESETS.find((p) => p.value === state.range);
          return preset ? { from: new Date(Date.now() - preset.ms) } : {};
        }}
        classes={{
          field: styles.field!,
          customRange: styles.customRange!,
          button: styles.button!,
          fieldError: styles.fieldError!,
        }}
      />
    </div>
  );
}

function LevelChecks({
  value,
  onChange,
}: {
  value: readonly Level[] | undefined;
  onChange: (levels: Level[] | undefined) => void;
}) {
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
            <input
              id={`${id}-${level}`}
              type="checkbox"
              checked={selected.has(level)}
              onChange={(e) => toggle(level, e.target.checked)}
            />
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
        onChange={(v) => set({ source: isRecallSource(v) ? v : undefined })}
        options={[["", "Any"], ...RECALL_SOURCES.map((s) => [s, RECALL_SOURCE_LABELS[s]] as [string, string])]}
      />
      <TriSelect
        label="Label"
        value={filters.label ?? ""}
        onChange={(v) =>
          set({ label: (HISTORY_LABEL_FILTERS as readonly string[]).includes(v) ? (v as HistoryLabelFilter) : undefined })
        }
        options={[
          ["", "Any"],
          ["labeled", "Labeled"],
          ["unlabeled", "Not labeled"],
          ["present", "Relevant present"],
          ["absent", "Nothing relevant"],
          ["unsure", "Unsure"],
        ]}
      />
      <TimeRange state={state} onChange={onChange} />
    </div>
  );
}
