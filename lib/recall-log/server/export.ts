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
import { z } from "zod";
import type { KeysetPosition } from "@/lib/pagination/keyset";
import { HistoryFiltersSchema, type HistoryFilters, type HistoryItem } from "../history";
import { HISTORY_SELECT, toHistoryItem, type HistoryRow } from "./history-list";
import { historyWhereSql } from "./history-sql";
import { labelsFromColumns } from "../labels";
import { displayPage } from "../page";
import { loggedCandidates, loggedPage, toRecallView } from "./repository";
import type { LoggedRecall } from "../types";

export const EXPORT_FORMATS = ["csv", "jsonl", "candidates"] as const;
export type ExportFormat = (typeof EXPORT_FORMATS)[number];

/** `GET /api/recalls/export`: the history filters and `format`. */
export const RecallExportQuerySchema = z.intersection(
  HistoryFiltersSchema,
  z.object({ format: z.enum(EXPORT_FORMATS, `format takes ${EXPORT_FORMATS.join(", ")}`).default("csv") }),
);

/** Rows fetched per page while streaming: memory stays flat however large the history. */
const SUMMARY_PAGE = 1_000;
/** Whole recalls (with their candidates) per page. */
const FULL_PAGE = 500;

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

/** What the per-candidate CSV reads of a recall. */
export type CandidateSource = Pick<
  LoggedRecall,
  "id" | "created_at" | "store" | "request" | "results" | "dropped_results" | "candidates" | "labels"
>;

