/**
 * The LLM selector block: what the recall selector did to the returned page (docs/reference-rules.md "The selector block").
 *
 * One rule (lib/selectors/README.md "Selector truth"):
 * - a selector that **ran** is `applied: true`, with `model`, `kept` (results left), `dropped`
 *   (results removed, possibly 0: keeping the whole page is a judgement too) and
 *   `dropped_memory_ids` (the first ≤ 20 dropped ids, in page order);
 * - `applied: false` only when it **did not run or failed**, with only a `reason` from the one
 *   list in ./selector-reasons.ts; the page is then the unselected one;
 * - unset keys are omitted when serialized.
 *
 * `dropped` is a count in its own right: it is never derived from the capped id list.
 */
import { z } from "zod";
import { nullish } from "@/lib/validation/tolerant";
import { issuesFromZod, RecallInputError, summarize, type RecallIssue } from "./errors";
import { isSelectorReason, SELECTOR_REASONS, type SelectorReason } from "./selector-reasons";

/** At most this many dropped ids are listed. */
export const MAX_DROPPED_IDS = 20;

export interface SelectorApplied {
  applied: true;
  model: string;
  kept: number;
  dropped: number;
  dropped_memory_ids: string[];
}

export interface SelectorNotApplied {
  applied: false;
  reason: string;
}

/** A complete block, as this dashboard produces it. */
export type SelectorBlock = SelectorApplied | SelectorNotApplied;

/** A block decoded from another service: any key other than `applied` may be missing. */
export type IngestedSelectorBlock =
  | { applied: true; model?: string; kept?: number; dropped?: number; dropped_memory_ids?: string[] }
  | { applied: false; reason?: string };

function invalid(issues: RecallIssue[]): never {
  throw new RecallInputError("invalid_selector", summarize("Invalid selector block", issues), issues);
}

/**
 * The block for a selector that ran: `kept`/`dropped` counted over the page, the dropped ids
 * listed in page order and capped at 20.
 *
 * @param page the ids of the unselected page, in rank order (unique).
 * @param keptIds the ids the selector kept; each must be on the page.
 */
export function selectorApplied(args: { model: string; page: readonly string[]; keptIds: Iterable<string> }): SelectorApplied {
  const issues: RecallIssue[] = [];
  if (typeof args.model !== "string" || args.model.trim().length === 0) {
    issues.push({ path: ["model"], message: "must be a non-empty string" });
  }
  const onPage = new Set<string>();
  args.page.forEach((id, i) => {
    if (typeof id !== "string" || id.length === 0) issues.push({ path: ["page", i], message: "must be a non-empty string" });
    else if (onPage.has(id)) issues.push({ path: ["page", i], message: `duplicate id "${id}"` });
    else onPage.add(id);
  });
  const kept = new Set<string>();
  for (const id of args.keptIds) {
    if (!onPage.has(id)) issues.push({ path: ["kept_ids"], message: `"${String(id)}" is not on the page` });
    else kept.add(id);
  }
  if (issues.length > 0) invalid(issues);
  const droppedIds = args.page.filter((id) => !kept.has(id));
  return {
    applied: true,
    model: args.model,
    kept: args.page.length - droppedIds.length,
    dropped: droppedIds.length,
    dropped_memory_ids: droppedIds.slice(0, MAX_DROPPED_IDS),
  };
}

/**
 * The block for a selector that did not run or failed: `reason` must be on the one list
 * (./selector-reasons.ts), so what this dashboard writes can always be put in plain words.
 */
export function selectorNotApplied(reason: SelectorReason): SelectorNotApplied {
  if (!isSelectorReason(reason)) {
    invalid([{ path: ["reason"], message: `must be one of ${SELECTOR_REASONS.join(", ")}, got ${JSON.stringify(reason)}` }]);
  }
  return { applied: false, reason };
}

const count = z.number().int().min(0);
const idList = z.array(z.string().min(1)).max(MAX_DROPPED_IDS);

