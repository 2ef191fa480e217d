/**
 * Insights (`GET /api/insights`, README "HTTP API"): the query it takes and the one JSON it answers.
 * Client-safe (zod and types only), so the page builds its API URL from the same names.
 */
import { z } from "zod";
import type { Level } from "@/lib/recall/confidence";
import type { SelectorReasonKind } from "@/lib/recall/selector-reasons";
import { HistoryFiltersSchema } from "@/lib/recall-log/history";
import { RECALL_SOURCES, type RecallSource } from "@/lib/recall-log/sources";
import { isoDateTime, withInputRules } from "@/lib/validation/input-rules";

export const INSIGHT_BUCKETS = ["hour", "day", "week"] as const;
export type InsightBucket = (typeof INSIGHT_BUCKETS)[number];

/** How many buckets one answer may hold (e.g. 83 days of hours); more is a 422. */
export const MAX_INSIGHT_BUCKETS = 2_000;
/** The range when none is given: the 30 days up to now. */
export const DEFAULT_INSIGHT_SPAN_MS = 30 * 86_400_000;
/** Rows in each list (most-dropped memories, each kind of disagreement). */
export const INSIGHT_LIST_SIZE = 20;
/** The bucket length used for the limit check (a day or week may be an hour longer across DST). */
export const BUCKET_MS: Record<InsightBucket, number> = { hour: 3_600_000, day: 86_400_000, week: 7 * 86_400_000 };

/**
 * An IANA zone name the runtime knows (what `Intl.DateTimeFormat().resolvedOptions().timeZone`
 * gives a browser), or "UTC". Offsets such as "+02:00" or "UTC+2" are refused: PostgreSQL reads
 * POSIX offsets with the opposite sign, and a name is what a PM means anyway.
 */
export function isTimeZoneName(tz: string): boolean {
  if (tz.length === 0 || tz.length > 64) return false;
  if (!/^[A-Za-z][A-Za-z0-9_-]*(\/[A-Za-z0-9_+-]+)*$/.test(tz)) return false;
  if (/^(UTC|GMT|UT)[+-]/i.test(tz)) return false;
  try {
    new Intl.DateTimeFormat("en-US", { timeZone: tz });
    return true;
  } catch {
    return false;
  }
}

const IsoDateTime = isoDateTime();

/**
 * The sources Insights counts when none is asked for: every one but evaluation runs, whose
 * recalls are test traffic (a run of the demo set is 106 recalls) and would swamp the selector
 * and level figures a PM reads.
 */
export const DEFAULT_INSIGHT_SOURCES: readonly RecallSource[] = RECALL_SOURCES.filter((s) => s !== "eval");

/** `source=all`: every source, evaluation runs included. */
export const ALL_SOURCES = "all";
export const INSIGHT_SOURCE_CHOICES = [...RECALL_SOURCES, ALL_SOURCES] as const;
export type InsightSourceChoice = (typeof INSIGHT_SOURCE_CHOICES)[number];

/** The sources a `source` parameter counts (absent: the default, every source but eval). */
export function insightSources(choice: InsightSourceChoice | undefined): RecallSource[] {
  if (choice === undefined) return [...DEFAULT_INSIGHT_SOURCES];
  return choice === ALL_SOURCES ? [...RECALL_SOURCES] : [choice];
}

const shape = {
  /** Inclusive start; default: `to` minus 30 days. */
  from: IsoDateTime.optional(),
  /** Exclusive end; default: now. */
  to: IsoDateTime.optional(),
  bucket: z.enum(INSIGHT_BUCKETS, "bucket takes hour, day or week").default("day"),
  /** The zone buckets are cut in (a day starts at its midnight). */
  tz: z.string().trim().refine(isTimeZoneName, "tz must be an IANA time zone name such as Europe/Berlin or UTC").default("UTC"),
  /** Exact store name. */
  store: z.string().trim().min(1).max(100).optional(),
  /** Exact selector model: only recalls the selector ran on have one. */
  selector_model: z.string().trim().min(1).max(200).optional(),
  /** History's level filters, read by History's own schema (lib/recall-log/history.ts). */
  verdict: z.string().optional(),
  level: z.string().optional(),
  profile_level: z.string().optional(),
  profile: z.string().optional(),
  /** One source, or "all"; absent: every source but evaluation runs (see DEFAULT_INSIGHT_SOURCES). */
  source: z
    .enum(INSIGHT_SOURCE_CHOICES, `source takes ${INSIGHT_SOURCE_CHOICES.join(", ")} (absent: every source but eval)`)
    .optional(),
};

