/**
 * Text for the Insights page: percentages, counts, bucket labels. Pure and client-safe; bucket
 * labels are read from the wall-clock `local_start` the API sends, so they never depend on the
 * zone of the machine that formats them.
 */
import { countOf, formatCount, formatPercent } from "@/lib/format";
import { RECALL_SOURCE_LABELS, RECALL_SOURCES, type RecallSource } from "@/lib/recall-log/sources";
import type { InsightBucket, InsightStats, JudgeInsight } from "./schema";

interface Wall {
  year: number;
  month: number;
  day: number;
  hour: number;
  minute: number;
}

/** "2025-01-09T14:00" → its fields; null when it is not that shape. */
export function parseWallClock(text: string): Wall | null {
  const m = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2})$/.exec(text);
  if (!m) return null;
  return { year: Number(m[1]), month: Number(m[2]), day: Number(m[3]), hour: Number(m[4]), minute: Number(m[5]) };
}

// Formatting a wall-clock reading as if it were UTC gives back exactly its own fields.
const asUtc = (w: Wall) => new Date(Date.UTC(w.year, w.month - 1, w.day, w.hour, w.minute));
const dayFormat = new Intl.DateTimeFormat("en-US", { timeZone: "UTC", month: "short", day: "numeric" });
const weekdayDayFormat = new Intl.DateTimeFormat("en-US", { timeZone: "UTC", weekday: "short", month: "short", day: "numeric" });
const fullDayFormat = new Intl.DateTimeFormat("en-US", {
  timeZone: "UTC",
  weekday: "short",
  month: "short",
  day: "numeric",
  year: "numeric",
});
const pad = (n: number) => String(n).padStart(2, "0");

/** The short axis tick: "14:00" (hours; midnight shows the date), "Jan 9" (days, weeks). */
export function bucketTick(localStart: string, bucket: InsightBucket): string {
  const w = parseWallClock(localStart);
  if (!w) return localStart;
  if (bucket === "hour") return w.hour === 0 && w.minute === 0 ? dayFormat.format(asUtc(w)) : `${pad(w.hour)}:${pad(w.minute)}`;
  return dayFormat.format(asUtc(w));
}

/** The tooltip's title: "Thu, Jan 9, 14:00–15:00", "Thu, Jan 9, 2025", "Week of Mon, Jan 6, 2025". */
export function bucketLabel(localStart: string, bucket: InsightBucket): string {
  const w = parseWallClock(localStart);
  if (!w) return localStart;
  const date = asUtc(w);
  if (bucket === "hour") {
    const next = new Date(date.getTime() + 3_600_000);
    return `${weekdayDayFormat.format(date)}, ${pad(w.hour)}:${pad(w.minute)}–${pad(next.getUTCHours())}:${pad(next.getUTCMinutes())}`;
  }
  if (bucket === "day") return fullDayFormat.format(date);
  return `Week of ${fullDayFormat.format(date)}`;
}

/** The bucket unit as words: "hour", "day", "week (Monday to Sunday)". */
export function bucketWords(bucket: InsightBucket): string {
  return bucket === "week" ? "week (Monday to Sunday)" : bucket;
}

/**
 * Which recalls a figure's sample holds, by source, for the line under every rate: the answer's
 * `filters.sources` (null: every source).
 */
export function sourcesWords(sources: readonly RecallSource[] | null): string {
  if (sources === null || RECALL_SOURCES.every((s) => sources.includes(s))) return "every source, evaluation runs included";
  const left = RECALL_SOURCES.filter((s) => !sources.includes(s));
  if (left.length === 1 && left[0] === "eval") return "evaluation runs left out";
  if (sources.length === 1) return `${RECALL_SOURCE_LABELS[sources[0]!]} only`;
  return `from ${sources.map((s) => RECALL_SOURCE_LABELS[s]).join(", ")}`;
}

/**
 * The headline weak-hit figure: the share of recalls judged none or low by the store's verdict
 * (the judge Insights leads with, lib/insights/judges.ts), with the reference rules' share beside
 * it, what the agent saw. Without a verdict in the answer, the reference rules' share alone.
 * `from` says which sources were counted.
 */
export function weakHitWords(
  totals: Pick<InsightStats, "high" | "moderate" | "low" | "none" | "weak_hit_rate">,
  verdict: Pick<JudgeInsight, "recalls" | "low" | "none"> | undefined,
  from: string,
): { label: string; value: string; detail: string } {
  const leveled = totals.high + totals.moderate + totals.low + totals.none;
  if (!verdict) {
    return {
      label: "Weak-hit rate",
      value: formatPercent(totals.weak_hit_rate),
      detail: `${formatCount(totals.none + totals.low)} of ${countOf(leveled, "recall")} with a level (none + low); ${from}`,
    };
  }
  const weak = verdict.low + verdict.none;
  return {
    label: "Weak-hit rate, store's verdict",
    value: formatPercent(verdict.recalls > 0 ? weak / verdict.recalls : null),
    detail: `${formatCount(weak)} of ${countOf(verdict.recalls, "recall")} judged none or low by the store's verdict; reference rules ${formatPercent(totals.weak_hit_rate)}, what the agent saw; ${from}`,
  };
}