/** The strict contract: exactly these keys, no extras. */
export const SelectorBlockSchema = z.discriminatedUnion("applied", [
  z
    .strictObject({
      applied: z.literal(true),
      model: z.string().min(1),
      kept: count,
      dropped: count,
      dropped_memory_ids: idList,
    })
    .superRefine((b, ctx) => {
      if (b.dropped_memory_ids.length !== Math.min(b.dropped, MAX_DROPPED_IDS)) {
        ctx.addIssue({
          code: "custom",
          path: ["dropped_memory_ids"],
          message: `must list the first min(dropped, ${MAX_DROPPED_IDS}) = ${Math.min(b.dropped, MAX_DROPPED_IDS)} dropped ids, got ${b.dropped_memory_ids.length}`,
        });
      }
      if (new Set(b.dropped_memory_ids).size !== b.dropped_memory_ids.length) {
        ctx.addIssue({ code: "custom", path: ["dropped_memory_ids"], message: "ids must be unique" });
      }
    }),
  z.strictObject({ applied: z.literal(false), reason: z.string().min(1) }),
]);

/**
 * Serializes a block to its wire form, enforcing the contract: the applied form has exactly
 * `applied, model, kept, dropped, dropped_memory_ids`; the other exactly `applied, reason`.
 * @throws RecallInputError (`invalid_selector`)
 */
export function serializeSelector(block: SelectorBlock): SelectorBlock {
  const source: Record<string, unknown> = { ...block };
  // Keys explicitly set to undefined count as unset.
  for (const key of Object.keys(source)) if (source[key] === undefined) delete source[key];
  const parsed = SelectorBlockSchema.safeParse(source);
  if (!parsed.success) invalid(issuesFromZod(parsed.error.issues));
  const b = parsed.data;
  return b.applied
    ? { applied: true, model: b.model, kept: b.kept, dropped: b.dropped, dropped_memory_ids: [...b.dropped_memory_ids] }
    : { applied: false, reason: b.reason };
}

/**
 * Tolerant decoder for a block from another service (the reference's selector is newer than
 * its API description): missing and null keys are alike, unknown keys are ignored, and the id
 * list may be shorter than `dropped` (it is capped). Still rejected: a missing or non-boolean
 * `applied`, wrong types, negative counts, more than 20 ids, or more ids than `dropped`.
 * Keys that belong to the other form (e.g. `reason` with `applied: true`) are dropped.
 */
export const SelectorWireSchema = z
  .looseObject({
    applied: z.boolean({ error: "must be a boolean" }),
    model: nullish(z.string()),
    kept: nullish(count),
    dropped: nullish(count),
    dropped_memory_ids: nullish(idList),
    reason: nullish(z.string()),
  })
  .superRefine((b, ctx) => {
    const ids = b.dropped_memory_ids;
    if (b.applied && ids !== undefined && b.dropped !== undefined && ids.length > b.dropped) {
      ctx.addIssue({
        code: "custom",
        path: ["dropped_memory_ids"],
        message: `lists ${ids.length} ids but dropped is ${b.dropped}`,
      });
    }
  })
  .transform((b): IngestedSelectorBlock => {
    if (!b.applied) return b.reason === undefined ? { applied: false } : { applied: false, reason: b.reason };
    const out: IngestedSelectorBlock = { applied: true };
    if (b.model !== undefined) out.model = b.model;
    if (b.kept !== undefined) out.kept = b.kept;
    if (b.dropped !== undefined) out.dropped = b.dropped;
    if (b.dropped_memory_ids !== undefined) out.dropped_memory_ids = b.dropped_memory_ids;
    return out;
  });

/**
 * Decodes an ingested selector block. `null`/`undefined` (the block is optional) → null.
 * The result has no undefined-valued keys, so it is already in serialized form.
 * @throws RecallInputError (`invalid_selector`)
 */
export function parseSelector(raw: unknown): IngestedSelectorBlock | null {
  if (raw === null || raw === undefined) return null;
  const parsed = SelectorWireSchema.safeParse(raw);
  if (!parsed.success) invalid(issuesFromZod(parsed.error.issues));
  return parsed.data;
}

/** True when the block is complete (every key of its form present). */
export function isCompleteSelector(block: IngestedSelectorBlock): block is SelectorBlock {
  if (!block.applied) return block.reason !== undefined;
  return (
    block.model !== undefined && block.kept !== undefined && block.dropped !== undefined && block.dropped_memory_ids !== undefined
  );
}
