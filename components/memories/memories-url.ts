import type { MemoryListFilters } from "@/lib/queries/use-memories";

/** The Memories page's filters, as they stand in its URL (state in the URL, so a view is shareable). */
export const MEMORY_FILTER_KEYS = ["store", "q", "type", "tag"] as const;

export function memoryFiltersFrom(params: { get(name: string): string | null }): MemoryListFilters {
  return {
    // "" (no `?store=`): the default store.
    store: (params.get("store") ?? "").trim(),
    q: (params.get("q") ?? "").trim(),
    type: params.get("type") ?? "",
    tag: params.get("tag") ?? "",
  };
}

/** The query string after a change of some filters ("" removes one); the other parameters stay. */
export function memoryFiltersQuery(current: string, next: Partial<MemoryListFilters>): string {
  const params = new URLSearchParams(current);
  for (const key of MEMORY_FILTER_KEYS) {
    const value = next[key];
    if (value === undefined) continue;
    if (value) params.set(key, value);
    else params.delete(key);
  }
  return params.toString();
}

/** "match “x”, are of type “y” and are tagged “z”": the end of "No memories …". */
export function describeMemoryFilters(filters: MemoryListFilters): string {
  const parts: string[] = [];
  if (filters.q) parts.push(`match “${filters.q}”`);
  if (filters.type) parts.push(`are of type “${filters.type}”`);
  if (filters.tag) parts.push(`are tagged “${filters.tag}”`);
  return parts.length > 1 ? `${parts.slice(0, -1).join(", ")} and ${parts[parts.length - 1]}` : (parts[0] ?? "");
}

/** The line above the table: how many are shown of how many, for which filters, in which order. */
export function memoryResultsLine(
  filters: MemoryListFilters,
  { shown, total, remote }: { shown: number; total: number; remote: boolean },
) {
  if (total === 0) return filters.q || filters.type || filters.tag ? "No matches." : "No memories.";
  const counts = `Showing ${shown.toLocaleString("en-US")} of ${total.toLocaleString("en-US")} ${total === 1 ? "memory" : "memories"}`;
  const labels = [
    filters.q ? `search “${filters.q}”` : null,
    filters.type ? `type “${filters.type}”` : null,
    filters.tag ? `tag “${filters.tag}”` : null,
  ].filter(Boolean);
  const order = remote ? "in the service’s order" : "newest first";
  return labels.length ? `${counts} for ${labels.join(", ")}, ${order}.` : `${counts}, ${order}.`;
}