/** The filters Insights shares with History, by History's names and meaning. */
export const SHARED_HISTORY_FILTERS = ["store", "selector_model", "verdict", "level", "profile_level", "profile"] as const;

/** A parameter sent empty (`?store=`) counts as not sent. */
function dropEmpty(value: unknown): unknown {
  if (typeof value !== "object" || value === null || Array.isArray(value)) return value;
  return Object.fromEntries(Object.entries(value).filter(([, v]) => v !== "" && v !== undefined));
}

/** The query with its defaults resolved: what the SQL runs with. */
export interface InsightsQuery {
  from: Date;
  to: Date;
  bucket: InsightBucket;
  tz: string;
  store?: string | undefined;
  selector_model?: string | undefined;
  /** Levels of the store's verdict (OR), as History's `verdict`: the profile's level, else the reference level. */
  verdict?: Level[] | undefined;
  /** Reference levels (OR), as History's `level`. */
  level?: Level[] | undefined;
  /** Levels under the store's threshold profile (OR), as History's `profile_level`. */
  profile_level?: Level[] | undefined;
  /** Recalls judged by this threshold profile, as History's `profile`. */
  profile?: string | undefined;
  /** Where the recalls came from; undefined: every source (the query string's default leaves eval out). */
  sources?: RecallSource[] | undefined;
}

/** The most buckets a range can need (each end may cut into one more). */
export function estimateBuckets(from: Date, to: Date, bucket: InsightBucket): number {
  return Math.ceil((to.getTime() - from.getTime()) / BUCKET_MS[bucket]) + 1;
}

/** The query string of `GET /api/insights`; `now` fills the defaults (a function, for tests). */
export function insightsQuerySchema(now: () => Date = () => new Date()) {
  return withInputRules(
    z.preprocess(
      dropEmpty,
      z.object(shape).transform((q, ctx): InsightsQuery => {
        const to = q.to ?? now();
        const from = q.from ?? new Date(to.getTime() - DEFAULT_INSIGHT_SPAN_MS);
        if (from.getTime() >= to.getTime()) {
          ctx.addIssue({ code: "custom", path: ["from"], message: "from must be earlier than to" });
          return z.NEVER;
        }
        const buckets = estimateBuckets(from, to, q.bucket);
        if (buckets > MAX_INSIGHT_BUCKETS) {
          ctx.addIssue({
            code: "custom",
            path: ["bucket"],
            message: `this range needs up to ${buckets.toLocaleString("en-US")} ${q.bucket} buckets; the limit is ${MAX_INSIGHT_BUCKETS.toLocaleString("en-US")} (choose a larger bucket or a shorter range)`,
          });
          return z.NEVER;
        }
        // The level filters mean what they mean in History: parsed by History's schema.
        const shared = HistoryFiltersSchema.safeParse({
          verdict: q.verdict,
          level: q.level,
          profile_level: q.profile_level,
          profile: q.profile,
        });
        if (!shared.success) {
          for (const issue of shared.error.issues) ctx.addIssue({ code: "custom", path: issue.path, message: issue.message });
          return z.NEVER;
        }
        const { verdict, level, profile_level, profile } = shared.data;
        return {
          from,
          to,
          bucket: q.bucket,
          tz: q.tz,
          store: q.store,
          selector_model: q.selector_model,
          ...(verdict ? { verdict: [...verdict] } : {}),
          ...(level ? { level: [...level] } : {}),
          ...(profile_level ? { profile_level: [...profile_level] } : {}),
          ...(profile ? { profile } : {}),
          sources: insightSources(q.source),
        };
      }),
    ),
  );
}

export const InsightsQuerySchema = insightsQuerySchema();

// ---------------------------------------------------------------------------------------------
// The answer. Every rate comes with the counts it was computed from, and is null (not 0) when
// there is nothing to compute it over.

