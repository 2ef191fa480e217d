/**
 * The Insights page's state as it lives in the URL: a range preset (`range=24h|7d|30d`, the
 * default 30d when nothing is set) or a custom `from`/`to`, the `bucket`, History's filters
 * `store`, `selector_model`, `verdict`, `level`, `profile_level`, `profile`, the `source` (unset: every source
 * but evaluation runs; `all`; or one source), and `tz` when someone chose a
 * zone other than the browser's; what the page shows, not what it asks: `judge` (whose levels the
 * level chart and the bucket table count: unset for the store's verdict, `_reference` for the
 * reference rules, or a profile's name — lib/insights/judges.ts `judgeKeyOf`) and `bands` (the
 * store and scale of the percentile bands).
 * Pure; unit-tested in insights-url.test.ts.
 */
import { RANGE_PRESETS, type RangePreset } from "@/components/filters/time-range";
import {
  BUCKET_MS,
  estimateBuckets,
  INSIGHT_BUCKETS,
  INSIGHT_SOURCE_CHOICES,
  isTimeZoneName,
  type InsightSourceChoice,
  MAX_INSIGHT_BUCKETS,
  type InsightBucket,
} from "@/lib/insights/schema";
import type { Level } from "@/lib/recall/confidence";
import { HISTORY_LEVELS } from "@/lib/recall-log/history";

export const DEFAULT_RANGE: RangePreset = "30d";

export interface InsightsUrlState {
  /** A preset, or null for the custom range in from/to. */
  range: RangePreset | null;
  from?: Date | undefined;
  to?: Date | undefined;
  /** Unset: chosen from the range ({@link defaultBucket}). */
  bucket?: InsightBucket | undefined;
  store?: string | undefined;
  selector_model?: string | undefined;
  /** History's level filters (OR within each): the store's verdict, the reference level, a profile's level. */
  verdict?: Level[] | undefined;
  level?: Level[] | undefined;
  profile_level?: Level[] | undefined;
  profile?: string | undefined;
  /** Unset: every source but evaluation runs; "all"; or one source. */
  source?: InsightSourceChoice | undefined;
  /** The level chart's judge: unset for the store's verdict, `_reference` for the reference rules, or a profile's name. */
  judge?: string | undefined;
  /** The percentile bands' series (`store` + "\u0000" + `unit`); unset: the one with most recalls. */
  bands?: string | undefined;
  /** Unset: the browser's zone. */
  tz?: string | undefined;
}

export type ReadInsightsUrl = InsightsUrlState & { invalid: string | null };

type ParamSource = { get(name: string): string | null };

const DEFAULT_STATE: InsightsUrlState = { range: DEFAULT_RANGE };

function instant(text: string | null): Date | undefined | null {
  if (text === null || text === "") return undefined;
  if (!/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d{1,3})?)?(Z|[+-]\d{2}:\d{2})$/.test(text)) return null;
  const date = new Date(text);
  return Number.isNaN(date.getTime()) ? null : date;
}

export function readInsightsUrl(params: ParamSource): ReadInsightsUrl {
  const problems: string[] = [];
  const text = (name: string) => {
    const value = params.get(name)?.trim();
    return value ? value : undefined;
  };

  let range: RangePreset | null = DEFAULT_RANGE;
  const rawRange = text("range");
  const from = instant(params.get("from"));
  const to = instant(params.get("to"));
  if (from === null) problems.push("from: expected an ISO 8601 date-time with a zone");
  if (to === null) problems.push("to: expected an ISO 8601 date-time with a zone");
  if (rawRange !== undefined) {
    const preset = RANGE_PRESETS.find((p) => p.value === rawRange);
    if (preset) range = preset.value;
    else problems.push(`range: expected ${RANGE_PRESETS.map((p) => p.value).join(", ")}`);
  } else if (from || to) {
    range = null; // A custom range (a preset in the link wins over explicit bounds).
  }
  if (range === null) {
    if (!from || !to) problems.push("a custom range needs both from and to");
    else if (from.getTime() >= to.getTime()) problems.push("from must be earlier than to");
  }

  const rawBucket = text("bucket");
  let bucket: InsightBucket | undefined;
  if (rawBucket !== undefined) {
    if ((INSIGHT_BUCKETS as readonly string[]).includes(rawBucket)) bucket = rawBucket as InsightBucket;
    else problems.push("bucket: expected hour, day or week");
  }
  const tz = text("tz");
  if (tz !== undefined && !isTimeZoneName(tz)) problems.push(`tz: "${tz}" is not a time zone name`);
  const store = text("store");
  const model = text("selector_model");
  if (store && store.length > 100) problems.push("store: at most 100 characters");
  if (model && model.length > 200) problems.push("selector_model: at most 200 characters");

  const levels = (name: "verdict" | "level" | "profile_level"): Level[] | undefined => {
    const raw = text(name);
    if (raw === undefined) return undefined;
    const parts = raw.split(",").map((p) => p.trim().toLowerCase());
    if (parts.some((p) => !(HISTORY_LEVELS as readonly string[]).includes(p))) {
      problems.push(`${name}: expected one or more of ${HISTORY_LEVELS.join(", ")}`);
      return undefined;
    }
    return HISTORY_LEVELS.filter((l) => parts.includes(l));
  };
  const verdict = levels("verdict");
  const level = levels("level");
  const profileLevel = levels("profile_level");
  const short = (name: string) => {
    const value = text(name);
    if (value && value.length > 100) problems.push(`${name}: at most 100 characters`);
    return value;
  };
  const profile = short("profile");
  const rawSource = text("source");
  let source: InsightSourceChoice | undefined;
  if (rawSource !== undefined) {
    if ((INSIGHT_SOURCE_CHOICES as readonly string[]).includes(rawSource)) source = rawSource as InsightSourceChoice;
    else problems.push(`source: expected ${INSIGHT_SOURCE_CHOICES.join(", ")}`);
  }
  const judge = short("judge");
  const bands = short("bands");

  if (problems.length > 0) return { ...DEFAULT_STATE, invalid: problems.join("; ") };
  const state: InsightsUrlState = {
    range,
    ...(range === null ? { from: from ?? undefined, to: to ?? undefined } : {}),
    ...(bucket ? { bucket } : {}),
    ...(store ? { store } : {}),
    ...(model ? { selector_model: model } : {}),
    ...(verdict ? { verdict } : {}),
    ...(level ? { level } : {}),
    ...(profileLevel ? { profile_level: profileLevel } : {}),
    ...(profile ? { profile } : {}),
    ...(source ? { source } : {}),
    ...(judge ? { judge } : {}),
    ...(bands ? { bands } : {}),
    ...(tz ? { tz } : {}),
  };
  const span = spanOf(state, 0);
  if (bucket && estimateBuckets(span.from, span.to, bucket) > MAX_INSIGHT_BUCKETS) {
    return {
      ...DEFAULT_STATE,
      invalid: `bucket: ${bucket} buckets over this range would be more than ${MAX_INSIGHT_BUCKETS.toLocaleString("en-US")}`,
    };
  }
  return { ...state, invalid: null };
}

