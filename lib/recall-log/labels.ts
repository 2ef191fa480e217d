/**
 * Relevance labels on a logged recall: did the recall surface a relevant memory (yes / no /
 * unsure), and which of its results and candidates are relevant. A person gives them after the
 * fact (the console, the recall page; `PUT /api/recalls/{id}/labels`); evaluation and threshold
 * fitting read them back.
 *
 * Client-safe and pure: the body schema (shared by the route and the label controls), the merge
 * a save performs (the server does it in one UPDATE, the browser to show a save before it is
 * confirmed), and the check that every labeled id belongs to the recall.
 */
import { z } from "zod";
import { withInputRules } from "@/lib/validation/input-rules";

export const PRESENT_LABELS = ["yes", "no", "unsure"] as const;
export type PresentLabel = (typeof PRESENT_LABELS)[number];

/** The labels of one recall as the API answers them (every field null/empty when unlabeled). */
export interface RecallLabels {
  /** A relevant memory was present among the results and candidates; null: not labeled. */
  present: PresentLabel | null;
  /** Per memory id: relevant (true) or not relevant (false). Unlabeled ids are absent. */
  results: Record<string, boolean>;
  /** Who saved last, when they gave a name. */
  labeler: string | null;
  /** When a label was last saved (ISO 8601); null while the recall carries no label. */
  labeled_at: string | null;
}

export const EMPTY_LABELS: RecallLabels = Object.freeze({
  present: null,
  results: {},
  labeler: null,
  labeled_at: null,
}) as RecallLabels;

export const LABELER_MAX_CHARS = 100;
/** More than any recall has results and candidates (k ≤ 100, pools of a few hundred). */
export const MAX_LABELED_IDS = 2_000;

/**
 * The body of `PUT /api/recalls/{id}/labels`. Every field is optional and only what is sent
 * changes: `present: null` clears the present label, `results: {id: null}` clears one memory's
 * label and leaves the others, `labeler: null` (or "") forgets the name. Every text (the labeler,
 * each memory id) passes the one input rule (docs/ARCHITECTURE.md "Bad input").
 */
export const LabelsPatchSchema = withInputRules(
  z
    .strictObject({
      present: z.enum(PRESENT_LABELS, "present is one of yes, no, unsure (or null to clear it)").nullable().optional(),
      results: z
        .record(z.string(), z.boolean("a result label is true (relevant), false (not relevant) or null (clear it)").nullable())
        // Keys checked here rather than by the record's key schema, whose message would be "Invalid key in record".
        .refine((r) => Object.keys(r).every((id) => id.length > 0), "a memory id is empty")
        .refine((r) => Object.keys(r).every((id) => id.length <= 200), "a memory id is longer than 200 characters")
        .refine((r) => Object.keys(r).length <= MAX_LABELED_IDS, `at most ${MAX_LABELED_IDS} memory ids per save`)
        .optional(),
      labeler: z
        .string()
        .trim()
        .max(LABELER_MAX_CHARS, `labeler is longer than ${LABELER_MAX_CHARS} characters`)
        .transform((name) => (name === "" ? null : name))
        .nullable()
        .optional(),
    })
    .refine((p) => p.present !== undefined || p.results !== undefined || p.labeler !== undefined, {
      message: "send at least one of present, results, labeler",
    }),
);

export type LabelsPatch = z.output<typeof LabelsPatchSchema>;

/** The ids a recall can be labeled on: its results and its recorded candidates. */
export function labelableIds(recall: {
  results: readonly { memory_id: string }[];
  candidates: readonly { memory_id: string }[] | null;
}): Set<string> {
  const ids = new Set<string>();
  for (const r of recall.results) ids.add(r.memory_id);
  for (const c of recall.candidates ?? []) ids.add(c.memory_id);
  return ids;
}

/** The ids of a patch that are neither results nor candidates of the recall, in the order sent. */
export function unknownLabelIds(patch: Pick<LabelsPatch, "results">, allowed: ReadonlySet<string>): string[] {
  return Object.keys(patch.results ?? {}).filter((id) => !allowed.has(id));
}

/**
 * The labels after a save: what the server's UPDATE computes, and what the browser shows while a
 * save is in flight. `labeled_at` is `now` when any label remains, else null.
 */
export function mergeLabels(current: RecallLabels, patch: LabelsPatch, now: string): RecallLabels {
  const present = patch.present === undefined ? current.present : patch.present;
  const results: Record<string, boolean> = { ...current.results };
  for (const [id, value] of Object.entries(patch.results ?? {})) {
    if (value === null) delete results[id];
    else results[id] = value;
  }
  const labeler = patch.labeler === undefined ? current.labeler : patch.labeler;
  const labeled = present !== null || Object.keys(results).length > 0;
  return { present, results, labeler, labeled_at: labeled ? now : null };
}

/** Two saves as one (the later wins per field and per id): what the browser sends after a save in flight. */
export function combinePatches(first: LabelsPatch, then: LabelsPatch): LabelsPatch {
  const combined: LabelsPatch = { ...first };
  if (then.present !== undefined) combined.present = then.present;
  if (then.labeler !== undefined) combined.labeler = then.labeler;
  if (first.results !== undefined || then.results !== undefined) combined.results = { ...first.results, ...then.results };
  return combined;
}

