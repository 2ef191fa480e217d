import { z } from "zod";
import { SearchModeSchema } from "@/lib/recall/schemas";
import { withInputRules } from "@/lib/validation/input-rules";

/** Selector choices: off, the offline score-gap heuristic, an LLM (lib/selectors). */
export const SelectorChoiceSchema = z.enum(["off", "gap", "llm"]);

export const RecallFiltersInputSchema = z.strictObject({
  types: z.array(z.string().min(1).max(50)).max(20).optional(),
  tags: z.array(z.string().min(1).max(64)).max(50).optional(),
  tags_match: z.enum(["any", "all"]).optional(),
});

/**
 * The run settings a recall takes: one home for the console's body and an evaluation run's
 * (`lib/eval/run-schemas.ts`), so k and the rest are refused alike on both pages.
 */
export const RecallSettingsShape = {
  /** Absent: the default embedded store (`demo` when it exists, else the oldest; README "HTTP API"). */
  store: z.string().trim().min(1).max(100).optional(),
  k: z.number().int().min(1).max(100).default(5),
  search_mode: SearchModeSchema.default("hybrid"),
  use_rerank: z.boolean().default(false),
  selector: SelectorChoiceSchema.default("off"),
};

/** The body of `POST /api/recall` (README "HTTP API"); the console form validates with the same schema. */
export const RecallBodySchema = withInputRules(
  z.strictObject({
    // In the order the log has always stored the request's keys.
    store: RecallSettingsShape.store,
    query: z
      .string()
      .max(8000, "query is longer than 8000 characters")
      .refine((q) => q.trim().length > 0, "query is empty"),
    k: RecallSettingsShape.k,
    // Unset leaves the mode to the store: the embedded store runs hybrid, a memory service picks
    // (hybrid, or its query router's lane), so the console does not override its routing.
    search_mode: SearchModeSchema.optional(),
    // Unset is the store's setting (lib/recall/README.md "Explaining a ranking"): the embedded store
    // does not rerank, a memory service applies its context's, as the reference service does.
    use_rerank: z.boolean().optional(),
    selector: RecallSettingsShape.selector,
    filters: RecallFiltersInputSchema.optional(),
  }),
);
export type RecallBody = z.output<typeof RecallBodySchema>;
export type RecallBodyInput = z.input<typeof RecallBodySchema>;

/** The path of `/api/recalls/{id}…`. */
export const RecallParamsSchema = z.object({ id: z.uuid("a recall id is a UUID") });
/** `GET /api/recalls/{id}/why?memory_id=`. */
export const RecallWhyQuerySchema = z.object({ memory_id: z.string().min(1, "memory_id is required").max(200) });
/** `POST /api/recalls/retention`: delete (or count, `dry_run`) recalls older than `keep_days`. */
export const RetentionBodySchema = withInputRules(
  z.strictObject({
    keep_days: z.number().int().min(1).max(36_500),
    dry_run: z.boolean().default(false),
  }),
);
