/**
 * The sentence History shows for the filter's total (lib/recall-log/history-count.ts): exact, or
 * an estimate said as one, and the split by level and profile level. Pure; unit-tested.
 */
import { formatCount } from "@/lib/format";
import { levelWord } from "@/lib/recall-log/format";
import type { HistoryCount } from "@/lib/recall-log/server/history-count";

/** "1,234 recalls match." or "About 1.2 million recalls match (estimated: more than 10,000)." */
export function countLine(count: HistoryCount): string {
  if (count.exact) return `${formatCount(count.total)} ${count.total === 1 ? "recall matches" : "recalls match"}.`;
  return `About ${roundEstimate(count.total)} recalls match (estimated by the database; more than ${formatCount(count.cap)}, so not counted one by one).`;
}

/** An estimate to two significant figures: 1,234,567 → "1.2 million", 48,213 → "48,000". */
export function roundEstimate(n: number): string {
  if (n >= 1_000_000) return `${(Math.round(n / 100_000) / 10).toLocaleString("en-US")} million`;
  const magnitude = 10 ** Math.max(0, Math.floor(Math.log10(Math.max(n, 1))) - 1);
  return formatCount(Math.round(n / magnitude) * magnitude);
}

const ORDER = ["high", "moderate", "low", "none"] as const;

/** The split as "high 12 · moderate 4 · …" for one grouping, with what it was counted over. */
export function splitLine(counts: Record<string, number>, extra: readonly [key: string, word: string][]): string {
  const parts: string[] = [];
  for (const level of ORDER) if (counts[level]) parts.push(`${levelWord(level).toLowerCase()} ${formatCount(counts[level])}`);
  for (const [key, word] of extra) if (counts[key]) parts.push(`${word} ${formatCount(counts[key])}`);
  return parts.join(" · ");
}
