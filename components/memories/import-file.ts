import type { ImportBody } from "@/lib/queries/use-memories";
import type { ImportItemResult } from "@/lib/stores/memory-schemas";
import { MEMORY_LIMITS, MemoryInputSchema } from "@/lib/stores/memory-schemas";
import { parseForm } from "@/lib/validation/form-messages";

/** The API refuses bodies over 32 MB (413); a file that large is refused before it is read. */
export const MAX_IMPORT_BYTES = 32_000_000;

export type ImportFormat = "json" | "jsonl";

export type PreparedImport =
  | {
      ok: true;
      format: ImportFormat;
      body: ImportBody;
      /** How many items the request carries (non-blank lines for JSON Lines). */
      count: number;
      /** Where item `i` of the request sits in the file: "Line 7" or "Item 3". */
      positions: string[];
      /**
       * Items the server will reject whatever else happens — a line that is not JSON, an item the
       * memory schema refuses — found before sending, so the preview counts them as errors.
       */
      problems: ItemProblem[];
    }
  | { ok: false; message: string };

export interface ItemProblem {
  position: string;
  messages: string[];
}

/** How the preview's messages name an item's fields. */
const LABELS = { summary: "summary", content: "content", type: "type", tags: "tag", importance: "importance", id: "id" };

/** Why an item will be rejected (the schema the API validates with), or null when it looks fine. */
function itemProblem(position: string, item: unknown): ItemProblem | null {
  const parsed = parseForm(MemoryInputSchema, item, LABELS);
  return parsed.success ? null : { position, messages: parsed.messages };
}

export function importFormatOf(fileName: string): ImportFormat | null {
  const lower = fileName.toLowerCase();
  if (lower.endsWith(".jsonl") || lower.endsWith(".ndjson")) return "jsonl";
  if (lower.endsWith(".json")) return "json";
  return null;
}

/**
 * Turns a file into the request POST /api/memories takes. JSON Lines go as they are (the
 * server reads one memory a line, skips blank lines and reports each item's file line). JSON is `{ "memories": [...] }` or a bare array, which is wrapped.
 */
export function prepareImport(fileName: string, rawText: string): PreparedImport {
  const format = importFormatOf(fileName);
  if (!format) return { ok: false, message: `${fileName} is not a .json, .jsonl or .ndjson file.` };
  const text = rawText.replace(/^\uFEFF/, "");
  const tooMany = (n: number) =>
    `${fileName} holds ${n.toLocaleString("en-US")} memories; at most ${MEMORY_LIMITS.batch.toLocaleString("en-US")} go in one import. Split it into smaller files.`;

  if (format === "jsonl") {
    const positions: string[] = [];
    const problems: ItemProblem[] = [];
    text.split(/\r?\n/).forEach((line, i) => {
      if (line.trim() === "") return;
      const position = `Line ${i + 1}`;
      positions.push(position);
      if (positions.length > MEMORY_LIMITS.batch) return;
      let item: unknown;
      try {
        item = JSON.parse(line);
      } catch (error) {
        problems.push({ position, messages: [`not valid JSON (${error instanceof Error ? error.message : String(error)})`] });
        return;
      }
      const problem = itemProblem(position, item);
      if (problem) problems.push(problem);
    });
    if (positions.length === 0) return { ok: false, message: `${fileName} has no lines to import.` };
    if (positions.length > MEMORY_LIMITS.batch) return { ok: false, message: tooMany(positions.length) };
    return { ok: true, format, body: { kind: "jsonl", text }, count: positions.length, positions, problems };
  }

  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    return {
      ok: false,
      message: `${fileName} is not valid JSON (${reason}). A file with one memory a line should be named .jsonl or .ndjson.`,
    };
  }
  const memories = Array.isArray(parsed)
    ? parsed
    : typeof parsed === "object" && parsed !== null && Array.isArray((parsed as { memories?: unknown }).memories)
      ? (parsed as { memories: unknown[] }).memories
      : null;
  if (!memories) {
    return { ok: false, message: `${fileName} should hold a list of memories, or an object with a "memories" list.` };
  }
  if (memories.length === 0) return { ok: false, message: `${fileName} holds no memories.` };
  if (memories.length > MEMORY_LIMITS.batch) return { ok: false, message: tooMany(memories.length) };
  const positions = memories.map((_, i) => `Item ${i + 1}`);
  const problems = memories.flatMap((item, i) => itemProblem(positions[i]!, item) ?? []);
  return { ok: true, format, body: { kind: "json", memories }, count: memories.length, positions, problems };
}

export interface RejectedRow {
  position: string;
  id?: string;
  messages: { field: string | null; message: string }[];
}

/** The rejected items of an import, each placed in the file and with its messages. */
export function rejectedRows(results: readonly ImportItemResult[], positions: readonly string[]): RejectedRow[] {
  const rows: RejectedRow[] = [];
  for (const result of results) {
    if (result.status !== "rejected") continue;
    const position = result.line !== undefined ? `Line ${result.line}` : (positions[result.index] ?? `Item ${result.index + 1}`);
    rows.push({
      position,
      ...(result.id ? { id: result.id } : {}),
      messages: result.errors.map((e) => ({
        field: e.path.length > 0 ? e.path.join(".") : null,
        // The position already names the line.
        message: e.message.replace(/^line \d+ is not valid JSON/, "not valid JSON"),
      })),
    });
  }
  return rows;
}
