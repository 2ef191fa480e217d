import { NextResponse } from "next/server";
import { apiRoutes } from "@/lib/api/server/route";
import { getPrisma } from "@/lib/db/server";
import { HistoryQuerySchema } from "@/lib/recall-log/history";
import { listRecalls } from "@/lib/recall-log/server/history-list";
import { INGEST_LIMITS, IngestBodySchema, ingestRecalls } from "@/lib/recall-log/server/ingest";
import { deletedStoresAmong } from "@/lib/stores/server/registry";

export const dynamic = "force-dynamic";

export const { GET, POST, PUT, PATCH, DELETE } = apiRoutes({
  /**
   * The recall history: filtered, newest first, one keyset page at a time (`{ items, next_cursor,
   * deleted_stores }`, the last naming the page's stores that were deleted since).
   */
  GET: {
    scope: "read",
    query: HistoryQuerySchema,
    handler: async ({ query }) => {
      const page = await listRecalls(await getPrisma(), query);
      return { ...page, deleted_stores: await deletedStoresAmong(page.items.map((item) => item.store)) };
    },
  },
  /**
   * Ingests recalls captured elsewhere: `{ recalls: [{ external_id?, store, request, response,
   * candidates?, latency_ms?, created_at? }] }`. Per-item results (accepted / duplicate / rejected
   * with reasons); idempotent on `external_id`; 201 when anything was accepted.
   */
  POST: {
    scope: "ingest",
    body: IngestBodySchema,
    maxBodyBytes: INGEST_LIMITS.bodyBytes,
    handler: async ({ body }) => {
      const outcome = await ingestRecalls(await getPrisma(), body.recalls);
      return NextResponse.json(outcome, { status: outcome.accepted > 0 ? 201 : 200 });
    },
  },
});
