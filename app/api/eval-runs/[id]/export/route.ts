import { z } from "zod";
import { ApiError } from "@/lib/api/errors";
import { apiRoutes } from "@/lib/api/route";
import { getPrisma } from "@/lib/db";
import { encodeRunItems } from "@/lib/eval/export";
import { evalRunReport } from "@/lib/eval/runs";

export const dynamic = "force-dynamic";

const Params = z.object({ id: z.uuid("a run id is a UUID") });
const Query = z.object({ format: z.enum(["csv", "jsonl"]).default("csv") });

export const { GET, POST, PUT, PATCH, DELETE } = apiRoutes({
  /** The report's per-query table as CSV or JSON Lines. */
  GET: {
    scope: "read",
    params: Params,
    query: Query,
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
