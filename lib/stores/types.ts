import { CrossBundleError } from "@/lib/errors/cross-bundle";
import type { PoolMember } from "@/lib/recall/candidate";
import type { ConfidenceResult } from "@/lib/recall/confidence";
import type { KeywordEvidence } from "@/lib/recall/keyword-evidence";
import type { SearchMode } from "@/lib/recall/merge";
import type { RecallNotice } from "@/lib/recall/notices";
import type { IngestedSelectorBlock } from "@/lib/recall/selector-block";
import type { LoggedResult } from "@/lib/recall/wire";

export type { PoolMember };

/** What a recall asks a store for (the dashboard's side of the reference `RecallRequest`). */
export interface StoreRecallRequest {
  query: string;
  k: number;
  searchMode: SearchMode;
  /**
   * False when the caller left the mode to the store: `searchMode` is then the default it runs
   * (hybrid) and is logged under, and a remote service is sent none, so it picks (its router).
   */
  searchModeChosen?: boolean;
  useRerank?: boolean;
  filters?: { types?: string[]; tags?: string[]; tagsMatch?: "any" | "all" };
}

/** One returned memory, in rank order. `score` follows the reference (hybrid, raw cosine or raw BM25 by mode). */
export interface RecallResultItem extends Omit<LoggedResult, "score" | "dropped" | "rank"> {
  /** Always stated by a store (only a logged answer from elsewhere may lack it). */
  score: number;
  [key: string]: unknown;
}

export interface StoreRecallOutcome {
  results: RecallResultItem[];
  /** The block as computed (embedded) or as the service stated it (remote, `background_derived`). */
  confidence: ConfidenceResult & { background_derived?: boolean };
  /** Every candidate the store saw, or null when it does not expose its pool (a remote store). */
  candidates: PoolMember[] | null;
  /** Milliseconds per stage. */
  timings: Record<string, number>;
  degraded?: { reason: string };
  /** A selector block the store itself reports (a remote service that ran its own selector). */
  selector?: IngestedSelectorBlock | null;
  /** Things worth telling the user about this answer (e.g. a malformed block that was ignored). */
  warnings?: string[];
  /** What the store noticed about its ranking (a buried best hit, a rerank that ran or failed). */
  notices?: RecallNotice[];
  /** The keyword arm's evidence for the query (an embedded store's index); the store's verdict reads it. */
  keywordEvidence?: KeywordEvidence | null;
}

export interface MemoryStore {
  readonly name: string;
  readonly kind: "embedded" | "remote";
  recall(request: StoreRecallRequest, signal?: AbortSignal): Promise<StoreRecallOutcome>;
  /**
   * Throws a StoreError for a request this store cannot serve at all (e.g. `use_rerank` without a
   * reranker), before anything runs: the caller answers 4xx and logs nothing.
   */
  checkRequest?(request: StoreRecallRequest): void;
}

/** A store problem the caller should report (404 unknown store, 422 bad request for this store, 409 model mismatch, 502/504 upstream). */
export class StoreError extends CrossBundleError("StoreError") {
  constructor(
    readonly status: 404 | 409 | 422 | 502 | 503 | 504,
    readonly code: string,
    message: string,
    readonly details: Record<string, unknown> = {},
  ) {
    super(message);
  }
}
