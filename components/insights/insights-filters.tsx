"use client";

import { FilterActions, FilterBar, FilterGroup, FilterSelect, TIME_RANGE_CLASSES } from "@/components/filters/filter-controls";
import { TimeRangePicker } from "@/components/filters/time-range-picker";
import { Button } from "@/components/ui/button";
import type { InsightBucket, InsightSourceChoice } from "@/lib/insights/schema";
import type { Level } from "@/lib/recall/confidence";
import { levelWord } from "@/lib/recall-log/format";
import { HISTORY_LEVELS } from "@/lib/recall-log/history";
import { RECALL_SOURCE_LABELS, RECALL_SOURCES } from "@/lib/recall-log/sources";
import { allowedBuckets, spanOf, type InsightsUrlState } from "./insights-url";
import styles from "./insights.module.css";

/** A new range keeps the chosen bucket while it fits (at most 2,000 of them), else takes the range's default. */
function keepBucket(next: InsightsUrlState): InsightsUrlState {
  return next.bucket && allowedBuckets(next, Date.now()).includes(next.bucket) ? next : { ...next, bucket: undefined };
}

/** One level, or several from the link (History's chips write lists; this picker chooses one). */
function levelOptions(any: string, chosen: readonly Level[] | undefined): [string, string][] {
  const options: [string, string][] = [["", any], ...HISTORY_LEVELS.map((l): [string, string] => [l, levelWord(l)])];
  if (chosen && chosen.length > 1) options.push([chosen.join(","), chosen.map(levelWord).join(" or ")]);
  return options;
}

/** The Source picker: unset leaves evaluation runs (test traffic) out of every figure. */
const SOURCE_OPTIONS: [string, string][] = [
  ["", "All but evaluation runs"],
  ["all", "All sources"],
  ...RECALL_SOURCES.map((s): [string, string] => [s, RECALL_SOURCE_LABELS[s]]),
];

/** What the figures count, said in the bar (not in a tooltip). */
export function sourceNote(source: InsightSourceChoice | undefined): string {
  if (source === undefined)
    return "Evaluation runs are left out: their recalls are test traffic. Choose “All sources” to count them.";
  if (source === "all") return "Every source is counted, evaluation runs included.";
  return `Only recalls from: ${RECALL_SOURCE_LABELS[source]}.`;
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
  /** Threshold profiles a recall was judged by (History's facets). */
  profiles: readonly string[];
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
  profiles,
  browserTz,
  onRefresh,
  refreshing,
}: InsightsFilterBarProps) {
  const profileOptions = [...new Set([...profiles, ...(state.profile ? [state.profile] : [])])].sort();
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
        label="Source"
        value={state.source ?? ""}
        onChange={(v) => onChange({ ...state, source: (v || undefined) as InsightSourceChoice | undefined })}
        options={SOURCE_OPTIONS}
        testId="insights-source"
      />
      <FilterSelect
        label="Selector model"
        value={state.selector_model ?? ""}
        onChange={(v) => onChange({ ...state, selector_model: v || undefined })}
        options={[["", "All recalls"], ...models.map((m): [string, string] => [m, m])]}
      />
      <FilterSelect
        label="Store's verdict"
        value={state.verdict?.join(",") ?? ""}
        onChange={(v) => onChange({ ...state, verdict: v ? (v.split(",") as Level[]) : undefined })}
        options={levelOptions("Any verdict", state.verdict)}
        testId="insights-verdict"
      />
      <FilterSelect
        label="Reference level"
        value={state.level?.join(",") ?? ""}
        onChange={(v) => onChange({ ...state, level: v ? (v.split(",") as Level[]) : undefined })}
        options={levelOptions("Any reference level", state.level)}
        testId="insights-level"
      />
      <FilterSelect
        label="Profile"
        value={state.profile ?? ""}
        onChange={(v) => onChange({ ...state, profile: v || undefined })}
        options={[["", "Any profile"], ...profileOptions.map((p): [string, string] => [p, p])]}
        testId="insights-profile"
      />
      <FilterSelect
        label="Profile level"
        value={state.profile_level?.join(",") ?? ""}
        onChange={(v) => onChange({ ...state, profile_level: v ? (v.split(",") as Level[]) : undefined })}
        options={levelOptions("Any profile level", state.profile_level)}
        testId="insights-profile-level"
      />
      <FilterSelect
        label="Time zone"
        value={tzValue}
        onChange={(v) => onChange({ ...state, tz: v || undefined })}
        options={tzOptions}
      />
      <FilterActions>
        <Button onClick={onRefresh} disabled={refreshing}>
          Refresh
        </Button>
      </FilterActions>
      <p className={styles.sourceNote} data-testid="insights-source-note">
        {sourceNote(state.source)}
      </p>
    </FilterBar>
  );
}
