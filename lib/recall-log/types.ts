/**
 * The wire shape of a logged recall: what `POST /api/recall` answers and `GET /api/recalls/{id}`
 * returns, and what the console's result view draws. Client-safe (types only).
 */
import type { KSensitivityPoint, ProfileConfidenceBlock } from "@/lib/calibration/level";
import type { ArmRanks } from "@/lib/recall/arm-ranks";
import type { PoolMember } from "@/lib/recall/candidate";
import type { Level } from "@/lib/recall/confidence";
import type { SearchMode } from "@/lib/recall/merge";
import type { NoticeKind, RecallNotice } from "@/lib/recall/notices";
import type { IngestedSelectorBlock } from "@/lib/recall/selector-block";
import type { WhyAnswer, WhyReason } from "@/lib/recall/why";
import type { LoggedConfidence, LoggedResult } from "@/lib/recall/wire";
import type { SelectorTrace, SelectorUsage } from "@/lib/selectors/types";
import type { RecallLabels } from "./labels";
import type { RecallSource } from "./sources";

export type { ArmRanks, Level, LoggedConfidence, LoggedResult, RecallNotice };

/** One candidate the store saw, in merged rank order, with whether the selector dropped it. */
export interface LoggedCandidate extends PoolMember {
  /** Returned, then removed by the selector. */
  dropped: boolean;
}

export interface LoggedRequest {
  store: string;
  query: string;
  k: number;
  search_mode: SearchMode;
  /** The caller left the mode to the store; `search_mode` is the default it ran (hybrid). */
  search_mode_auto?: true;
  use_rerank: boolean;
  selector: "off" | "gap" | "llm";
  filters?: Record<string, unknown>;
}

/**
 * The selector's trace as logged (lib/selectors/types.ts SelectorTrace, plus the run's cost and
 * the strategy's model, which the block names only when applied). Never holds a key.
 */
export interface LoggedSelectorTrace extends SelectorUsage, SelectorTrace {
  /** The strategy's model; null when none was available (off, not configured). */
  model: string | null;
  latency_ms?: number;
  /** One line on why it did not apply (or, for a kept-whole page, why nothing was dropped). */
  detail?: string;
}

export interface LoggedRecall {
  id: string;
  created_at: string;
  source: RecallSource;
  /** The OpenTelemetry trace and span a recall was captured from (source "otel"), lowercase hex. */
  trace?: { trace_id: string; span_id: string };
  store: string;
  status: "ok" | "error";
  request: LoggedRequest;
  /** The page the agent got: the kept rows, in page order (lib/recall-log/page.ts). */
  results: LoggedResult[];
  /** The rows the selector removed, same shape, in page order; empty when it removed none. */
  dropped_results: LoggedResult[];
  /** Null for a failed recall. */
  confidence: LoggedConfidence | null;
  selector: IngestedSelectorBlock | null;
  /** What the selector saw and said, and what it cost; null when none was asked (or the service ran its own). */
  selector_trace: LoggedSelectorTrace | null;
  /** The memory whose score set `top_score`, and whether the selector dropped it; null when unknown. */
  top_memory: { memory_id: string; dropped: boolean } | null;
  /** The whole candidate list, or null when the store does not expose it. */
  candidates: LoggedCandidate[] | null;
  timings: Record<string, number>;
  latency_ms: number | null;
  degraded?: { reason: string };
  error?: { code: string; message: string };
  /** A recall an evaluation run made: the run and the item's position in its set. */
  eval_run?: { id: string; item: number };
  /** The level under the store's threshold profile, when that profile is not the reference. */
  profile_confidence?: ProfileConfidenceBlock;
  /** The reference level at k = 5, 10, 20 from the stored merged list (and the profile's, when set). */
  k_sensitivity?: KSensitivityPoint[];
  /** Relevance labels a person gave it (all empty when unlabeled). */
  labels: RecallLabels;
  /**
   * What the ranking hides that a person should know (lib/recall/notices.ts): e.g.
   * `buried_best_hit`, the candidate with the best raw cosine sitting outside the pool; a BM25 left
   * out by the keyword arm's fetch window; a rerank that ran or failed. Empty when nothing; a
   * recall logged before notices existed gets its buried-hit notices derived on read.
   */
  notices: RecallNotice[];
}

/** The notice kinds the dashboard names (lib/recall/notices.ts); each comes with its message. */
export type RecallNoticeKind = NoticeKind;

/**
 * `GET /api/recalls/{id}/why?memory_id=…`: where one memory stood in this recall and the rule that
 * kept it off the page (or that it is on it), from lib/recall/why.ts. `raw_cosine` and
 * `keyword_score` are the merge's values when it used them (`*_used_by_merge`, ranks not null),
 * else computed now for display only.
 */
export type WhyNotHereAnswer = WhyAnswer;
export type { WhyReason };
