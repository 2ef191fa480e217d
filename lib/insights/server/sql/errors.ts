/** What every Insights answer shares: the filters it echoes and the one database error it names. */
import { RECALL_SOURCES } from "@/lib/recall-log/sources";
import type { InsightFilters, InsightsQuery } from "../../schema";

/** A time zone PostgreSQL does not know (its tz database may lag the browser's). */
export class UnknownTimeZoneError extends Error {
  override readonly name = "UnknownTimeZoneError";
  constructor(readonly tz: string) {
    super(`The database does not know the time zone "${tz}"; pick another name for the same zone, or UTC.`);
  }
}

/** PostgreSQL's `time zone "…" not recognized`, wherever the driver adapter put its message. */
export function isUnknownTimeZone(error: unknown): boolean {
  const cause = (error as { meta?: { driverAdapterError?: { cause?: { message?: unknown } } } } | null)?.meta?.driverAdapterError
    ?.cause;
  const texts = [error instanceof Error ? error.message : String(error), typeof cause?.message === "string" ? cause.message : ""];
  return texts.some((text) => /time zone .* not recognized/i.test(text));
}

/** The filters an answer was computed under (null: not set). */
export function filtersOf(q: InsightsQuery): InsightFilters {
  return {
    store: q.store ?? null,
    selector_model: q.selector_model ?? null,
    verdict: q.verdict ?? null,
    level: q.level ?? null,
    profile_level: q.profile_level ?? null,
    profile: q.profile ?? null,
    sources: q.sources && q.sources.length < RECALL_SOURCES.length ? [...q.sources] : null,
  };
}
