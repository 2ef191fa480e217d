/**
 * Labeled recalls → the items of a labeled query set (History's "Create set"). Pure and
 * client-safe: the page builds the items from the rows it selected and posts them.
 *
 * An item is `{query, relevant}`, `relevant` being the memory ids labeled relevant, empty when a
 * person said nothing relevant was present. A recall says nothing usable when it is unlabeled,
 * labeled unsure, or labeled present without any memory marked relevant (which id would a run
 * look for?); those are skipped with the reason, never guessed.
 */
import type { PresentLabel } from "./labels";

export interface LabeledRecallInput {
  id: string;
  query: string;
  label_present: PresentLabel | null;
  /** Memory ids labeled relevant. */
  label_relevant: readonly string[];
}

export interface LabeledSetItem {
  query: string;
  relevant: string[];
}

export type SkipReason = "unlabeled" | "unsure" | "present_without_relevant" | "duplicate";

export interface LabeledSetDraft {
  items: LabeledSetItem[];
  /** The recalls that gave no item, and why, in input order. */
  skipped: { id: string; query: string; reason: SkipReason }[];
}

export const SKIP_REASON_TEXT: Record<SkipReason, string> = {
  unlabeled: "not labeled",
  unsure: "labeled unsure",
  present_without_relevant: "labeled present but no memory marked relevant",
  duplicate: "the same query with the same relevant ids is already in the set",
};

/**
 * One item per usable recall, in input order, relevant ids sorted. Present = no gives `relevant: []` whatever rows were
 * marked (the person said none of them is); no present label but some rows marked relevant counts
 * as present. Identical items (same query text, same relevant ids) are kept once.
 */
export function labeledSetItems(recalls: readonly LabeledRecallInput[]): LabeledSetDraft {
  const items: LabeledSetItem[] = [];
  const skipped: LabeledSetDraft["skipped"] = [];
  const seen = new Set<string>();
  for (const recall of recalls) {
    const skip = (reason: SkipReason) => skipped.push({ id: recall.id, query: recall.query, reason });
    let relevant: string[];
    if (recall.label_present === "unsure") {
      skip("unsure");
      continue;
    }
    if (recall.label_present === "no") relevant = [];
    // Sorted: relevance is a set, and the store hands labels back in its own key order
    // (PostgreSQL's jsonb sorts keys by length), so input order would differ by database.
    else if (recall.label_relevant.length > 0) relevant = [...new Set(recall.label_relevant)].sort();
    else {
      skip(recall.label_present === "yes" ? "present_without_relevant" : "unlabeled");
      continue;
    }
    const key = JSON.stringify([recall.query, relevant]);
    if (seen.has(key)) {
      skip("duplicate");
      continue;
    }
    seen.add(key);
    items.push({ query: recall.query, relevant });
  }
  return { items, skipped };
}