/** What a set of recalls adds up to. */
export interface InsightCounts {
  /** Every recall, failed ones included. */
  recalls: number;
  /** status error: in volume only, never in the level mix or selector rates. */
  failed: number;
  /** recalls − failed. */
  ok: number;
  /** The selector ran (of ok). */
  applied: number;
  /** The selector did not run (of ok). */
  not_applied: number;
  /** Applied recalls that state both kept and dropped: the drop rate's recalls. */
  counted: number;
  kept: number;
  dropped: number;
  /** Of `dropped`, how many are itemized in dropped_memory_ids (capped at 20 per recall). */
  listed_dropped: number;
  /** Applied recalls that lost at least one result. */
  lost_any: number;
  high: number;
  moderate: number;
  low: number;
  none: number;
  /** ok recalls without a level (a service that sent no confidence block). */
  unknown_level: number;
  /** The selector tried and failed (of not_applied; lib/recall/selector-reasons.ts kind "failed"). */
  selector_failed: number;
  /** The selector ran or tried to: applied + selector_failed (the failure rate's denominator). */
  tried: number;
  /** Applied, and the memory that set top_score was dropped: the level rests on a memory the agent did not get. */
  top_dropped: number;
  /** top_dropped by level. */
  high_top_dropped: number;
  moderate_top_dropped: number;
  low_top_dropped: number;
  none_top_dropped: number;
  /** Level none/low, and the selector applied yet dropped nothing. */
  weak_kept_all: number;
}

export interface InsightRates {
  /** applied / ok. */
  applied_rate: number | null;
  /** dropped / (kept + dropped), over the counted applied recalls. */
  drop_rate: number | null;
  /** lost_any / applied. */
  lost_any_rate: number | null;
  /** selector_failed / tried. */
  failure_rate: number | null;
  /** top_dropped / applied. */
  top_dropped_rate: number | null;
  /** (none + low) / recalls with a level. */
  weak_hit_rate: number | null;
  /** Each level's share of the recalls with a level; null when none has one. */
  level_mix: { high: number; moderate: number; low: number; none: number } | null;
}

export type InsightStats = InsightCounts & InsightRates;

export interface InsightSeriesPoint extends InsightStats {
  /** The bucket's first instant (ISO, UTC). */
  start: string;
  /** The next bucket's first instant (ISO, UTC). */
  end: string;
  /** The bucket's start as wall-clock time in the zone, "YYYY-MM-DDTHH:MM". */
  local_start: string;
  /** The range covers only part of this bucket (its first or last). */
  partial: boolean;
}

/**
 * Level counts under the store's verdict (lib/insights/judges.ts): each recall's profile level
 * where a profile judged it, else its reference level; the weak-hit rate over them.
 */
export interface VerdictCounts {
  high: number;
  moderate: number;
  low: number;
  none: number;
  /** (none + low) / the four; null over none. */
  weak_hit_rate: number | null;
}

/** Per store: the counters (levels by the reference rules) and the store's verdict's levels. */
export type StoreInsight = InsightStats & { store: string; verdict: VerdictCounts };
/** Per selector model, where it ran or tried (failures included): null is "the block named no model". */
export type ModelInsight = InsightStats & { selector_model: string | null; verdict: VerdictCounts };

export interface ReasonInsight {
  /** Why the selector did not run; null when the recall did not say. */
  reason: string | null;
  /** Off by choice, not set up, nothing to judge, failed, or unknown (lib/recall/selector-reasons.ts). */
  kind: SelectorReasonKind;
  recalls: number;
  /** Of all ok recalls the selector did not run on. */
  share: number;
}

export interface DroppedMemory {
  store: string;
  memory_id: string;
  /** The latest summary seen on a result page (or the embedded store's own); null when unknown. */
  summary: string | null;
  /** Recalls that listed it in dropped_memory_ids. */
  dropped: number;
  /** Recalls the selector ran on that had it on the page and kept it. */
  kept: number;
  /** dropped / (dropped + kept). */
  drop_share: number | null;
}

export interface DisagreementItem {
  id: string;
  created_at: string;
  store: string;
  query: string;
  level: string | null;
  top_score: number | null;
  selector_model: string | null;
  kept: number | null;
  dropped: number | null;
  /** The memory that set top_score (rank 1 of the unselected page when the pool is not exposed). */
  top_memory_id: string | null;
  top_summary: string | null;
}