/** The stored columns → the wire shape. Anything the columns hold that is not a label is ignored. */
export function labelsFromColumns(row: {
  labelPresent: string | null;
  labelResults: unknown;
  labeler: string | null;
  labeledAt: Date | null;
}): RecallLabels {
  const present = (PRESENT_LABELS as readonly string[]).includes(row.labelPresent ?? "")
    ? (row.labelPresent as PresentLabel)
    : null;
  const results: Record<string, boolean> = {};
  if (row.labelResults && typeof row.labelResults === "object" && !Array.isArray(row.labelResults)) {
    for (const [id, value] of Object.entries(row.labelResults as Record<string, unknown>)) {
      if (typeof value === "boolean") results[id] = value;
    }
  }
  return { present, results, labeler: row.labeler, labeled_at: row.labeledAt ? row.labeledAt.toISOString() : null };
}

/** Ids labeled relevant (true), in the order given by `order` first (e.g. rank), then the rest sorted. */
export function relevantIds(results: Record<string, boolean>, order: readonly string[] = []): string[] {
  const relevant = new Set(
    Object.entries(results)
      .filter(([, v]) => v)
      .map(([id]) => id),
  );
  const ranked = order.filter((id) => relevant.has(id));
  const seen = new Set(ranked);
  return [...ranked, ...[...relevant].filter((id) => !seen.has(id)).sort()];
}

const PRESENT_WORDS: Record<PresentLabel, string> = { yes: "Relevant present", no: "Nothing relevant", unsure: "Unsure" };

/** The present label in words ("Not labeled" when there is none). */
export function presentWord(present: PresentLabel | null): string {
  return present === null ? "Not labeled" : PRESENT_WORDS[present];
}

// ---------------------------------------------------------------------------------------------
// The label controls (console and recall page): which rows they offer and what each key does.

export interface LabelRow {
  memory_id: string;
  summary: string | null;
  /** 1-based position on the page for a result; the pool rank for a candidate outside it. */
  position: number;
  kind: "result" | "dropped" | "candidate";
}

/** Results in page order (dropped ones marked), then the candidates outside the page by rank; each id once. */
export function labelRows(recall: {
  results: readonly { memory_id: string; summary: string; dropped?: boolean }[];
  candidates: readonly { memory_id: string; summary: string | null; rank: number; returned: boolean; dropped: boolean }[] | null;
}): LabelRow[] {
  const rows: LabelRow[] = [];
  const seen = new Set<string>();
  const dropped = new Set((recall.candidates ?? []).filter((c) => c.dropped).map((c) => c.memory_id));
  recall.results.forEach((r, i) => {
    if (seen.has(r.memory_id)) return;
    seen.add(r.memory_id);
    rows.push({
      memory_id: r.memory_id,
      summary: r.summary,
      position: i + 1,
      kind: r.dropped || dropped.has(r.memory_id) ? "dropped" : "result",
    });
  });
  for (const c of [...(recall.candidates ?? [])].sort((a, b) => a.rank - b.rank)) {
    if (seen.has(c.memory_id)) continue;
    seen.add(c.memory_id);
    rows.push({ memory_id: c.memory_id, summary: c.summary, position: c.rank, kind: "candidate" });
  }
  return rows;
}

/** A row's label after one press of its number key: unlabeled → relevant → not relevant → unlabeled. */
export function cycleResultLabel(current: boolean | undefined): boolean | null {
  if (current === undefined) return true;
  return current ? false : null;
}

export type LabelShortcut =
  | { action: "present"; value: PresentLabel }
  | { action: "toggle_row"; index: number }
  | { action: "row"; value: boolean | null }
  | { action: "move"; by: 1 | -1 };

/**
 * The label shortcut of a key press, or null when the key is not one (or belongs to a text field
 * or carries a modifier). `inRow`: the focus is inside a labeled row (r / x / c and the arrows act
 * on it there).
 */
export function labelShortcut(
  key: string,
  context: { editable: boolean; modifier: boolean; inRow: boolean },
): LabelShortcut | null {
  if (context.editable || context.modifier) return null;
  switch (key.length === 1 ? key.toLowerCase() : key) {
    case "y":
      return { action: "present", value: "yes" };
    case "n":
      return { action: "present", value: "no" };
    case "u":
      return { action: "present", value: "unsure" };
  }
  if (/^[1-9]$/.test(key)) return { action: "toggle_row", index: Number(key) - 1 };
  if (!context.inRow) return null;
  switch (key.length === 1 ? key.toLowerCase() : key) {
    case "r":
      return { action: "row", value: true };
    case "x":
      return { action: "row", value: false };
    case "c":
    case "Backspace":
    case "Delete":
      return { action: "row", value: null };
    case "ArrowDown":
    case "j":
      return { action: "move", by: 1 };
    case "ArrowUp":
    case "k":
      return { action: "move", by: -1 };
  }
  return null;
}
