/** The audit's classes and modes in words (pure; the page and its test share them). */
import type { AuditClass, AuditResult } from "@/lib/audit/types";

export const CLASS_WORDS: Record<AuditClass, { label: string; means: string }> = {
  unreachable: { label: "Unreachable", means: "No probe of its own put it on the page in at least one mode." },
  shadowed: { label: "Shadowed", means: "A near-duplicate outranked it on its own probes." },
  always_buried: { label: "Always buried", means: "A candidate in logged recalls, never on their page." },
  always_dropped: { label: "Always dropped", means: "On the page of logged recalls, removed by the selector every time." },
  never_recalled: { label: "Never recalled", means: "In no logged recall of the window." },
};

/** "3 of 200 memories flagged", for the results line. */
export function flaggedLine(result: Pick<AuditResult, "findings" | "memories">): string {
  const n = result.findings.length;
  return `${n.toLocaleString("en")} of ${result.memories.toLocaleString("en")} ${result.memories === 1 ? "memory" : "memories"} flagged`;
}

/** The store a memory link opens (the default store needs no parameter, but naming it is harmless). */
export function memoryHref(store: string, id: string): string {
  return `/memories/${encodeURIComponent(id)}?store=${encodeURIComponent(store)}`;
}

export function recallWhyHref(recallId: string, memoryId: string): string {
  return `/recalls/${encodeURIComponent(recallId)}?why=${encodeURIComponent(memoryId)}`;
}
