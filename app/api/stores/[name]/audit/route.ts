import { NextResponse } from "next/server";
import { ApiError } from "@/lib/api/errors";
import { apiRoutes } from "@/lib/api/server/route";
import { auditCsv } from "@/lib/audit/csv";
import { auditStatus, cancelAudit, startAudit } from "@/lib/audit/server/jobs";
import { AuditQuerySchema, AuditStartBodySchema } from "@/lib/audit/types";
import { getPrisma } from "@/lib/db/server";
import { StoreParamsSchema } from "@/lib/stores/store-schemas";

export const dynamic = "force-dynamic";

export const { GET, POST, PUT, PATCH, DELETE } = apiRoutes({
  /**
   * Starts a reachability audit of the store in the background (lib/audit/README.md
   * "Reachability audit"): 202 with its state. A remote store needs `confirm_calls`.
   */
  POST: {
    scope: "full",
    params: StoreParamsSchema,
    body: AuditStartBodySchema,
    handler: async ({ params, body }) => {
      const status = await startAudit(await getPrisma(), params.name, body);
      return NextResponse.json(status, { status: 202 });
    },
  },
  /**
   * State, progress and the last result (`?result=0`: without the result, for polling;
   * `?format=csv`: the last result's findings as CSV).
   */
  GET: {
    scope: "read",
    params: StoreParamsSchema,
    query: AuditQuerySchema,
    handler: async ({ params, query }) => {
      const withResult = query.format === "csv" || query.result === "1";
      const status = await auditStatus(await getPrisma(), params.name, { withResult });
      if (query.format === "json") return status;
      if (!status.result) throw ApiError.notFound(`An audit result of store "${params.name}"`);
      return new Response(auditCsv(status.result), {
        headers: {
          "content-type": "text/csv; charset=utf-8",
          "content-disposition": `attachment; filename="audit-${encodeURIComponent(params.name)}.csv"`,
          "cache-control": "no-store",
        },
      });
    },
  },
  /** Cancels the running audit; the last finished result stays. */
  DELETE: {
    scope: "full",
    params: StoreParamsSchema,
    handler: async ({ params }) => cancelAudit(await getPrisma(), params.name),
  },
});
