import "server-only";
import type { PrismaClient } from "@prisma/client";
import { ApiError } from "@/lib/api/errors";
import { FitInputError, fitProfile } from "@/lib/calibration/fit";
import type { VerdictFitReport } from "@/lib/calibration/model";
import { profileFromInput } from "@/lib/calibration/profile";
import { HistoryFiltersSchema } from "@/lib/recall-log/history";
import type { FitBody } from "../schemas";
import { saveProfile } from "./index";
import { examplesFromRecalls, examplesFromRun, verdictFromLabels } from "./labeled";
import { priorSource } from "./store-calibration";

/** The labeled examples a fit asks for: an evaluation run's, or labeled recalls matching History filters. */
async function labeledExamples(prisma: PrismaClient, body: FitBody) {
  if ("run_id" in body) {
    return { loaded: await examplesFromRun(prisma, body.run_id), source: { kind: "fit" as const, run_id: body.run_id } };
  }
  const filters = HistoryFiltersSchema.safeParse(body.recall_filters);
  if (!filters.success) throw ApiError.validation(filters.error, "body");
  return {
    loaded: await examplesFromRecalls(prisma, filters.data),
    source: { kind: "fit" as const, recall_filters: body.recall_filters },
  };
}

/**
 * Fits a profile from labels: the reference-shaped thresholds (lib/calibration/fit) and the store's
 * verdict model on the same labels, leaning on the store's label-free examples while labels are
 * few; too few labels are marked, loudly. Saved together when the body names the profile.
 */
export async function fitFromLabels(prisma: PrismaClient, body: FitBody) {
  const { loaded, source } = await labeledExamples(prisma, body);
  let fit;
  try {
    fit = fitProfile(loaded.examples, { name: body.name ?? "fitted" });
  } catch (error) {
    if (error instanceof FitInputError)
      throw new ApiError(422, "not_enough_labels", error.message, { examples: loaded.examples.length, skipped: loaded.skipped });
    throw error;
  }
  const verdict = verdictFromLabels(loaded.examples, await priorSource(prisma, loaded.stores));
  const model = { ...verdict.fit.model, ...(verdict.warning ? { warning: verdict.warning } : {}) };
  let saved = null;
  if (body.name) {
    const { name: _n, ...thresholds } = fit.thresholds;
    const { balanced_accuracy, train_balanced_accuracy, folds } = fit.estimate;
    const profile = profileFromInput(
      { name: body.name, thresholds, pool_size: fit.pool_size, description: body.description ?? null },
      { ...source, fitted_at: new Date().toISOString(), estimate: { balanced_accuracy, train_balanced_accuracy, folds } },
    );
    saved = (await saveProfile(prisma, { ...profile, model })).profile;
  }
  const report: VerdictFitReport = {
    model,
    basis: verdict.basis,
    prior_note: verdict.prior_note,
    reliability: verdict.fit.reliability,
    apart: verdict.fit.apart,
    warning: verdict.warning,
  };
  return { ...fit, skipped: loaded.skipped, saved, verdict: report };
}
