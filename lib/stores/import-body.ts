import { MEMORY_LIMITS, MemoryBatchSchema, type ImportItemResult } from "./memory-schemas";

/** One item of an import body: the parsed value, or why its line could not be parsed. */
export type ImportLine = ({ value: unknown } | { error: string }) & {
  /** 1-based line in a JSON Lines body (blank lines count), so errors point into the file. */
  line?: number;
};

/**
 * Reads an import body: `{ "memories": [...] }` as JSON, or JSON Lines (one memory a line) when
 * the content type says so. A bad JSON line becomes a rejected item; the other lines still count.
 */
export function parseImportBody(
  text: string,
  contentType: string | null,
):
  | { ok: true; lines: ImportLine[]; store?: string }
  | { ok: false; status: 400 | 422; code: string; message: string; details?: Record<string, unknown> } {
  const jsonLines = /ndjson|jsonl|json-seq|x-jsonlines/i.test(contentType ?? "");
  if (jsonLines) {
    const lines = text
      .split(/\r?\n/)
      .map((content, i) => ({ content, line: i + 1 }))
      .filter(({ content }) => content.trim() !== "");
    if (lines.length === 0)
      return { ok: false, status: 422, code: "validation_failed", message: "The JSON Lines body has no lines." };
    if (lines.length > MEMORY_LIMITS.batch) {
      return {
        ok: false,
        status: 422,
        code: "validation_failed",
        message: `The body has ${lines.length} lines; at most ${MEMORY_LIMITS.batch} memories go in one request.`,
      };
    }
    return {
      ok: true,
      lines: lines.map(({ content, line }) => {
        try {
          return { value: JSON.parse(content) as unknown, line };
        } catch (error) {
          return { error: `line ${line} is not valid JSON: ${error instanceof Error ? error.message : String(error)}`, line };
        }
      }),
    };
  }
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch (error) {
    return {
      ok: false,
      status: 400,
      code: "bad_json",
      message: `The request body is not valid JSON: ${error instanceof Error ? error.message : String(error)}`,
    };
  }
  const parsed = MemoryBatchSchema.safeParse(body);
  if (!parsed.success) {
    return {
      ok: false,
      status: 422,
      code: "validation_failed",
      message: `Send { "memories": [ ... ] } with 1 to 10,000 items, or JSON Lines with Content-Type application/x-ndjson: ${parsed.error.issues[0]?.message ?? "invalid"}`,
      details: { issues: parsed.error.issues.map((i) => ({ path: i.path.map(String), message: i.message })) },
    };
  }
  return { ok: true, lines: parsed.data.memories.map((value) => ({ value })), store: parsed.data.store };
}

/**
 * Imports parsed lines with `add`, keeping every line's index: lines that were not JSON are
 * rejected here, the rest by `add`'s own per-item validation.
 */
export async function importLines(
  lines: readonly ImportLine[],
  add: (items: unknown[]) => Promise<{ results: ImportItemResult[] }>,
): Promise<{ results: ImportItemResult[]; created: number; rejected: number }> {
  const parsedAt: number[] = [];
  const values: unknown[] = [];
  lines.forEach((line, index) => {
    if ("value" in line) {
      parsedAt.push(index);
      values.push(line.value);
    }
  });
  const added = values.length > 0 ? await add(values) : { results: [] };
  const results: ImportItemResult[] = lines.map((line, index) =>
    "error" in line
      ? { index, line: line.line, status: "rejected", errors: [{ path: [], message: line.error }] }
      : (undefined as never),
  );
  added.results.forEach((result, i) => {
    const index = parsedAt[i]!;
    const line = lines[index]!.line;
    results[index] = { ...result, index, ...(line === undefined ? {} : { line }) };
  });
  const created = results.filter((r) => r.status === "created").length;
  return { results, created, rejected: results.length - created };
}