export interface DisagreementList {
  /** All such recalls in the range (the list shows the newest). */
  total: number;
  items: DisagreementItem[];
}

/** A point in the series where the selector changed: a model, or a model's prompt version, first used. */
export interface SeriesMarker {
  /** The bucket it was first tried in (wall clock in the zone, as the series' `local_start`). */
  local_start: string;
  /** That bucket's first instant (ISO, UTC). */
  start: string;
  kind: "model" | "prompt";
  selector_model: string;
  prompt_version: string | null;
  label: string;
}

/** The filters an answer was computed under, echoed (null: not set). */
export interface InsightFilters {
  store: string | null;
  selector_model: string | null;
  verdict: Level[] | null;
  level: Level[] | null;
  profile_level: Level[] | null;
  profile: string | null;
  /** The sources counted; null: every one. */
  sources: RecallSource[] | null;
}

/**
 * The level's verdict (worth reading: high or moderate; else weak) against another verdict —
 * the selector's (it kept something) or a person's label (something relevant was present).
 * Every cell is a count; the rate is null over nothing.
 */
export interface Agreement {
  worth_yes: number;
  worth_no: number;
  weak_yes: number;
  weak_no: number;
  /** The four cells. */
  total: number;
  /** worth_yes + weak_no: both verdicts said the same. */
  agree: number;
  rate: number | null;
}

/** One bucket's level counts under a judge. */
export interface JudgeBucket {
  local_start: string;
  high: number;
  moderate: number;
  low: number;
  none: number;
}

/**
 * Who judged a level: the store's verdict (every recall as its store judged it when it was
 * logged: its profile's level, or the reference level where no profile judged it), the
 * reference rules (every recall's `level`, what the agent saw), or one threshold profile.
 */
export type JudgeKind = "verdict" | "reference" | "profile";

/**
 * A judge of the level: the store's verdict, the reference rules, or a threshold profile (the
 * recalls it judged, their `profile_level`).
 */
export interface JudgeInsight {
  judge: JudgeKind;
  /** The profile's name (judge "profile"); null for the verdict and the reference rules. */
  profile: string | null;
  /** Recalls that got a level from this judge (failed ones excluded). */
  recalls: number;
  high: number;
  moderate: number;
  low: number;
  none: number;
  level_mix: InsightRates["level_mix"];
  /** Against the selector's verdict, over the recalls it ran on that state kept and dropped. */
  selector: Agreement;
  /** Against the labels (present yes/no), over the labeled recalls. */
  labels: Agreement;
  /** Level counts per bucket, aligned with the answer's `series`. */
  series: JudgeBucket[];
}

/** What every Insights answer states about the window it covers (the query, resolved). */
export interface InsightsWindow {
  from: string;
  to: string;
  bucket: InsightBucket;
  tz: string;
  filters: InsightFilters;
}

export interface InsightsResponse extends InsightsWindow {
  totals: InsightStats;
  series: InsightSeriesPoint[];
  by_store: StoreInsight[];
  by_model: ModelInsight[];
  not_applied_reasons: ReasonInsight[];
  /** Where the selector model or prompt version changed inside the range. */
  markers: SeriesMarker[];
  most_dropped: {
    items: DroppedMemory[];
    /** Drops not itemized (dropped beyond the 20 listed ids, or no list): counts can undercount. */
    unlisted_drops: number;
  };
  disagreements: {
    /** At any level: the selector dropped the memory that set top_score (the level rests on it). */
    top_dropped: DisagreementList;
    /** Confidence none/low, the selector kept everything. */
    weak_kept_all: DisagreementList;
  };
  /**
   * With relevance labels: of the labeled recalls the selector ran on (`labeled`, with at least one
   * per-result label), how many dropped a memory labeled relevant, and how many kept only memories
   * labeled not relevant (a non-empty page, every kept row labeled not relevant).
   */
  labels: {
    labeled: number;
    dropped_relevant: number;
    dropped_relevant_rate: number | null;
    kept_only_irrelevant: number;
    kept_only_irrelevant_rate: number | null;
  };
  /**
   * The level mix under each judge, with agreement rates: the store's verdict first, then the
   * reference rules, then each threshold profile (most recalls first).
   */
  judges: JudgeInsight[];
  limits: { max_buckets: number; list_size: number };
}
