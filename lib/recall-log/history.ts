/**
 * The recall history's filters and page shapes: the query schema of `GET /api/recalls` (README
 * "HTTP API"), the query-string form of those filters that the History page keeps in its URL, the
 * cursor codec, and the row and page types the route answers and the hook reads. Client-safe, so
 * the page parses and writes its URL with the same schema the route validates with.
 *
 * Reading the log is in history-list.ts (the page, through Prisma), history-sql.ts (the same
 * filters in raw SQL) and history-count.ts (the total).
 */
import { z } from "zod";
import { decodeKeysetCursor, encodeKeysetCursor, type KeysetPosition } from "@/lib/pagination/keyset";
import { LEVELS, type Level } from "@/lib/recall/confidence";
import { SELECTOR_REASON_KIND_NAMES } from "@/lib/recall/selector-reasons";
import { isoDateTime, withInputRules } from "@/lib/validation/input-rules";
import { isUuid } from "@/lib/validation/uuid";
import type { PresentLabel } from "./labels";
import { RECALL_SOURCES, type RecallSource } from "./sources";

export const HISTORY_PAGE_SIZE = 50;
export const HISTORY_MAX_PAGE_SIZE = 200;
export const HISTORY_QUERY_MAX_CHARS = 200;

/** Levels strongest first: the order a level list is normalized to (and shown in). */
export const HISTORY_LEVELS: readonly Level[] = [...LEVELS].reverse();

// ---------------------------------------------------------------------------------------------
// Cursor: the one keyset codec (lib/pagination/keyset.ts), with recall ids (UUIDs, lower case as written).

export type HistoryCursor = KeysetPosition;

export function encodeHistoryCursor(cursor: HistoryCursor): string {
  return encodeKeysetCursor(cursor);
}

/** The position a cursor names, or null when it is not one `encodeHistoryCursor` wrote. */
export function decodeHistoryCursor(cursor: string): HistoryCursor | null {
  return decodeKeysetCursor(cursor, (id) => isUuid(id) && id === id.toLowerCase());
}

// ---------------------------------------------------------------------------------------------
// Query schema, shared by the route (422 on bad input) and the History page (its URL).

/**
 * The label filter: `labeled` (any label saved), `unlabeled`, or the present label — `present`
 * (yes), `absent` (no), `unsure`.
 */
export const HISTORY_LABEL_FILTERS = ["labeled", "unlabeled", "present", "absent", "unsure"] as const;
export type HistoryLabelFilter = (typeof HISTORY_LABEL_FILTERS)[number];
/** The stored present label each of the three present filters selects. */
export const PRESENT_LABEL_OF: Record<"present" | "absent" | "unsure", PresentLabel> = {
  present: "yes",
  absent: "no",
  unsure: "unsure",
};

const BAD_CURSOR = "The cursor is damaged or not one this API issued; start over from the first page (drop the cursor).";

const BooleanParam = z.enum(["true", "false"], "expected true or false").transform((value) => value === "true");

const IsoDateTime = isoDateTime();

const levelList = (name: string) =>
  z
    .string()
    .max(100)
    .transform((text, ctx) => {
      const parts = text
        .split(",")
        .map((part) => part.trim().toLowerCase())
        .filter(Boolean);
      const unknown = parts.filter((part) => !(HISTORY_LEVELS as readonly string[]).includes(part));
      if (parts.length === 0 || unknown.length > 0) {
        ctx.addIssue({
          code: "custom",
          message: `${name} takes one or more of ${HISTORY_LEVELS.join(", ")}, comma-separated${unknown.length ? ` (not ${unknown.map((u) => `"${u}"`).join(", ")})` : ""}`,
        });
        return z.NEVER;
      }
      return HISTORY_LEVELS.filter((level) => parts.includes(level));
    });

