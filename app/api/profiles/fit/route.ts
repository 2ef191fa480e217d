import { z } from "zod";
import { ApiError } from "@/lib/api/errors";
import { apiRoute, methodNotAllowed } from "@/lib/api/route";
import { FitInputError, fitProfile } from "@/lib/calibration/fit";
import { profileFromInput, ProfileNameSchema } from "@/lib/calibration/profile";
import { getPrisma } from "@/lib/db";
import { saveProfile } from "@/lib/profiles";
import { examplesFromRecalls, examplesFromRun } from "@/lib/profiles/labeled";
import { HistoryFiltersSchema } from "@/lib/recall-log/history";

export const dynamic = "force-dynamic";

const FitBody = z.union([
  z.strictObject({
    run_id: z.uuid("run_id is an evaluation run's id"),
    name: ProfileNameSchema.optional(),
    description: z.string().max(2000).optional(),
  }),
  z.strictObject({
    recall_filters: z.record(z.string(), z.unknown()),
    name: ProfileNameSchema.optional(),
    description: z.string().max(2000).optional(),
  }),
]);

/**
 * Fits a profile from labels (an evaluation run, or labeled recalls matching History filters):
 * `{thresholds, pool_size, estimate: {balanced_accuracy, folds}, confusion, …}`, saved when
 * `name` is given.
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
    saved = (await saveProfile(prisma, profile)).profile;
  }
  return { ...fit, skipped: loaded.skipped, saved };
});

// Other methods answer 405 in the envelope.
export const GET = methodNotAllowed(["POST"]);
export const PUT = methodNotAllowed(["POST"]);
export const PATCH = methodNotAllowed(["POST"]);
export const DELETE = methodNotAllowed(["POST"]);
