import { z } from "zod";
import { apiRoutes } from "@/lib/api/route";
import { getPrisma } from "@/lib/db";
import { EXPORT_FORMATS, exportStream } from "@/lib/recall-log/export";
import { HistoryFiltersSchema } from "@/lib/recall-log/history";

export const dynamic = "force-dynamic";

const ExportQuery = z.intersection(
  HistoryFiltersSchema,
  z.object({ format: z.enum(EXPORT_FORMATS, `format takes ${EXPORT_FORMATS.join(", ")}`).default("csv") }),
);

export const { GET, POST, PUT, PATCH, DELETE } = apiRoutes({
  /**
   * The filtered history, streamed page by page (`?format=` plus the history filters): `csv` one row
   * per recall, `jsonl` every recall whole (as `GET /api/recalls/{id}`), `candidates` a CSV with one
   * row per candidate.
   */
  GET: {
    scope: "read",
    query: ExportQuery,
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
