/**
 * Drill-downs: the History page (`/recalls?…`) filtered to the recalls behind an Insights
 * number. Uses the History's own filter names (lib/recall-log/history.ts), so each link lists
 * exactly what it counts, with the caveats said where a History filter is broader. Pure.
 */
import { historyFilterParams, type HistoryFilters } from "@/lib/recall-log/history";
import type { RecallSource } from "@/lib/recall-log/sources";

export interface DrillScope {
  from: Date;
  to: Date;
  store?: string | null | undefined;
  selector_model?: string | null | undefined;
  /** History's level filters the Insights answer was computed under, kept by every drill-down. */
  verdict?: HistoryFilters["verdict"] | null;
  level?: HistoryFilters["level"] | null;
  profile_level?: HistoryFilters["profile_level"] | null;
  profile?: string | null | undefined;
  /**
   * The answer's sources. History filters by one source: one is passed on; the default (every
   * source but evaluation runs) cannot be, so its drill-downs list evaluation runs' recalls too.
   */
  sources?: readonly RecallSource[] | null | undefined;
}

/** `/recalls?…` for the scope plus any further History filters. */
export function historyHref(scope: DrillScope, extra: HistoryFilters = {}): string {
  const filters: HistoryFilters = {
    from: scope.from,
    to: scope.to,
    ...(scope.store ? { store: scope.store } : {}),
    ...(scope.selector_model ? { selector_model: scope.selector_model } : {}),
    ...(scope.verdict?.length ? { verdict: scope.verdict } : {}),
    ...(scope.level?.length ? { level: scope.level } : {}),
    ...(scope.profile_level?.length ? { profile_level: scope.profile_level } : {}),
    ...(scope.profile ? { profile: scope.profile } : {}),
    ...(scope.sources?.length === 1 ? { source: scope.sources[0] } : {}),
    ...extra,
  };
  return `/recalls?${historyFilterParams(filters).toString()}`;
}

export function recallHref(id: string): string {
  return `/recalls/${encodeURIComponent(id)}`;
}

/** The named drill-downs of the page. */
export const drill = {
  all: (scope: DrillScope) => historyHref(scope),
  failed: (scope: DrillScope) => historyHref(scope, { status: "error" }),
  applied: (scope: DrillScope) => historyHref(scope, { status: "ok", selector_applied: true }),
  /** Recalls the selector ran on that lost at least one result. */
  lostAny: (scope: DrillScope) => historyHref(scope, { status: "ok", selector_applied: true, has_dropped: true }),
  /** Recalls the selector did not run on. */
  notApplied: (scope: DrillScope) => historyHref(scope, { status: "ok", selector_applied: false }),
  /** Recalls the selector did not apply on for this reason (null: every not-applied one). */
  reason: (scope: DrillScope, reason: string | null) =>
    reason === null
      ? historyHref(scope, { status: "ok", selector_applied: false })
      : historyHref(scope, { status: "ok", selector_reason: reason }),
  /** Every selector failure (timeout, HTTP error, unreadable answer, invented id…). */
  selectorFailed: (scope: DrillScope) => historyHref(scope, { selector_kind: "failed" }),
  /** Recalls whose level rests on a memory the selector dropped, at one level or all. */
  topDropped: (scope: DrillScope, level?: "high" | "moderate" | "low" | "none") =>
    historyHref(scope, { top_dropped: true, ...(level ? { level: [level] } : {}) }),
  /** Weak by the reference rules (low or none): what the agent saw. */
  weakHits: (scope: DrillScope) => historyHref(scope, { level: ["low", "none"] }),
  /** Weak by the store's verdict (its profile's level, else the reference level). */
  weakVerdicts: (scope: DrillScope) => historyHref(scope, { verdict: ["low", "none"] }),
  level: (scope: DrillScope, level: "high" | "moderate" | "low" | "none") => historyHref(scope, { level: [level] }),
  store: (scope: DrillScope, store: string) => historyHref({ ...scope, store }),
  /** A model row; null (applied, no model stated) can only narrow to "applied". */
  model: (scope: DrillScope, model: string | null) =>
    model === null
      ? historyHref({ ...scope, selector_model: null }, { status: "ok", selector_applied: true })
      : historyHref({ ...scope, selector_model: model }),
  /** The recalls whose dropped-id list names this memory. */
  droppedMemory: (scope: DrillScope, store: string, memoryId: string) =>
    historyHref({ ...scope, store }, { dropped_memory: memoryId }),
  /** Confidence none/low and the selector kept everything. */
  weakKeptAll: (scope: DrillScope) => historyHref(scope, { level: ["low", "none"], selector_applied: true, has_dropped: false }),
  /** The recalls a threshold profile judged (null: every recall, the reference rules' level). */
  judge: (scope: DrillScope, profile: string | null) =>
    profile === null ? historyHref(scope) : historyHref({ ...scope, profile }),
  /** One series bucket, clamped to the range. */
  bucket: (scope: DrillScope, start: string, end: string) =>
    historyHref({
      ...scope,
      from: new Date(Math.max(scope.from.getTime(), Date.parse(start))),
      to: new Date(Math.min(scope.to.getTime(), Date.parse(end))),
    }),
};
