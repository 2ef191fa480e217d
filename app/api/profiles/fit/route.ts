import type { z } from "zod";
import { ApiError } from "@/lib/api/errors";
import { apiRoutes } from "@/lib/api/server/route";
import { FitInputError, fitProfile } from "@/lib/calibration/fit";
import type { VerdictFitReport } from "@/lib/calibration/model";
import { profileFromInput } from "@/lib/calibration/profile";
import { getPrisma } from "@/lib/db/server";
import { FitBodySchema } from "@/lib/profiles/schemas";
import { saveProfile } from "@/lib/profiles/server";
import { examplesFromRecalls, examplesFromRun, verdictFromLabels } from "@/lib/profiles/server/labeled";
import { priorSource } from "@/lib/profiles/server/store-calibration";

type FitBody = z.output<typeof FitBodySchema>;
import { HistoryFiltersSchema } from "@/lib/recall-log/history";

export const dynamic = "force-dynamic";

/**
 * Fits a profile from labels (an evaluation run, or labeled recalls matching History filters):
 * `{thresholds, pool_size, estimate: {balanced_accuracy, folds}, confusion, …}` and the store's
 * verdict model on the same labels under `verdict` (`{model, basis, prior_note, reliability, apart,
 * warning}`: its cross-validated balanced accuracy, AUC, Brier, ECE; `basis` says "N labels" or
 * "N labels + label-free prior (weight w)"; `warning` when a class has fewer than 20
 * labels), saved together when `name` is given.
 */
export const { GET, POST, PUT, PATCH, DELETE } = apiRoutes({
  POST: { scope: "full", body: FitBodySchema, handler: fit },
});

async function fit({ body }: { body: FitBody }) {
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
  // The store's verdict model on the same labels, leaning on the store's label-free
  // examples while labels are few; too few labels are marked, loudly.
  const verdict = verdictFromLabels(loaded.examples, await priorSource(prisma, loaded.stores));
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
    verdict: {
      model,
      basis: verdict.basis,
      prior_note: verdict.prior_note,
      reliability: verdict.fit.reliability,
      apart: verdict.fit.apart,
      warning: verdict.warning,
    } satisfies VerdictFitReport,
  };
}
