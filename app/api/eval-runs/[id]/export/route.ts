import { ApiError } from "@/lib/api/errors";
import { apiRoutes } from "@/lib/api/server/route";
import { getPrisma } from "@/lib/db/server";
import { encodeRunItems } from "@/lib/eval/export";
import { EvalRunExportQuerySchema, EvalRunParamsSchema } from "@/lib/eval/run-schemas";
import { evalRunReport } from "@/lib/eval/server/runs";

export const dynamic = "force-dynamic";

export const { GET, POST, PUT, PATCH, DELETE } = apiRoutes({
  /** The report's per-query table as CSV or JSON Lines. */
  GET: {
    scope: "read",
    params: EvalRunParamsSchema,
    query: EvalRunExportQuerySchema,
    handler: async ({ params, query }) => {
      const report = await evalRunReport(await getPrisma(), params.id);
      if (!report) throw ApiError.notFound(`Evaluation run ${params.id}`);
      return new Response(encodeRunItems(report.items, query.format), {
        headers: {
          "content-type": query.format === "csv" ? "text/csv; charset=utf-8" : "application/x-ndjson; charset=utf-8",
          "content-disposition": `attachment; filename="eval-run-${params.id.slice(0, 8)}.${query.format}"`,
          "cache-control": "no-store",
        },
      });
    },
  },
});