/** The per-candidate rows of one recall (pure). */
export function candidateRows(recall: CandidateSource): (string | number | boolean | null)[][] {
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
export function encodeCandidatePage(recalls: readonly CandidateSource[], first: boolean): string {
  return stringify(recalls.flatMap(candidateRows), { header: first, columns: [...CANDIDATE_COLUMNS], ...CSV_OPTIONS });
}

// ---------------------------------------------------------------------------------------------
// Reading: raw SQL over the History WHERE (history-sql.ts), one keyset page at a time. At a
// million recalls Prisma's row mapping costs more than the database (the what-if found the same);
// the columns are the Prisma model's own, named as its fields, so the rows are exactly what
// findMany answers and go through the same mapping (toRecallView, toHistoryItem).
// tests/recall-log/export-full.test.ts holds a line equal to GET /api/recalls/{id}.
//
// A page of whole recalls is ONE statement: each row carries its candidates as a JSON array
// (json_agg in rank order, a correlated read of the candidates' primary key), so a page costs one
// round trip and reads recalls and candidates from the same snapshot — a recall logged while the
// export runs cannot shift the page between two queries. While a page is encoded the next one is
// already being read (exportStream), so the database and the encoding overlap.

const RECALL_FIELDS = Prisma.dmmf.datamodel.models.find((m) => m.name === "Recall")!.fields.filter((f) => f.kind === "scalar");
const UUID_FIELDS = new Set(["id", "evalRunId"]);
const DATE_FIELDS = RECALL_FIELDS.filter((f) => f.type === "DateTime").map((f) => f.name);

function columnsOf(names: ReadonlySet<string> | null): Prisma.Sql {
  const fields = names ? RECALL_FIELDS.filter((f) => names.has(f.name)) : RECALL_FIELDS;
  return Prisma.raw(
    fields.map((f) => `r."${f.dbName ?? f.name}"${UUID_FIELDS.has(f.name) ? "::text" : ""} AS "${f.name}"`).join(", "),
  );
}
const HISTORY_COLUMNS = columnsOf(new Set(Object.keys(HISTORY_SELECT)));
/** Every column, and the candidates as `[rank, memory_id, summary, raw_cosine, keyword_score, hybrid_score, in_pool, returned, dropped]` rows. */
const FULL_COLUMNS = Prisma.sql`${columnsOf(null)}, CASE WHEN r."has_candidates" THEN (
    SELECT json_agg(json_build_array(c."rank", c."memory_id", c."summary", c."raw_cosine", c."keyword_score",
      c."hybrid_score", c."in_pool", c."returned", c."dropped") ORDER BY c."rank")
    FROM "recall_candidates" AS c WHERE c."recall_id" = r."id") END AS "candidateList"`;

type CandidateTuple = [number, string, string, number | null, number | null, number | null, boolean, boolean, boolean];
type FullRow = Recall & { candidateList: CandidateTuple[] | string | null };

/** Timestamps as Dates, whatever the driver handed back. */
function withDates<T extends Record<string, unknown>>(row: T): T {
  for (const name of DATE_FIELDS) {
    const value = row[name];
    if (value !== null && value !== undefined && !(value instanceof Date))
      (row as Record<string, unknown>)[name] = new Date(String(value));
  }
  return row;
}

interface RowsPage<T> {
  rows: T[];
  next: KeysetPosition | undefined;
}

async function rowsPage<T extends { id: string; createdAt: Date }>(
  prisma: PrismaClient,
  columns: Prisma.Sql,
  filters: HistoryFilters,
  cursor: KeysetPosition | undefined,
  size: number,
): Promise<RowsPage<T>> {
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

/** A row with its candidates as the Prisma model's own (`Recall & { candidates }`). */
function withCandidates(row: FullRow): Recall & { candidates: RecallCandidate[] } {
  const { candidateList, ...recall } = row;
  const list = (typeof candidateList === "string" ? JSON.parse(candidateList) : (candidateList ?? [])) as CandidateTuple[];
  const num = (value: number | string | null) => (value === null ? null : Number(value));
  return {
    ...recall,
    candidates: list.map(([rank, memoryId, summary, rawCosine, keywordScore, hybridScore, inPool, returned, dropped]) => ({
      recallId: recall.id,
      rank,
      memoryId,
      summary,
      rawCosine: num(rawCosine),
      keywordScore: num(keywordScore),
      hybridScore: num(hybridScore),
      inPool,
      returned,
      dropped,
    })),
  };
}

/** What the per-candidate CSV needs of a row: the view without what it derives for display (k sensitivity, notices). */
function candidateSource(row: Recall & { candidates: RecallCandidate[] }): CandidateSource {
  const candidates = loggedCandidates(row);
  return {
    id: row.id,
    created_at: row.createdAt.toISOString(),
    store: row.store,
    request: row.request as unknown as LoggedRecall["request"],
    ...loggedPage(row, candidates),
    candidates,
    labels: labelsFromColumns(row),
  };
}

const HEADER: Record<ExportFormat, string> = {
  csv: `${EXPORT_COLUMNS.join(",")}\n`,
  candidates: `${CANDIDATE_COLUMNS.join(",")}\n`,
  jsonl: "",
};

/** One page of a format: how it is read and how it is written. */
interface ExportReader<T> {
  read(cursor: KeysetPosition | undefined): Promise<RowsPage<T>>;
  encode(rows: readonly T[], first: boolean): string;
}

function summaryReader(prisma: PrismaClient, filters: HistoryFilters, pageSize: number): ExportReader<HistoryRow> {
  return {
    read: (cursor) => rowsPage<HistoryRow>(prisma, HISTORY_COLUMNS, filters, cursor, pageSize),
    encode: (rows, first) => encodeExportPage(rows.map(toHistoryItem), "csv", first),
  };
}

function fullReader(
  prisma: PrismaClient,
  filters: HistoryFilters,
  format: "jsonl" | "candidates",
  pageSize: number,
): ExportReader<FullRow> {
  return {
    read: (cursor) => rowsPage<FullRow>(prisma, FULL_COLUMNS, filters, cursor, pageSize),
    encode: (rows, first) =>
      format === "jsonl"
        ? rows.map((row) => recallLine(toRecallView(withCandidates(row)))).join("")
        : encodeCandidatePage(
            rows.map((row) => candidateSource(withCandidates(row))),
            first,
          ),
  };
}

/**
 * The filtered history, newest first, as a stream that reads one keyset page at a time and the
 * next while it writes the current one (two pages at most in memory; the stream pulls only when
 * its reader has taken the last chunk). The first page is read before the stream is handed back,
 * so a filter the database refuses (or a database that is down) fails the request with a status
 * in the envelope instead of cutting a stream that already answered 200.
 */
export async function exportStream(
  prisma: PrismaClient,
  filters: HistoryFilters,
  format: ExportFormat,
  pageSize?: number,
): Promise<ReadableStream<Uint8Array>> {
  return format === "csv"
    ? streamPages(summaryReader(prisma, filters, pageSize ?? SUMMARY_PAGE), HEADER.csv)
    : streamPages(fullReader(prisma, filters, format, pageSize ?? FULL_PAGE), HEADER[format]);
}

async function streamPages<T>(reader: ExportReader<T>, header: string): Promise<ReadableStream<Uint8Array>> {
  const encoder = new TextEncoder();
  const ahead = (page: RowsPage<T>): Promise<RowsPage<T>> | null => {
    if (!page.next) return null;
    const next = reader.read(page.next);
    // Awaited by the next pull; a stream cancelled before then must not leave it unhandled.
    next.catch(() => {});
    return next;
  };
  let page = await reader.read(undefined);
  let next = ahead(page);
  let first = true;
  return new ReadableStream({
    async pull(controller) {
      // A CSV with no rows still gets its header.
      const text = reader.encode(page.rows, first) || (first ? header : "");
      if (text) controller.enqueue(encoder.encode(text));
      first = false;
      if (!next) {
        controller.close();
        return;
      }
      page = await next;
      next = ahead(page);
    },
    cancel() {
      next = null;
    },
  });
}
