import { apiRoutes } from "@/lib/api/server/route";
import { getPrisma } from "@/lib/db/server";
import { FitBodySchema } from "@/lib/profiles/schemas";
import { fitFromLabels } from "@/lib/profiles/server/fit";

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
  POST: {
    scope: "full",
    body: FitBodySchema,
    handler: async ({ body }) => fitFromLabels(await getPrisma(), body),
  },
});
