import { apiRoutes } from "@/lib/api/server/route";
import { getPrisma } from "@/lib/db/server";
import { exportStream, RecallExportQuerySchema } from "@/lib/recall-log/server/export";

export const dynamic = "force-dynamic";

export const { GET, POST, PUT, PATCH, DELETE } = apiRoutes({
  /**
   * The filtered history, streamed page by page (`?format=` plus the history filters): `csv` one row
   * per recall, `jsonl` every recall whole (as `GET /api/recalls/{id}`), `candidates` a CSV with one
   * row per candidate.
   */
  GET: {
    scope: "read",
    query: RecallExportQuerySchema,
    handler: async ({ query }) => {
      const { format, ...filters } = query;
      const stamp = new Date().toISOString().slice(0, 19).replace(/[:T]/g, "-");
      return new Response(await exportStream(await getPrisma(), filters, format), {
        headers: {
          "content-type": format === "jsonl" ? "application/x-ndjson; charset=utf-8" : "text/csv; charset=utf-8",
          "content-disposition": `attachment; filename="${format === "candidates" ? "candidates" : "recalls"}-${stamp}.${format === "jsonl" ? "jsonl" : "csv"}"`,
          "cache-control": "no-store",
        },
      });
    },
  },
});
