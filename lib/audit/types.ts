/**
 * The reachability audit of a store (lib/audit/README.md "Reachability audit"): its settings,
 * the evidence per memory and the result the API and the page share. Client-safe: no I/O.
 */
import { z } from "zod";
import type { WhyReason } from "@/lib/recall/why";
import { withInputRules } from "@/lib/validation/input-rules";

/** The modes every memory is probed in, and the page sizes. */
export const AUDIT_MODES = ["hybrid", "semantic", "keyword"] as const;
export type AuditMode = (typeof AUDIT_MODES)[number];
export const AUDIT_KS = [5, 10] as const;

/** The probes made from a memory itself. */
export const PROBE_KINDS = ["summary", "distinct", "tags"] as const;
export type ProbeKind = (typeof PROBE_KINDS)[number];

export const AUDIT_CLASSES = ["unreachable", "shadowed", "always_buried", "always_dropped", "never_recalled"] as const;
export type AuditClass = (typeof AUDIT_CLASSES)[number];

export const DEFAULT_SHADOW_THRESHOLD = 0.95;
export const DEFAULT_LOG_DAYS = 30;
/** A log class needs this many appearances before "always" means anything. */
export const DEFAULT_MIN_APPEARANCES = 3;
/** How many of the store's most frequent words the `distinct` probe leaves out. */
export const FREQUENT_WORDS = 20;

/** The body of `POST /api/stores/{name}/audit`. */
export const AuditStartSchema = z.strictObject({
  shadow_threshold: z.number().min(0.5).max(1).default(DEFAULT_SHADOW_THRESHOLD),
  log_days: z.number().int().min(1).max(3650).default(DEFAULT_LOG_DAYS),
  min_appearances: z.number().int().min(1).max(1000).default(DEFAULT_MIN_APPEARANCES),
  /**
   * A remote store is probed through its recall API: the number of calls must be confirmed
   * (the answer without it is a 409 `confirmation_required` stating the number).
   */
  confirm_calls: z.number().int().min(1).optional(),
});
export type AuditStartInput = z.input<typeof AuditStartSchema>;
/** `POST /api/stores/{name}/audit`'s body as the route reads it (the shared input rules applied). */
export const AuditStartBodySchema = withInputRules(AuditStartSchema);
/**
 * `GET /api/stores/{name}/audit?format=&result=`: the status as JSON, or the last result's
 * findings as CSV; `result=0` leaves the result out of the JSON (a poll while an audit runs reads
 * state and progress, and fetches the result again only once `result_finished_at` moves).
 */
export const AuditQuerySchema = z.object({
  format: z.enum(["json", "csv"]).default("json"),
  result: z.enum(["0", "1"]).default("1"),
});
export type AuditStartBody = z.output<typeof AuditStartSchema>;
export type AuditSettings = Omit<z.output<typeof AuditStartSchema>, "confirm_calls">;

/** One probe recall of a memory: where it stood on the page and in each arm (null: not there). */
export interface ProbeRecord {
  probe: ProbeKind;
  query: string;
  mode: AuditMode;
  k: number;
  /** Rank on the page the recall answered (1..k), null when not on it. */
  page_rank: number | null;
  /** Rank in the merged list (fetched by an arm), null when no arm fetched it. */
  merged_rank: number | null;
  semantic_rank: number | null;
  keyword_rank: number | null;
  /** The recall failed (an embedder failure, a remote error): its message. */
  error?: string;
}

/** Why a memory is not on the page in a mode, as "Why isn't this memory here?" says it (lib/recall/why.ts). */
export interface UnreachableReason {
  mode: AuditMode;
  reason: WhyReason;
  message: string;
  /** The probe the reason is about: the one that replays it (the summary at k = 10, where there is one). */
  probe: { kind: ProbeKind; query: string; k: number };
}

export interface NearDuplicate {
  memory_id: string;
  summary: string;
  cosine: number;
}

/** Appearances of a memory in the store's logged recalls over the window. */
export interface LogUsage {
  /** Recalls it was a candidate in. */
  candidate: number;
  /** Recalls whose page held it (before the selector). */
  returned: number;
  /** Of those, the recalls whose selector removed it. */
  dropped: number;
  last_seen: string | null;
  /** The latest recalls it was in (links), newest first. */
  recall_ids: string[];
}

export interface AuditFinding {
  memory_id: string;
  summary: string;
  classes: AuditClass[];
  /** Best page rank over every probe and k, per mode (null: never on the page). */
  best_rank: Record<AuditMode, number | null>;
  unreachable: { modes: AuditMode[]; reasons: UnreachableReason[] } | null;
  /** Near-duplicates that outranked it on its own probes, and the cluster it belongs to. */
  shadowed: { by: NearDuplicate[]; cluster: number } | null;
  log: LogUsage | null;
  /** Every probe recall, for a flagged memory by reachability or shadowing. */
  probes: ProbeRecord[];
}

/** Near-duplicates listed together, with the one a merge would keep. */
export interface DuplicateCluster {
  id: number;
  members: { memory_id: string; summary: string }[];
  /** The smallest cosine between two members that the threshold linked. */
  min_cosine: number;
  keep: string;
  suggestion: string;
}

export interface AuditResult {
  store: string;
  kind: "embedded" | "remote";
  /** The store's version when the audit read it (`memoryVersion`; null for a remote store). */
  version: string | null;
  started_at: string;
  finished_at: string;
  settings: AuditSettings;
  memories: number;
  probe_recalls: number;
  frequent_words: string[];
  counts: Record<AuditClass, number>;
  /** Store-level facts worth reading first (e.g. the store refuses semantic recalls). */
  notes: string[];
  /** Whether the store's recall log had any recall in the window (else the log classes are not judged). */
  log_recalls: number;
  findings: AuditFinding[];
  clusters: DuplicateCluster[];
  /** What was left out (a remote store's smaller scope). */
  scope: string;
}

export type AuditState = "idle" | "running" | "done" | "failed" | "cancelled";

/** `GET /api/stores/{name}/audit`. */
export interface AuditStatus {
  store: string;
  state: AuditState;
  progress: { done: number; total: number; phase: string } | null;
  started_at: string | null;
  error: { code: string; message: string } | null;
  /** When the kept result finished (null: none is kept), given with or without the result. */
  result_finished_at: string | null;
  /** The last finished result (null: none is kept, or asked without it, `?result=0`). */
  result: AuditResult | null;
  /** Whether the store changed since the kept result read it. */
  stale: boolean;
}
