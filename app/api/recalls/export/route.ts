import { z } from "zod";
import { apiRoute, methodNotAllowed } from "@/lib/api/route";
import { getPrisma } from "@/lib/db";
import { exportStream } from "@/lib/recall-log/export";
import { HistoryFiltersSchema } from "@/lib/recall-log/history";

export const dynamic = "force-dynamic";

const ExportQuery = z.intersection(HistoryFiltersSchema, z.object({ format: z.enum(["csv", "jsonl"]).default("csv") }));

/** The filtered history as CSV or JSON Lines, streamed page by page (`?format=csv|jsonl` plus the history filters). */
export const GET = apiRoute({ query: ExportQuery }, async ({ query }) => {
  const { format, ...filters } = query;
  const stamp = new Date().toISOString().slice(0, 19).replace(/[:T]/g, "-");
  return new Response(await exportStream(await getPrisma(), filters, format), {
    headers: {
      "content-type": format === "csv" ? "text/csv; charset=utf-8" : "application/x-ndjson; charset=utf-8",
      "content-disposition": `attachment; filename="recalls-${stamp}.${format}"`,
      "cache-control": "no-store",
    },
  });
});

// Other methods answer 405 in the envelope.
export const POST = methodNotAllowed(["GET"]);
export const PUT = methodNotAllowed(["GET"]);
export const PATCH = methodNotAllowed(["GET"]);
export const DELETE = methodNotAllowed(["GET"]);
