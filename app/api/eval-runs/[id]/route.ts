import { ApiError } from "@/lib/api/errors";
import { apiRoutes } from "@/lib/api/server/route";
import { getPrisma } from "@/lib/db/server";
import { EvalRunParamsSchema } from "@/lib/eval/run-schemas";
import { evalRunReport } from "@/lib/eval/server/runs";

export const dynamic = "force-dynamic";

export const { GET, POST, PUT, PATCH, DELETE } = apiRoutes({
  /** A run: status, progress, settings, metrics over the queries done so far, and its items. */
  GET: {
    scope: "read",
    params: EvalRunParamsSchema,
    handler: async ({ params }) => {
      const report = await evalRunReport(await getPrisma(), params.id);
      if (!report) throw ApiError.notFound(`Evaluation run ${params.id}`);
      return report;
    },
  },
});
