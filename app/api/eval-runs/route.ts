import { ApiError } from "@/lib/api/errors";
import { apiRoutes } from "@/lib/api/server/route";
import { EvalRunBodySchema, EvalRunListQuerySchema } from "@/lib/eval/run-schemas";
import { evalDeps } from "@/lib/eval/server/deps";
import { listEvalRuns, SelectorUnavailableError, startEvalRun, UnknownProfileError } from "@/lib/eval/server/runs";

export const dynamic = "force-dynamic";

export const { GET, POST, PUT, PATCH, DELETE } = apiRoutes({
  /** Evaluation runs, newest first (`?dataset_id=` for one set's). */
  GET: {
    scope: "read",
    query: EvalRunListQuerySchema,
    handler: async ({ query }) => ({
      runs: await listEvalRuns((await evalDeps()).prisma, { datasetId: query.dataset_id }),
    }),
  },
  /** Starts a run in the background: `{dataset_id, store, k, search_mode, selector, profile?}` → `{id, status}`. */
  POST: {
    scope: "full",
    body: EvalRunBodySchema,
    handler: async ({ body }) => {
      const started = await startEvalRun(await evalDeps(), body).catch((error: unknown) => {
        if (error instanceof UnknownProfileError)
          throw new ApiError(422, "unknown_profile", error.message, { profile: error.profile });
        if (error instanceof SelectorUnavailableError)
          throw new ApiError(422, "selector_unavailable", error.message, { selector: error.selector, hint: error.hint });
        throw error;
      });
      if (!started) throw ApiError.notFound(`Set ${body.dataset_id}`);
      return Response.json(started, { status: 202 });
    },
  },
});
