"use client";

import {
  CheckChips,
  DebouncedText,
  FilterBar,
  FilterGroup,
  FilterSelect,
  TIME_RANGE_CLASSES,
} from "@/components/filters/filter-controls";
import { TimeRangePicker } from "@/components/filters/time-range-picker";
import { levelWord } from "@/lib/recall-log/format";
import {
  HISTORY_LABEL_FILTERS,
  HISTORY_LEVELS,
  HISTORY_QUERY_MAX_CHARS,
  type HistoryFilters,
  type HistoryLabelFilter,
} from "@/lib/recall-log/history";
import { isRecallSource, RECALL_SOURCE_LABELS, RECALL_SOURCES } from "@/lib/recall-log/sources";
import { RANGE_PRESETS, type HistoryUrlState } from "./history-url";

type Tri = "" | "true" | "false";
const triOf = (value: boolean | undefined): Tri => (value === undefined ? "" : value ? "true" : "false");
const boolOf = (value: string): boolean | undefined => (value === "true" ? true : value === "false" ? false : undefined);

/** A store the pickers offer: configured here, or only seen in the log. */
export interface StoreChoice {
  name: string;
  configured: boolean;
}

export interface HistoryFiltersProps {
  state: HistoryUrlState;
  onChange: (next: HistoryUrlState) => void;
  onQuery: (q: string) => void;
  stores: readonly StoreChoice[];
  profiles: readonly string[];
}

/** The store picker's options: any, the known stores, and the URL's own value when it is none of them. */
export function storeOptions(stores: readonly StoreChoice[], current: string | undefined): [string, string][] {
  const options: [string, string][] = [["", "Any store"]];
  for (const store of stores) options.push([store.name, store.configured ? store.name : `${store.name} (in the log only)`]);
  if (current && !stores.some((s) => s.name === current)) options.push([current, `${current} (no recalls seen)`]);
  return options;
}

/** The filter bar: every control writes the URL (through `onChange`), nothing is kept only here. */
export function HistoryFilterBar({ state, onChange, onQuery, stores, profiles }: HistoryFiltersProps) {
  const { filters } = state;
  const set = (patch: Partial<HistoryFilters>) => onChange({ ...state, filters: { ...filters, ...patch } });
  const profileOptions: [string, string][] = [["", "Any profile"], ...profiles.map((p): [string, string] => [p, p])];
  if (filters.profile && !profiles.includes(filters.profile)) profileOptions.push([filters.profile, filters.profile]);

  return (
    <FilterBar>
      <DebouncedText
        label="Search queries"
        type="search"
        search
        value={filters.q ?? ""}
        onCommit={onQuery}
        placeholder="Text in the query, e.g. kafka"
        maxLength={HISTORY_QUERY_MAX_CHARS}
      />
      <FilterSelect
        label="Store"
        value={filters.store ?? ""}
        onChange={(v) => set({ store: v || undefined })}
        options={storeOptions(stores, filters.store)}
        testId="history-store"
      />
      {/* The store's verdict first (the level column's badge), then the reference level beside it. */}
      <CheckChips
        label="Store's verdict"
        options={HISTORY_LEVELS}
        value={filters.verdict}
        onChange={(verdict) => set({ verdict })}
        word={levelWord}
        testId="history-verdict"
      />
      <CheckChips
        label="Reference level"
        options={HISTORY_LEVELS}
        value={filters.level}
        onChange={(level) => set({ level })}
        word={levelWord}
        testId="history-level"
      />
      <CheckChips
        label="Profile level"
        options={HISTORY_LEVELS}
        value={filters.profile_level}
        onChange={(profile_level) => set({ profile_level })}
        word={levelWord}
        testId="history-profile-level"
      />
      <FilterSelect
        label="Profile"
        value={filters.profile ?? ""}
        onChange={(v) => set({ profile: v || undefined })}
        options={profileOptions}
      />
      <FilterSelect
        label="Mode"
        value={filters.mode ?? ""}
        onChange={(v) => set({ mode: v === "semantic" || v === "keyword" || v === "hybrid" ? v : undefined })}
        options={[
          ["", "Any"],
          ["hybrid", "Hybrid"],
          ["semantic", "Semantic"],
          ["keyword", "Keyword"],
        ]}
      />
      <FilterSelect
        label="Selector"
        value={triOf(filters.selector_applied)}
        onChange={(v) => set({ selector_applied: boolOf(v) })}
        options={[
          ["", "Any"],
          ["true", "Applied"],
          ["false", "Not applied"],
        ]}
      />
      <FilterSelect
        label="Dropped results"
        value={triOf(filters.has_dropped)}
        onChange={(v) => set({ has_dropped: boolOf(v) })}
        options={[
          ["", "Any"],
          ["true", "Some dropped"],
          ["false", "None dropped"],
        ]}
      />
      <FilterSelect
        label="Status"
        value={filters.status ?? ""}
        onChange={(v) => set({ status: v === "ok" || v === "error" ? v : undefined })}
        options={[
          ["", "Any"],
          ["ok", "OK"],
          ["error", "Failed"],
        ]}
      />
      <FilterSelect
        label="Source"
        value={filters.source ?? ""}
        onChange={(v) => set({ source: isRecallSource(v) ? v : undefined })}
        options={[["", "Any"], ...RECALL_SOURCES.map((s) => [s, RECALL_SOURCE_LABELS[s]] as [string, string])]}
      />
      <FilterSelect
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
      <FilterGroup>
        <TimeRangePicker
          value={{ range: state.range, from: state.filters.from, to: state.filters.to }}
          onChange={({ range, from, to }) => onChange({ filters: { ...state.filters, from, to }, range })}
          allowAll
          requireBoth={false}
          customStart={() => {
            const preset = RANGE_PRESETS.find((p) => p.value === state.range);
            return preset ? { from: new Date(Date.now() - preset.ms) } : {};
          }}
          classes={TIME_RANGE_CLASSES}
        />
      </FilterGroup>
    </FilterBar>
  );
}
