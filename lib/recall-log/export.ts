/**
 * Exports of the filtered history (`GET /api/recalls/export`, README "HTTP API"), streamed one
 * keyset page at a time so a million recalls leave memory flat (`npm run bench -- export`):
 *
 * - `csv`: one row per recall, the History columns (`EXPORT_COLUMNS`);
 * - `jsonl`: one line per recall with everything the log holds, exactly what
 *   `GET /api/recalls/{id}` answers (`LoggedRecall`: request, results and dropped results,
 *   candidates with every score, confidence with its trace, selector block and trace, labels),
 *   so a line reads back into the recall's own view;
 * - `candidates`: CSV, one row per candidate of every recall (`CANDIDATE_COLUMNS`) — per retrieved
 *   document, as trace tools export them. A recall whose store exposed no pool contributes the
 *   rows of its page (`from_pool` false, no per-arm scores).
 */
import type { PrismaClient } from "@prisma/client";
import { stringify } from "csv-stringify/sync";
import type { KeysetPosition } from "@/lib/pagination/keyset";
import {
  historyWhere,
  listRecalls,
  decodeHistoryCursor,
  type HistoryCursor,
  type HistoryFilters,
  type HistoryItem,
} from "./history";
import { displayPage } from "./page";
import { toRecallView } from "./repository";
import type { LoggedRecall } from "./types";

export const EXPORT_FORMATS = ["csv", "jsonl", "candidates"] as const;
export type ExportFormat = (typeof EXPORT_FORMATS)[number];

/** Rows fetched per page while streaming: memory stays flat however large the history. */
const SUMMARY_PAGE = 1_000;
/** Whole recalls (with their candidates) per page. */
const FULL_PAGE = 200;

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
  "basis",
  "profile_name",
  "profile_level",
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

/** The per-candidate CSV's columns. */
export const CANDIDATE_COLUMNS = [
  "recall_id",
  "created_at",
  "store",
  "query",
  "search_mode",
  "rank",
  "memory_id",
  "raw_cosine",
  "bm25",
  "hybrid",
  /** The score the store answered for the row (the page's `score`), when it was on the page. */
  "score",
  /** Counted in confidence (the first candidates of the merged list). */
  "in_pool",
  /** On the page the store answered (before the selector). */
  "returned",
  /** Removed from that page by the selector. */
  "dropped",
  /** The person's label for this memory in this recall: true, false, or empty when not labeled. */
  "relevant",
  /** false: the store exposed no pool; the row is from the page as answered. */
  "from_pool",
] as const;

const CSV_OPTIONS = { escape_formulas: true, cast: { boolean: (b: boolean) => (b ? "true" : "false") } } as const;

/** One page of the summary export as text. CSV cells starting with = + - @ are neutralized (a leading '), numbers excepted. */
export function encodeExportPage(items: readonly HistoryItem[], format: "csv" | "jsonl", first: boolean): string {
  if (format === "jsonl") return items.map((item) => JSON.stringify(item)).join("\n") + (items.length ? "\n" : "");
  return stringify(
    items.map((item) =>
      EXPORT_COLUMNS.map((column) => {
        const value = item[column];
        return Array.isArray(value) ? JSON.stringify(value) : value;
      }),
    ),
    { header: first, columns: EXPORT_COLUMNS as string[], ...CSV_OPTIONS },
  );
}

/** A recall as its JSON Line: the `LoggedRecall` of `GET /api/recalls/{id}`. */
export function recallLine(recall: LoggedRecall): string {
  return `${JSON.stringify(recall)}\n`;
}

/** The per-candidate rows of one recall (pure). */
export function candidateRows(recall: LoggedRecall): (string | number | boolean | null)[][] {
  const labels = recall.labels?.results ?? {};
  const relevant = (id: string) => (Object.hasOwn(labels, id) ? labels[id]! : null);
  const base = [recall.id, recall.created_at, recall.store, recall.request?.query ?? "", recall.request?.search_mode ?? ""];
  if (recall.candidates) {
    const pageScore = new Map(
      [...recall.results, ...recall.dropped_results].map((r) => [r.memory_id, typeof r.score === "number" ? r.score : null]),
    );
    return recall.candidates.map((c) => [
      ...base,
      c.rank,
      c.memory_id,
      c.raw_cosine,
      c.keyword_score,
      c.hybrid_score,
      pageScore.get(c.memory_id) ?? null,
      c.in_pool,
      c.returned,
      c.dropped ?? false,
      relevant(c.memory_id),
      true,
    ]);
  }
  return displayPage(recall).map((r, i) => [
    ...base,
    r.rank ?? i + 1,
    r.memory_id,
    null,
    null,
    null,
    typeof r.score === "number" ? r.score : null,
    null,
    true,
    r.dropped,
    relevant(r.memory_id),
    false,
  ]);
}

/** One page of the per-candidate CSV. */
export function encodeCandidatePage(recalls: readonly LoggedRecall[], first: boolean): string {
  return stringify(recalls.flatMap(candidateRows), { header: first, columns: [...CANDIDATE_COLUMNS], ...CSV_OPTIONS });
}

/** Whole recalls, newest first, one keyset page after `cursor`. */
async function fullPage(
  prisma: PrismaClient,
  filters: HistoryFilters,
  cursor: KeysetPosition | undefined,
  size: number,
): Promise<{ recalls: LoggedRecall[]; next: KeysetPosition | undefined }> {
  const rows = await prisma.recall.findMany({
    where: historyWhere({ ...filters, cursor }),
    orderBy: [{ createdAt: "desc" }, { id: "desc" }],
    take: size,
    include: { candidates: { orderBy: { rank: "asc" } } },
  });
  const last = rows.at(-1);
  return {
    recalls: rows.map(toRecallView),
    next: rows.length === size && last ? { createdAt: last.createdAt, id: last.id } : undefined,
  };
}

const HEADER: Record<ExportFormat, string> = {
  csv: `${EXPORT_COLUMNS.join(",")}\n`,
  candidates: `${CANDIDATE_COLUMNS.join(",")}\n`,
  jsonl: "",
};

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
  pageSize?: number,
): Promise<ReadableStream<Uint8Array>> {
  const encoder = new TextEncoder();
  type Page = { text: string; next: KeysetPosition | undefined };
  const read = async (cursor: KeysetPosition | undefined, first: boolean): Promise<Page> => {
    if (format === "csv") {
      const page = await listRecalls(prisma, { ...filters, limit: pageSize ?? SUMMARY_PAGE, cursor: cursor as HistoryCursor });
      const next = page.next_cursor ? (decodeHistoryCursor(page.next_cursor) ?? undefined) : undefined;
      return { text: encodeExportPage(page.items, "csv", first), next };
    }
    const page = await fullPage(prisma, filters, cursor, pageSize ?? FULL_PAGE);
    const text = format === "jsonl" ? page.recalls.map(recallLine).join("") : encodeCandidatePage(page.recalls, first);
    return { text, next: page.next };
  };
  let page = await read(undefined, true);
  let first = true;
  return new ReadableStream({
    async pull(controller) {
      const current = page;
      // A CSV with no rows still gets its header.
      const text = current.text || (first ? HEADER[format] : "");
      if (text) controller.enqueue(encoder.encode(text));
      first = false;
      if (!current.next) {
        controller.close();
        return;
      }
      page = await read(current.next, false);
    },
  });
}
