import { NextResponse } from "next/server";
import { ApiError } from "@/lib/api/errors";
import { apiRoute, methodNotAllowed } from "@/lib/api/route";
import { auditCsv } from "@/lib/audit/csv";
import { auditStatus, cancelAudit, startAudit } from "@/lib/audit/server/jobs";
import { AuditQuerySchema, AuditStartBodySchema } from "@/lib/audit/types";
import { getPrisma } from "@/lib/db";
import { StoreParamsSchema } from "@/lib/stores/store-schemas";

export const dynamic = "force-dynamic";

/**
 * Starts a reachability audit of the store in the background (docs/ARCHITECTURE.md
 * "Reachability audit"): 202 with its state. A remote store needs `confirm_calls`.
 */
export const POST = apiRoute({ params: StoreParamsSchema, body: AuditStartBodySchema }, async ({ params, body }) => {
  const status = await startAudit(await getPrisma(), params.name, body);
  return NextResponse.json(status, { status: 202 });
});

/** State, progress and the last result (`?format=csv`: the last result's findings as CSV). */
export const GET = apiRoute({ params: StoreParamsSchema, query: AuditQuerySchema }, async ({ params, query }) => {
  const status = await auditStatus(await getPrisma(), params.name);
  if (query.format === "json") return status;
  if (!status.result) throw ApiError.notFound(`An audit result of store "${params.name}"`);
  return new Response(auditCsv(status.result), {
    headers: {
      "content-type": "text/csv; charset=utf-8",
      "content-disposition": `attachment; filename="audit-${encodeURIComponent(params.name)}.csv"`,
      "cache-control": "no-store",
    },
  });
});

/** Cancels the running audit; the last finished result stays. */
export const DELETE = apiRoute({ params: StoreParamsSchema }, async ({ params }) => cancelAudit(await getPrisma(), params.name));

// Other methods answer 405 in the envelope.
export const PUT = methodNotAllowed(["GET", "POST", "DELETE"]);
export const PATCH = methodNotAllowed(["GET", "POST", "DELETE"]);
