import { stringify } from "csv-stringify/sync";
import type { EvalRunItem } from "./run-schemas";

/** The report's per-query table as CSV or JSON Lines (client-safe; the export route streams it). */
export type RunExportFormat = "csv" | "jsonl";

export const RUN_EXPORT_COLUMNS = [
  "position",
  "item_id",
  "query",
  "kind",
  "relevant",
  "first_relevant_rank",
  "level",
  "reference_level",
  "top_score",
  "prominence",
  "relative_margin",
  "status",
  "recall_id",
  "returned_ids",
] as const satisfies readonly (keyof EvalRunItem)[];

/** CSV joins id lists with spaces; cells starting with = + - @ are neutralized (a leading '). */
export function encodeRunItems(items: readonly EvalRunItem[], format: RunExportFormat): string {
  if (format === "jsonl") return items.map((item) => JSON.stringify(item)).join("\n") + (items.length ? "\n" : "");
  return stringify(
    items.map((item) => RUN_EXPORT_COLUMNS.map((c) => (Array.isArray(item[c]) ? (item[c] as string[]).join(" ") : item[c]))),
    { header: true, columns: [...RUN_EXPORT_COLUMNS], escape_formulas: true },
  );
}
