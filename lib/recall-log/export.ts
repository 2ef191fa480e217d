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
import { Prisma, type PrismaClient, type Recall, type RecallCandidate } from "@prisma/client";
import { stringify } from "csv-stringify/sync";
import type { KeysetPosition } from "@/lib/pagination/keyset";
import type { HistoryFilters, HistoryItem } from "./history";
import { HISTORY_SELECT, toHistoryItem, type HistoryRow } from "./history-list";
import { historyWhereSql } from "./history-sql";
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

// ---------------------------------------------------------------------------------------------
// Reading: raw SQL over the History WHERE (history-sql.ts), one keyset page at a time. At a
// million recalls Prisma's row mapping costs more than the database (the what-if found the same);
// the columns are the Prisma model's own, named as its fields, so the rows are exactly what
// findMany answers and go through the same mapping (toRecallView, toHistoryItem).
// tests/recall-log/export-full.test.ts holds a line equal to GET /api/recalls/{id}.

const RECALL_FIELDS = Prisma.dmmf.datamodel.models.find((m) => m.name === "Recall")!.fields.filter((f) => f.kind === "scalar");
const UUID_FIELDS = new Set(["id", "evalRunId"]);
const DATE_FIELDS = RECALL_FIELDS.filter((f) => f.type === "DateTime").map((f) => f.name);

function columnsOf(names: ReadonlySet<string> | null): Prisma.Sql {
  const fields = names ? RECALL_FIELDS.filter((f) => names.has(f.name)) : RECALL_FIELDS;
  return Prisma.raw(
    fields.map((f) => `r."${f.dbName ?? f.name}"${UUID_FIELDS.has(f.name) ? "::text" : ""} AS "${f.name}"`).join(", "),
  );
}
const ALL_COLUMNS = columnsOf(null);
const HISTORY_COLUMNS = columnsOf(new Set(Object.keys(HISTORY_SELECT)));

/** Timestamps as Dates, whatever the driver handed back. */
function withDates<T extends Record<string, unknown>>(row: T): T {
  for (const name of DATE_FIELDS) {
    const value = row[name];
    if (value !== null && value !== undefined && !(value instanceof Date))
      (row as Record<string, unknown>)[name] = new Date(String(value));
  }
  return row;
}

async function rowsPage<T extends { id: string; createdAt: Date }>(
  prisma: PrismaClient,
  columns: Prisma.Sql,
  filters: HistoryFilters,
  cursor: KeysetPosition | undefined,
  size: number,
): Promise<{ rows: T[]; next: KeysetPosition | undefined }> {
  const rows = (
    await prisma.$queryRaw<T[]>(Prisma.sql`
      SELECT ${columns} FROM "recalls" AS r
      WHERE ${historyWhereSql({ ...filters, cursor }, "r")}
      ORDER BY r."created_at" DESC, r."id" DESC
      LIMIT ${size}`)
  ).map(withDates);
  const last = rows.at(-1);
  return { rows, next: rows.length === size && last ? { createdAt: last.createdAt, id: last.id } : undefined };
}

/** Whole recalls (with their candidates), newest first, one keyset page after `cursor`. */
async function fullPage(
  prisma: PrismaClient,
  filters: HistoryFilters,
  cursor: KeysetPosition | undefined,
  size: number,
): Promise<{ recalls: LoggedRecall[]; next: KeysetPosition | undefined }> {
  const { rows, next } = await rowsPage<Recall>(prisma, ALL_COLUMNS, filters, cursor, size);
  const withPool = rows.filter((r) => r.hasCandidates).map((r) => r.id);
  const candidates = new Map<string, RecallCandidate[]>();
  if (withPool.length > 0) {
    const list = await prisma.$queryRaw<RecallCandidate[]>(Prisma.sql`
      SELECT c."recall_id"::text AS "recallId", c."rank", c."memory_id" AS "memoryId", c."summary", c."raw_cosine" AS "rawCosine",
             c."keyword_score" AS "keywordScore", c."hybrid_score" AS "hybridScore", c."in_pool" AS "inPool", c."returned", c."dropped"
      FROM "recall_candidates" AS c WHERE c."recall_id" = ANY(${withPool}::uuid[])
      ORDER BY c."recall_id", c."rank"`);
    for (const c of list) {
      const mine = candidates.get(c.recallId);
      if (mine) mine.push(c);
      else candidates.set(c.recallId, [c]);
    }
  }
  return { recalls: rows.map((row) => toRecallView({ ...row, candidates: candidates.get(row.id) ?? [] })), next };
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
      const page = await rowsPage<HistoryRow>(prisma, HISTORY_COLUMNS, filters, cursor, pageSize ?? SUMMARY_PAGE);
      return { text: encodeExportPage(page.rows.map(toHistoryItem), "csv", first), next: page.next };
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
