import { levelRank } from "@/lib/recall/confidence";
import type { EvalRunItem } from "./run-schemas";

/** Sorting of the report's per-query table (pure): nulls last in either direction. */

export const SORT_KEYS = ["position", "query", "kind", "first_relevant_rank", "level", "top_score", "prominence"] as const;
export type SortKey = (typeof SORT_KEYS)[number];
export type SortDir = "asc" | "desc";

function key(item: EvalRunItem, by: SortKey): number | string | null {
  if (by === "level") return item.level === null ? null : levelRank(item.level);
  return item[by];
}

export function sortItems(items: readonly EvalRunItem[], by: SortKey, dir: SortDir): EvalRunItem[] {
  const sign = dir === "asc" ? 1 : -1;
  return [...items].sort((a, b) => {
    const ka = key(a, by);
    const kb = key(b, by);
    if (ka === null || kb === null) return ka === kb ? a.position - b.position : ka === null ? 1 : -1;
    const c = typeof ka === "string" ? ka.localeCompare(String(kb)) : ka - (kb as number);
    return c === 0 ? a.position - b.position : sign * c;
  });
}

export const parseSortKey = (v: string | null): SortKey =>
  (SORT_KEYS as readonly string[]).includes(v ?? "") ? (v as SortKey) : "position";
export const parseSortDir = (v: string | null): SortDir => (v === "desc" ? "desc" : "asc");
