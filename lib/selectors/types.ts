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

/**
 * What the selector saw and said, kept with the logged recall (in `selector_usage`, beside the
 * usage) and shown in the console's selector panel. Never holds a key.
 */
export interface SelectorTrace {
  /** The LLM prompt's version ({@link LLM_SELECTOR_PROMPT_VERSION}): with the query and the page, the prompt is rebuilt exactly. */
  prompt_version?: string;
  /** The page it was given, in order (the prompt numbered these). */
  page_ids?: string[];
  /** The model's answer as received (capped at {@link SELECTOR_TRACE_MAX_ANSWER_CHARS} characters, "…" appended). */
  raw_answer?: string;
  /** The ids the answer asked to keep, as parsed (before the page check), in the answer's order. */
  keep_ids?: string[];
  /** Ids the answer named that are not on the page (the `unknown_id` failure). */
  unknown_ids?: string[];
  /** The endpoint's status for an `http_error`. */
  http_status?: number;
  /** The score gap's reasoning (`./score-gap`): the signal it cut on, the gap it found, the threshold, the cut. */
  score_gap?: ScoreGapTrace;
}

/** One side of the score gap's cut: a result of the page, its 1-based rank there and its signal. */
export interface ScoreGapSide {
  memory_id: string;
  rank: number;
  raw_cosine: number;
}

/**
 * Why the score gap kept and dropped what it did, in its own terms, logged with the recall and
 * drawn on the score distribution: it ranks the page by raw cosine (not by the page's score, the
 * hybrid score in hybrid mode), so a kept result can sit below a dropped one on the page.
 */
export interface ScoreGapTrace {
  /** What the rule measures the gap on. */
  signal: "raw_cosine";
  /** The smallest relative drop that counts as a gap ((a − b) / a). */
  min_relative_drop: number;
  /** Results with a raw cosine: the ones the rule ranks. */
  participants: number;
  /** Results without one (keyword-only hits): always kept. */
  kept_without_signal: number;
  /** The largest relative drop between neighbours by raw cosine; null when there was no pair to measure. */
  largest_relative_drop: number | null;
  /** Where the page was cut: the lowest kept and the highest dropped by raw cosine; null when nothing was cut. */
  cut: { above: ScoreGapSide; below: ScoreGapSide; relative_drop: number } | null;
}

/** Longer answers are cut in the stored trace. */
export const SELECTOR_TRACE_MAX_ANSWER_CHARS = 4_000;

export interface SelectorRun {
  /** Built with `selectorApplied` / `selectorNotApplied`; ready for `serializeSelector`. */
  block: SelectorBlock;
  /**
   * The strategy's model, applied or not (the block names it only when applied): a failed run
   * is counted against it. Absent when no strategy was available ("off", not configured).
   */
  model?: string;
  /** What it saw and said (the LLM: prompt version, page, raw answer, keep list, invented ids). */
  trace?: SelectorTrace;
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

export { SELECTOR_REASONS, type SelectorReason } from "@/lib/recall/selector-reasons";
