import { z } from "zod";
import { ApiError } from "@/lib/api/errors";
import { apiRoute, methodNotAllowed } from "@/lib/api/route";
import { FitInputError, fitProfile } from "@/lib/calibration/fit";
import { profileFromInput, ProfileNameSchema } from "@/lib/calibration/profile";
import { getPrisma } from "@/lib/db";
import { saveProfile } from "@/lib/profiles";
import { examplesFromRecalls, examplesFromRun, verdictFromLabels } from "@/lib/profiles/labeled";
import { HISTORY_FILTER_KEYS, HistoryFiltersSchema } from "@/lib/recall-log/history";
import { replaceBadText, withInputRules } from "@/lib/validation/input-rules";

export const dynamic = "force-dynamic";

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

// The one input rule over every text and the filters' depth (docs/ARCHITECTURE.md "Bad input").
const FitBody = withInputRules(
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

/**
 * Fits a profile from labels (an evaluation run, or labeled recalls matching History filters):
 * `{thresholds, pool_size, estimate: {balanced_accuracy, folds}, confusion, …}` and the store's
 * verdict model on the same labels under `verdict` (`{model, reliability, apart, warning}`: its
 * cross-validated balanced accuracy, AUC, Brier, ECE; `warning` when a class has fewer than 20
 * labels), saved together when `name` is given.
 */
export const POST = apiRoute({ body: FitBody }, async ({ body }) => {
  const prisma = await getPrisma();
  let source;
  let loaded;
  if ("run_id" in body) {
    loaded = await examplesFromRun(prisma, body.run_id);
    source = { kind: "fit" as const, run_id: body.run_id };
  } else {
    const filters = HistoryFiltersSchema.safeParse(body.recall_filters);
    if (!filters.success) throw ApiError.validation(filters.error, "body");
    loaded = await examplesFromRecalls(prisma, filters.data);
    source = { kind: "fit" as const, recall_filters: body.recall_filters };
  }
  let fit;
  try {
    fit = fitProfile(loaded.examples, { name: body.name ?? "fitted" });
  } catch (error) {
    if (error instanceof FitInputError) {
      throw new ApiError(422, "not_enough_labels", error.message, { examples: loaded.examples.length, skipped: loaded.skipped });
    }
    throw error;
  }
  // The store's verdict model on the same labels (issue 30); too few labels are marked, loudly.
  const verdict = verdictFromLabels(loaded.examples);
  const model = { ...verdict.fit.model, ...(verdict.warning ? { warning: verdict.warning } : {}) };
  let saved = null;
  if (body.name) {
    const { name: _n, ...thresholds } = fit.thresholds;
    const profile = profileFromInput(
      { name: body.name, thresholds, pool_size: fit.pool_size, description: body.description ?? null },
      {
        ...source,
        fitted_at: new Date().toISOString(),
        estimate: {
          balanced_accuracy: fit.estimate.balanced_accuracy,
          train_balanced_accuracy: fit.estimate.train_balanced_accuracy,
          folds: fit.estimate.folds,
        },
      },
    );
    saved = (await saveProfile(prisma, { ...profile, model })).profile;
  }
  return {
    ...fit,
    skipped: loaded.skipped,
    saved,
    verdict: { model, reliability: verdict.fit.reliability, apart: verdict.fit.apart, warning: verdict.warning },
  };
});

// Other methods answer 405 in the envelope.
export const GET = methodNotAllowed(["POST"]);
export const PUT = methodNotAllowed(["POST"]);
export const PATCH = methodNotAllowed(["POST"]);
export const DELETE = methodNotAllowed(["POST"]);