const filterShape = {
  /** Exact store name. */
  store: z.string().trim().min(1).max(100).optional(),
  /**
   * One or several levels of the store's verdict (OR): the level under the store's threshold
   * profile where one judged the recall (`profile_level`), else the reference level — what the
   * console leads with and History's level column shows first (lib/calibration/README.md "Threshold profiles").
   */
  verdict: levelList("verdict").optional(),
  /** One or several reference levels (OR): the reference rules' `level`, what the agent saw. */
  level: levelList("level").optional(),
  /**
   * One or several levels under the store's threshold profile (OR); `none` is a level here too.
   * Recalls judged by the reference profile have no profile level and never match.
   */
  profile_level: levelList("level").optional(),
  /** Exact threshold profile name (recalls judged by a non-reference profile). */
  profile: z.string().trim().min(1).max(100).optional(),
  /** Exact search mode. */
  mode: z.enum(["semantic", "keyword", "hybrid"], "mode takes semantic, keyword or hybrid").optional(),
  selector_applied: BooleanParam.optional(),
  /** true: the selector dropped at least one result; false: it dropped none or did not run. */
  has_dropped: BooleanParam.optional(),
  /** Text the query contains, case-insensitive. */
  q: z
    .string()
    .trim()
    .max(HISTORY_QUERY_MAX_CHARS, `q is longer than ${HISTORY_QUERY_MAX_CHARS} characters`)
    .transform((text) => text || undefined)
    .optional(),
  /** Inclusive lower bound on created_at. */
  from: IsoDateTime.optional(),
  /** Exclusive upper bound on created_at. */
  to: IsoDateTime.optional(),
  status: z.enum(["ok", "error"]).optional(),
  source: z.enum(RECALL_SOURCES).optional(),
  /** The OpenTelemetry trace a captured recall came from (32 hex characters, any case). */
  trace_id: z
    .string()
    .trim()
    .regex(/^[0-9a-fA-F]{32}$/, "trace_id is 32 hexadecimal characters")
    .transform((id) => id.toLowerCase())
    .optional(),
  /** Exact selector model (only recalls the selector ran on have one). */
  selector_model: z.string().trim().min(1).max(200).optional(),
  /** A memory id the selector dropped: the recall's dropped_memory_ids (capped at 20) contain it. */
  dropped_memory: z.string().trim().min(1).max(200).optional(),
  /** Relevance labels: any label, none, or the present label (yes / no / unsure). */
  label: z.enum(HISTORY_LABEL_FILTERS, `label is one of ${HISTORY_LABEL_FILTERS.join(", ")}`).optional(),
  /** Exact reason the selector did not apply (lib/recall/selector-reasons.ts), e.g. `unknown_id`. */
  selector_reason: z.string().trim().min(1).max(200).optional(),
  /** The kind of that reason: `failed` selects every selector failure. */
  selector_kind: z.enum(SELECTOR_REASON_KIND_NAMES, `selector_kind takes ${SELECTOR_REASON_KIND_NAMES.join(", ")}`).optional(),
  /** true: the level rests on a memory the selector dropped (the one that set top_score). */
  top_dropped: BooleanParam.optional(),
};

const pageShape = {
  limit: z.coerce
    .number("limit must be a number")
    .int("limit must be a whole number")
    .min(1, "limit is at least 1")
    .max(HISTORY_MAX_PAGE_SIZE, `limit is at most ${HISTORY_MAX_PAGE_SIZE}`)
    .default(HISTORY_PAGE_SIZE),
  cursor: z
    .string()
    .transform((text, ctx) => {
      const cursor = decodeHistoryCursor(text);
      if (!cursor) {
        ctx.addIssue({ code: "custom", message: BAD_CURSOR });
        return z.NEVER;
      }
      return cursor;
    })
    .optional(),
};

/** A parameter sent empty (`?store=&level=`, as a plain HTML form does) counts as not sent. */
function dropEmpty(value: unknown): unknown {
  if (typeof value !== "object" || value === null || Array.isArray(value)) return value;
  return Object.fromEntries(Object.entries(value).filter(([, v]) => v !== "" && v !== undefined));
}

function timeRangeRule(value: { from?: Date | undefined; to?: Date | undefined }, ctx: z.RefinementCtx) {
  if (value.from && value.to && value.from.getTime() >= value.to.getTime()) {
    ctx.addIssue({ code: "custom", path: ["from"], message: "from must be earlier than to" });
  }
}

/** The History page's filters (no paging). */
export const HistoryFiltersSchema = withInputRules(z.preprocess(dropEmpty, z.object(filterShape).superRefine(timeRangeRule)));