/** The URL query string (without "?"); "" for the default view. */
export function writeInsightsUrl(state: InsightsUrlState): string {
  const params = new URLSearchParams();
  if (state.range !== null) {
    if (state.range !== DEFAULT_RANGE) params.set("range", state.range);
  } else {
    if (state.from) params.set("from", state.from.toISOString());
    if (state.to) params.set("to", state.to.toISOString());
  }
  if (state.bucket) params.set("bucket", state.bucket);
  if (state.store) params.set("store", state.store);
  if (state.selector_model) params.set("selector_model", state.selector_model);
  if (state.verdict?.length) params.set("verdict", state.verdict.join(","));
  if (state.level?.length) params.set("level", state.level.join(","));
  if (state.profile_level?.length) params.set("profile_level", state.profile_level.join(","));
  if (state.profile) params.set("profile", state.profile);
  if (state.source) params.set("source", state.source);
  if (state.judge) params.set("judge", state.judge);
  if (state.bands) params.set("bands", state.bands);
  if (state.tz) params.set("tz", state.tz);
  return params.toString();
}

const MINUTE = 60_000;

/**
 * The instants a state covers. A preset ends at `now` rounded up to the minute (so a recall
 * logged a moment ago is inside) and starts its span before that.
 */
export function spanOf(state: InsightsUrlState, now: number): { from: Date; to: Date } {
  if (state.range === null && state.from && state.to) return { from: state.from, to: state.to };
  const preset = RANGE_PRESETS.find((p) => p.value === (state.range ?? DEFAULT_RANGE))!;
  const end = Math.ceil((now + 1) / MINUTE) * MINUTE;
  return { from: new Date(end - preset.ms), to: new Date(end) };
}

/** The bucket a range reads best in when none was chosen. */
export function defaultBucket(state: InsightsUrlState, now: number): InsightBucket {
  if (state.range === "24h") return "hour";
  if (state.range !== null) return "day";
  const { from, to } = spanOf(state, now);
  const ms = to.getTime() - from.getTime();
  if (ms <= 3 * BUCKET_MS.day) return "hour";
  if (ms <= 180 * BUCKET_MS.day) return "day";
  return "week";
}

/** Which buckets a range allows (at most MAX_INSIGHT_BUCKETS of them). */
export function allowedBuckets(state: InsightsUrlState, now: number): InsightBucket[] {
  const { from, to } = spanOf(state, now);
  return INSIGHT_BUCKETS.filter((b) => estimateBuckets(from, to, b) <= MAX_INSIGHT_BUCKETS);
}

/** The query string of `GET /api/insights` for a state, at `now`, in zone `tz`. */
export function insightsApiParams(state: InsightsUrlState, now: number, tz: string): URLSearchParams {
  const { from, to } = spanOf(state, now);
  const params = new URLSearchParams({
    from: from.toISOString(),
    to: to.toISOString(),
    bucket: state.bucket ?? defaultBucket(state, now),
    tz: state.tz ?? tz,
  });
  if (state.store) params.set("store", state.store);
  if (state.selector_model) params.set("selector_model", state.selector_model);
  if (state.verdict?.length) params.set("verdict", state.verdict.join(","));
  if (state.level?.length) params.set("level", state.level.join(","));
  if (state.profile_level?.length) params.set("profile_level", state.profile_level.join(","));
  if (state.profile) params.set("profile", state.profile);
  if (state.source) params.set("source", state.source);
  return params;
}

/**
 * The range the page opens on when its URL names none: the shortest preset that holds every
 * recall logged (the last 24 hours of a day-old log, not one bar at the edge of 30 days); the
 * default 30 days when the log is older or empty.
 */
export function fittingPreset(first: string | null | undefined, now: number): RangePreset {
  if (!first) return DEFAULT_RANGE;
  const age = now - Date.parse(first);
  if (!Number.isFinite(age)) return DEFAULT_RANGE;
  const preset = RANGE_PRESETS.find((p) => age <= p.ms);
  return preset ? preset.value : DEFAULT_RANGE;
}

/** True when the URL chose no range (no `range`, `from` or `to`): the page picks one that fits the data. */
export function rangeImplicit(params: ParamSource): boolean {
  return !params.get("range") && !params.get("from") && !params.get("to");
}
