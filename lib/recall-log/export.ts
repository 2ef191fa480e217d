import type { PrismaClient } from "@prisma/client";
import { stringify } from "csv-stringify/sync";
import { decodeHistoryCursor, listRecalls, type HistoryCursor, type HistoryFilters, type HistoryItem } from "./history";

export type ExportFormat = "csv" | "jsonl";

/** Rows fetched per page while streaming: memory stays flat however large the history. */
const EXPORT_PAGE = 1_000;

export const EXPORT_COLUMNS: readonly (keyof HistoryItem)[] = [
  "id",
  "created_at",
  "source",
  "store",
  "query",
  "k",
  "search_mode",
  "status",
  "level",
  "top_score",
  // returned_count is the page the agent got (kept rows); the selector counts beside it.
  "prominence",
  "returned_count",
  "selector_applied",
  "selector_model",
  "selector_kept",
  "selector_dropped",
  "selector_reason",
  "top_dropped",
  "latency_ms",
  "has_candidates",
  // Relevance labels; the id lists are JSON arrays in one cell (ids may hold commas and spaces).
  "label_present",
  "label_relevant",
  "label_not_relevant",
  "labeler",
  "labeled_at",
];

/** One page of the export as text. CSV cells starting with = + - @ are neutralized (a leading '), numbers excepted. */
export function encodeExportPage(items: readonly HistoryItem[], format: ExportFormat, first: boolean): string {
  if (format === "jsonl") return items.map((item) => JSON.stringify(item)).join("\n") + (items.length ? "\n" : "");
  return stringify(
    items.map((item) =>
      EXPORT_COLUMNS.map((column) => {
        const value = item[column];
        return Array.isArray(value) ? JSON.stringify(value) : value;
      }),
    ),
    {
      header: first,
      columns: EXPORT_COLUMNS as string[],
      escape_formulas: true,
      cast: { boolean: (b) => (b ? "true" : "false") },
    },
  );
}

/**
 * The filtered history, newest first, as a stream that reads one keyset page at a time. The
 * first page is read before the stream is handed back, so a filter the database refuses (or a
 * database that is down) fails the request with a status in the envelope instead of cutting a
 * stream that already answered 200.
 */
export async function exportStream(
  prisma: PrismaClient,
  filters: HistoryFilters,
  format: ExportFormat,
  pageSize = EXPORT_PAGE,
): Promise<ReadableStream<Uint8Array>> {
  const encoder = new TextEncoder();
  const read = (cursor: HistoryCursor | undefined) => listRecalls(prisma, { ...filters, limit: pageSize, cursor });
  let page = await read(undefined);
  let first = true;
  return new ReadableStream({
    async pull(controller) {
      const current = page;
      const text = encodeExportPage(current.items, format, first);
      // A CSV with no rows still gets its header.
      if (text || first) controller.enqueue(encoder.encode(text || (format === "csv" ? `${EXPORT_COLUMNS.join(",")}\n` : "")));
      first = false;
      const cursor = current.next_cursor ? (decodeHistoryCursor(current.next_cursor) ?? undefined) : undefined;
      if (!cursor) {
        controller.close();
        return;
      }
      page = await read(cursor);
    },
  });
}
