/**
 * The recall selector: after ranking and confidence, a strategy reads the result page and
 * removes what it judges irrelevant (docs/reference-rules.md "The selector block"). Two strategies implement this
 * interface: the offline score gap (`./score-gap`) and an OpenAI-compatible LLM (`./llm`).
 *
 * Every block is built through `lib/recall/selector-block.ts` (`selectorApplied` /
 * `selectorNotApplied`), so the contract (≤ 20 dropped ids in page order, unset keys omitted)
 * holds by construction.
 */
import type { SelectorBlock } from "@/lib/recall/selector-block";

/** The selector strategies (the console's "off" is the absence of one). */
export type SelectorId = "gap" | "llm";

/** One row of the result page, in rank order. */
export interface SelectorPageItem {
  memory_id: string;
  summary: string;
  /** The store's score (hybrid, raw cosine or BM25 by search mode). */
  score: number;
  /** The raw semantic cosine of this result, when the store knows it (null for keyword-only hits). */
  raw_cosine?: number | null;
}

export interface SelectorInput {
  query: string;
  /** The unselected page, in rank order. Ids must be unique and non-empty. */
  page: readonly SelectorPageItem[];
}

/** Token counts as the endpoint reported them (each key only when the endpoint sent it). */
export interface SelectorUsage {
  prompt_tokens?: number;
  completion_tokens?: number;
  total_tokens?: number;
}

export interface SelectorRun {
  /** Built with `selectorApplied` / `selectorNotApplied`; ready for `serializeSelector`. */
  block: SelectorBlock;
  /**
   * The ids left on the page, in page order. When the block is not applied this is the whole
   * page: the page is then the unselected one.
   */
  keptIds: string[];
  /** Token usage of the LLM call, when one was made and the endpoint reported it. */
  usage?: SelectorUsage;
  /** Wall time of `select`, in milliseconds (2 decimals). */
  latency_ms: number;
  /**
   * One human-readable line explaining a not-applied reason (e.g. the HTTP body's start, the
   * unknown ids). For logs and tooltips; never part of the block. Never contains the API key.
   */
  detail?: string;
}

export interface Selector {
  readonly id: SelectorId;
  /** The block's `model`: `"score-gap"`, or the configured LLM model name. */
  readonly model: string;
  /**
   * Selects from the page. Never rejects: every failure (timeout, HTTP error, refusal, bad
   * answer, an aborted `signal`) is a not-applied block with the whole page kept.
   */
  select(input: SelectorInput, signal?: AbortSignal): Promise<SelectorRun>;
}

/**
 * Every `reason` a not-applied block from this library can carry, plus `http_<status>` for an
 * endpoint that answered with a non-2xx status (e.g. `http_401`, `http_500`).
 */
export const SELECTOR_REASONS = [
  // run-recall's own
  "disabled",
  // both strategies
  "empty_page",
  "invalid_page",
  // score gap
  "no_cosines",
  "too_few_results",
  "no_clear_gap",
  // LLM: configuration
  "not_configured",
  "misconfigured",
  // LLM: transport
  "timeout",
  "unreachable",
  "aborted",
  // LLM: answer
  "bad_response",
  "refused",
  "truncated",
  "unparseable",
  "unknown_id",
] as const;

export type SelectorReason = (typeof SELECTOR_REASONS)[number] | `http_${number}`;
