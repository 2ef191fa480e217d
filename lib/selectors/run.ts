/** Helpers shared by the strategies: page checks, timing, and the two kinds of run. */
import { selectorApplied, selectorNotApplied } from "@/lib/recall/selector-block";
import type { SelectorInput, SelectorReason, SelectorRun, SelectorTrace, SelectorUsage } from "./types";

/** Milliseconds since `started` (a `performance.now()` reading), 2 decimals. */
export function elapsedMs(started: number): number {
  return Math.round((performance.now() - started) * 100) / 100;
}

/**
 * Why a page cannot be selected from, or null when it can: an empty page has nothing to select
 * (`empty_page`); a page with an empty or repeated id cannot name what to keep (`invalid_page`).
 */
export function pageProblem(page: SelectorInput["page"]): { reason: SelectorReason; detail: string } | null {
  if (page.length === 0) return { reason: "empty_page", detail: "The page has no results." };
  const seen = new Set<string>();
  for (const [i, item] of page.entries()) {
    const id = item.memory_id;
    if (typeof id !== "string" || id.length === 0) {
      return { reason: "invalid_page", detail: `Result ${i + 1} has no memory_id.` };
    }
    if (seen.has(id)) return { reason: "invalid_page", detail: `The id "${id}" is on the page twice.` };
    seen.add(id);
  }
  return null;
}

interface RunExtra {
  detail?: string;
  usage?: SelectorUsage;
  trace?: SelectorTrace;
}

/** A not-applied run (the strategy did not run, or failed): the page stays whole. */
export function notAppliedRun(
  model: string | undefined,
  page: SelectorInput["page"],
  reason: SelectorReason,
  started: number,
  extra: RunExtra = {},
): SelectorRun {
  return {
    block: selectorNotApplied(reason),
    ...(model ? { model } : {}),
    keptIds: page.map((item) => item.memory_id),
    ...(extra.usage ? { usage: extra.usage } : {}),
    latency_ms: elapsedMs(started),
    ...(extra.detail ? { detail: extra.detail } : {}),
    ...(extra.trace ? { trace: extra.trace } : {}),
  };
}

/**
 * An applied run (the strategy ran, whatever it dropped, none included): the kept ids come back
 * in page order whatever order `kept` had.
 */
export function appliedRun(
  model: string,
  page: SelectorInput["page"],
  kept: ReadonlySet<string>,
  started: number,
  extra: RunExtra = {},
): SelectorRun {
  const pageIds = page.map((item) => item.memory_id);
  const block = selectorApplied({ model, page: pageIds, keptIds: kept });
  return {
    block,
    model,
    keptIds: pageIds.filter((id) => kept.has(id)),
    ...(extra.usage ? { usage: extra.usage } : {}),
    latency_ms: elapsedMs(started),
    ...(extra.detail ? { detail: extra.detail } : {}),
    ...(extra.trace ? { trace: extra.trace } : {}),
  };
}