/** The query string of `GET /api/recalls`: the filters plus `limit` and `cursor`. */
export const HistoryQuerySchema = withInputRules(
  z.preprocess(dropEmpty, z.object({ ...filterShape, ...pageShape }).superRefine(timeRangeRule)),
);

export type HistoryFilters = z.output<typeof HistoryFiltersSchema>;
export type HistoryQuery = z.output<typeof HistoryQuerySchema>;

/** The filter keys, in the order they are written to a query string. */
export const HISTORY_FILTER_KEYS = [
  "store",
  "verdict",
  "level",
  "profile_level",
  "profile",
  "mode",
  "selector_applied",
  "has_dropped",
  "status",
  "source",
  "trace_id",
  "selector_model",
  "dropped_memory",
  "label",
  "selector_reason",
  "selector_kind",
  "top_dropped",
  "q",
  "from",
  "to",
] as const satisfies readonly (keyof HistoryFilters)[];

/** Filters → query-string parameters (only the ones set); `HistoryFiltersSchema` reads them back. */
export function historyFilterParams(filters: HistoryFilters): URLSearchParams {
  const params = new URLSearchParams();
  for (const key of HISTORY_FILTER_KEYS) {
    const value = filters[key];
    if (value === undefined) continue;
    if (value instanceof Date) params.set(key, value.toISOString());
    else if (Array.isArray(value)) {
      if (value.length > 0) params.set(key, value.join(","));
    } else params.set(key, String(value));
  }
  return params;
}

/** True when any filter is set. */
export function hasHistoryFilters(filters: HistoryFilters): boolean {
  return HISTORY_FILTER_KEYS.some((key) => {
    const value = filters[key];
    return Array.isArray(value) ? value.length > 0 : value !== undefined;
  });
}

// ---------------------------------------------------------------------------------------------
// What a page answers.

/** One row of the history table: the flattened columns only (no pool, no JSON blobs). */
export interface HistoryItem {
  id: string;
  created_at: string;
  source: RecallSource;
  /** The OpenTelemetry trace of a recall captured from a trace (source "otel"). */
  trace_id: string | null;
  store: string;
  query: string;
  k: number;
  search_mode: string;
  status: "ok" | "error";
  /** high | moderate | low | none; null when unknown (a failed recall). */
  level: string | null;
  top_score: number | null;
  prominence: number | null;
  /** The confidence basis (semantic, single_semantic, zscore, single, empty); says what top_score is. */
  basis: string | null;
  /** A hybrid search that ran keyword-only (its top score is raw BM25). */
  degraded: boolean;
  /** The threshold profile that judged `profile_level`; null when the reference profile judged it. */
  profile_name: string | null;
  /** The level under that profile; null when the reference profile judged the recall. */
  profile_level: string | null;
  /**
   * The calibrated probability that something relevant is stored, where that profile has a
   * verdict model (`profile_confidence.probability` as logged); null otherwise.
   */
  profile_probability: number | null;
  /** Results on the returned page (after the selector). */
  returned_count: number;
  selector_applied: boolean;
  /** Set when the selector ran. */
  selector_model: string | null;
  selector_kept: number | null;
  selector_dropped: number | null;
  /** Why the selector did not run, when it did not (null for a failed recall). */
  selector_reason: string | null;
  /** The level rests on a memory the selector dropped (the one that set top_score). */
  top_dropped: boolean;
  latency_ms: number | null;
  /** Whether the candidate pool was recorded (so the score distribution can be drawn). */
  has_candidates: boolean;
  /** The present label: yes | no | unsure; null when not labeled. */
  label_present: PresentLabel | null;
  /** Memory ids labeled relevant, sorted. */
  label_relevant: string[];
  /** Memory ids labeled not relevant. */
  label_not_relevant: string[];
  labeler: string | null;
  /** When a label was last saved; null while the recall carries none. */
  labeled_at: string | null;
}

export interface HistoryPage {
  items: HistoryItem[];
  /** Pass back as `cursor` for the next page; null on the last page. */
  next_cursor: string | null;
  /** The page's stores that were embedded stores and have been deleted since (GET /api/recalls). */
  deleted_stores?: string[];
}
