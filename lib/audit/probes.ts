/**
 * The probes made from a memory itself (lib/audit/README.md "Reachability audit"): its summary,
 * its summary without the store's most frequent words (what is left is what sets it apart), and
 * its tags. Pure.
 */
import { FREQUENT_WORDS, type ProbeKind } from "./types";

const WORD = /[\p{L}\p{N}][\p{L}\p{N}'_-]*/gu;

function words(text: string): string[] {
  return text.toLowerCase().match(WORD) ?? [];
}

/**
 * The store's most frequent words by the number of summaries holding them (ties by the word, so
 * the list does not depend on order). A word in a single summary is never "frequent".
 */
export function frequentWords(summaries: Iterable<string>, limit = FREQUENT_WORDS): string[] {
  const df = new Map<string, number>();
  for (const summary of summaries) for (const word of new Set(words(summary))) df.set(word, (df.get(word) ?? 0) + 1);
  return [...df]
    .filter(([, n]) => n > 1)
    .sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0))
    .slice(0, limit)
    .map(([word]) => word);
}

export interface Probe {
  kind: ProbeKind;
  query: string;
}

/**
 * A memory's probes, each query once: the `distinct` probe only when leaving out the frequent
 * words changes the summary and leaves a word, the `tags` probe only when it has tags.
 */
export function memoryProbes(memory: { summary: string; tags: readonly string[] }, frequent: ReadonlySet<string>): Probe[] {
  const probes: Probe[] = [];
  const summary = memory.summary.trim();
  if (summary) probes.push({ kind: "summary", query: summary });
  const all = summary.match(WORD) ?? [];
  const kept = all.filter((w) => !frequent.has(w.toLowerCase()));
  const distinct = kept.join(" ");
  if (kept.length > 0 && kept.length < all.length) probes.push({ kind: "distinct", query: distinct });
  const tags = memory.tags
    .map((t) => t.trim())
    .filter(Boolean)
    .join(" ");
  if (tags && !probes.some((p) => p.query === tags)) probes.push({ kind: "tags", query: tags });
  return probes;
}
