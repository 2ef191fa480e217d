/** The audit's CSV export: one row per flagged memory with its classes and evidence. */
import { stringify } from "csv-stringify/sync";
import type { AuditResult } from "./types";

export const AUDIT_CSV_COLUMNS = [
  "memory_id",
  "summary",
  "classes",
  "best_rank_hybrid",
  "best_rank_semantic",
  "best_rank_keyword",
  "unreachable_modes",
  "unreachable_reasons",
  "shadowed_by",
  "cluster",
  "log_candidate",
  "log_returned",
  "log_dropped",
  "log_last_seen",
] as const;

export function auditCsv(result: AuditResult): string {
  const rows = result.findings.map((f) => [
    f.memory_id,
    f.summary,
    f.classes.join(" "),
    f.best_rank.hybrid ?? "",
    f.best_rank.semantic ?? "",
    f.best_rank.keyword ?? "",
    f.unreachable?.modes.join(" ") ?? "",
    f.unreachable?.reasons.map((r) => `${r.mode}: ${r.reason}`).join("; ") ?? "",
    f.shadowed?.by.map((n) => `${n.memory_id} (${n.cosine.toFixed(3)})`).join("; ") ?? "",
    f.shadowed?.cluster ?? "",
    f.log?.candidate ?? "",
    f.log?.returned ?? "",
    f.log?.dropped ?? "",
    f.log?.last_seen ?? "",
  ]);
  return stringify([[...AUDIT_CSV_COLUMNS], ...rows]);
}
