/**
 * The bodies of the profile routes that read History's filters (fit, what-if), shared by the
 * routes and their forms (lib/calibration/README.md "Threshold profiles"). Client-safe: zod only.
 */
import { z } from "zod";
import { PoolSizeSchema, ProfileNameSchema } from "@/lib/calibration/profile";
import { ThresholdsOverrideSchema } from "@/lib/recall/thresholds";
import { HISTORY_FILTER_KEYS, HistoryFiltersSchema } from "@/lib/recall-log/history";
import { replaceBadText, withInputRules } from "@/lib/validation/input-rules";

/** `/api/profiles/{name}`. */
export const ProfileParamsSchema = z.object({ name: z.string().min(1).max(64) });

/**
 * History's filters as the fit takes them: only History's keys (a typo is not saved as if it
 * filtered), each value as History's own schema reads it, so what is saved in the profile's
 * source is a filter History can open.
 */
const RecallFiltersInput = z.record(z.string(), z.unknown()).superRefine((filters, ctx) => {
  const known: readonly string[] = HISTORY_FILTER_KEYS;
  const unknown = Object.keys(filters).filter((key) => !known.includes(key));
  if (unknown.length > 0) {
    const named = unknown.slice(0, 5).map((key) => JSON.stringify(replaceBadText(key).slice(0, 40)));
    ctx.addIssue({
      code: "custom",
      message: `takes History's filters (${known.join(", ")}), not ${named.join(", ")}${unknown.length > 5 ? ", …" : ""}`,
    });
    return;
  }
  const parsed = HistoryFiltersSchema.safeParse(filters);
  if (!parsed.success) for (const issue of parsed.error.issues) ctx.addIssue({ ...issue, code: "custom", input: undefined });
});

/** `POST /api/profiles/fit`; the one input rule over every text and the filters' depth (docs/ARCHITECTURE.md "Bad input"). */
export const FitBodySchema = withInputRules(
  z.union([
    z.strictObject({
      run_id: z.uuid("run_id is an evaluation run's id"),
      name: ProfileNameSchema.optional(),
      description: z.string().max(2000).optional(),
    }),
    z.strictObject({
      recall_filters: RecallFiltersInput,
      name: ProfileNameSchema.optional(),
      description: z.string().max(2000).optional(),
    }),
  ]),
);

/** `POST /api/what-if`; the filters' unknown keys are checked by the input rule too. */
export const WhatIfBodySchema = withInputRules(
  z
    .strictObject({
      profile: z.string().min(1).max(64).optional(),
      thresholds: ThresholdsOverrideSchema.omit({ name: true }).optional(),
      pool_size: PoolSizeSchema.optional(),
      filters: z.record(z.string(), z.unknown()).default({}),
    })
    .refine((b) => b.profile !== undefined || b.thresholds !== undefined, {
      message: "give a profile, thresholds, or both (thresholds edit the profile's constants)",
      path: ["profile"],
    }),
);
export type WhatIfBody = z.output<typeof WhatIfBodySchema>;
export type FitBody = z.output<typeof FitBodySchema>;

/**
 * `POST /api/profiles`: any JSON, read and checked by profileFromInput (lib/calibration/profile.ts),
 * which holds the profile's schema and the band-order rules in one place.
 */
export const ProfileBodySchema = z.unknown();
