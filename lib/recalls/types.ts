/**
 * The wire shape of a logged recall: what `POST /api/recall` answers and `GET /api/recalls/{id}`
 * returns, and what the console's result view draws. Client-safe (types only).
 */
import type { ConfidenceResult, Level } from "@/lib/recall/confidence";
import type { SearchMode } from "@/lib/recall/merge";
import type { IngestedSelectorBlock } from "@/lib/recall/selector";
import type { Thresholds } from "@/lib/recall/thresholds";

export type { Level };

export interface RecallResultView {
  memory_id: string;
  summary: string;
  /** The reference's `score`: hybrid score, raw cosine (semantic mode) or raw BM25 (keyword mode); null if a service left it out. */
  score: number | null;
  type?: string;
  tags?: string[];
  importance?: number;
  created_at?: string;
  updated_at?: string;
  /** Removed from the page by the selector. */
  dropped?: boolean;
}

/** One candidate the store saw, in merged rank order. */
export interface CandidateView {
  memory_id: string;
  summary: string | null;
  rank: number;
  raw_cosine: number | null;
  keyword_score: number | null;
  hybrid_score: number | null;
  /** Counted in confidence (the first `candidates_k`). */
  in_pool: boolean;
  /** On the result page. */
  returned: boolean;
  /** Returned, then removed by the selector. */
  dropped: boolean;
}

/** The confidence block as logged: the reference keys plus the dashboard's. */
export type ConfidenceView = ConfidenceResult & {
  /** The threshold values of the profile, so markers can be drawn. */
  threshold_values: Thresholds;
  /** True when `background_mean` was derived as top/(1+prominence), not computed from a pool. */
  background_derived?: boolean;
};

export interface RecallRequestView {
  store: string;
  query: string;
  k: number;
  search_mode: SearchMode;
  use_rerank: boolean;
  selector: "off" | "gap" | "llm";
  filters?: Record<string, unknown>;
}

export interface RecallView {
  id: string;
  created_at: string;
  source: "console" | "ingest";
  store: string;
  status: "ok" | "error";
  request: RecallRequestView;
  results: RecallResultView[];
  /** Null for a failed recall. */
  confidence: ConfidenceView | null;
  selector: IngestedSelectorBlock | null;
  /** The whole candidate list, or null when the store does not expose it. */
  candidates: CandidateView[] | null;
  timings: Record<string, number>;
  latency_ms: number | null;
  degraded?: { reason: string };
  error?: { code: string; message: string };
}
