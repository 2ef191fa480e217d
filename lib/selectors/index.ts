/**
 * The recall selector library: pick a strategy by the console's choice, run it, and
 * list what the console may offer.
 *
 * - `createSelector("gap" | "llm", env)` → a {@link Selector}, or why there is none;
 * - `runSelector("off" | "gap" | "llm", input, { env, signal })` → a {@link SelectorRun} in every
 *   case ("off" → not applied, `disabled`; LLM not configured → not applied, `not_configured`);
 * - `availableSelectors(env)` → the choices for the console, with a hint when the LLM is not
 *   configured.
 */
import { selectorNotApplied, type SelectorNotApplied } from "@/lib/recall/selector-block";
import { createLlmSelector, readLlmSelectorConfig, SelectorConfigError, type LlmSelectorOptions } from "./llm";
import { elapsedMs } from "./run";
import { createScoreGapSelector, SCORE_GAP_MODEL } from "./score-gap";
import type { Selector, SelectorId, SelectorInput, SelectorRun } from "./types";

export * from "./types";
export {
  buildSelectorPrompt,
  chatCompletionsUrl,
  createLlmSelector,
  LLM_SELECTOR_DEFAULT_TIMEOUT_MS,
  LLM_SELECTOR_PROMPT_VERSION,
  parseKeepList,
  readLlmSelectorConfig,
  SelectorConfigError,
  type KeepListParse,
  type LlmSelectorConfig,
} from "./llm";
export {
  createScoreGapSelector,
  decideScoreGap,
  SCORE_GAP_MIN_COSINES,
  SCORE_GAP_MIN_RELATIVE_DROP,
  SCORE_GAP_MODEL,
  SCORE_GAP_TIE_TOLERANCE,
  scoreGapTrace,
  type ScoreGapDecision,
} from "./score-gap";

type Env = Readonly<Record<string, string | undefined>>;

/** The console's choices: "off" plus the strategies. */
export type SelectorChoice = "off" | SelectorId;

/** What to tell a user who picks the LLM selector without configuring it. */
export const LLM_SELECTOR_HINT = "set SELECTOR_LLM_BASE_URL and SELECTOR_LLM_MODEL";

export type CreateSelectorResult =
  | { selector: Selector }
  | {
      selector: null;
      /** The block to log: `not_configured` or `misconfigured`. */
      block: SelectorNotApplied;
      /** One line for the user: how to configure it, or what is wrong with the configuration. */
      hint: string;
    };

/**
 * The strategy for a choice. "gap" always exists; "llm" exists when `SELECTOR_LLM_BASE_URL` and
 * `SELECTOR_LLM_MODEL` are set and valid. Never throws for configuration problems.
 */
export function createSelector(
  choice: SelectorId,
  env: Env = process.env,
  options: LlmSelectorOptions = {},
): CreateSelectorResult {
  if (choice === "gap") return { selector: createScoreGapSelector() };
  try {
    const config = readLlmSelectorConfig(env);
    if (!config) return { selector: null, block: selectorNotApplied("not_configured"), hint: LLM_SELECTOR_HINT };
    return { selector: createLlmSelector(config, options) };
  } catch (error) {
    if (error instanceof SelectorConfigError) {
      return { selector: null, block: selectorNotApplied("misconfigured"), hint: error.message };
    }
    throw error;
  }
}

/**
 * Runs the chosen selector on a page. Always resolves to a run: "off" → not applied,
 * `disabled`; an unavailable LLM → its `not_configured`/`misconfigured` block; otherwise the
 * strategy's own run (which never rejects). When not applied, `keptIds` is the whole page.
 */
export async function runSelector(
  choice: SelectorChoice,
  input: SelectorInput,
  options: { env?: Env; signal?: AbortSignal } & LlmSelectorOptions = {},
): Promise<SelectorRun> {
  const started = performance.now();
  const whole = () => input.page.map((item) => item.memory_id);
  if (choice === "off") return { block: selectorNotApplied("disabled"), keptIds: whole(), latency_ms: elapsedMs(started) };
  const created = createSelector(choice, options.env ?? process.env, options.fetch ? { fetch: options.fetch } : {});
  if (!created.selector) return { block: created.block, keptIds: whole(), latency_ms: elapsedMs(started), detail: created.hint };
  return created.selector.select(input, options.signal);
}

export interface SelectorOption {
  id: SelectorChoice;
  label: string;
  available: boolean;
  /** The block's model when this option runs (absent for "off"). */
  model?: string;
  /** Why an option is disabled and how to enable it (for a tooltip). */
  hint?: string;
}

/**
 * The console's selector choices. The LLM option is available when configured; otherwise it
 * carries a hint (how to configure it, or what is wrong). Never exposes the URL or the key.
 */
export function availableSelectors(env: Env = process.env): SelectorOption[] {
  const off: SelectorOption = { id: "off", label: "Off", available: true };
  const gap: SelectorOption = { id: "gap", label: "Score gap", available: true, model: SCORE_GAP_MODEL };
  let llm: SelectorOption;
  try {
    const config = readLlmSelectorConfig(env);
    llm = config
      ? { id: "llm", label: "LLM", available: true, model: config.model }
      : { id: "llm", label: "LLM", available: false, hint: LLM_SELECTOR_HINT };
  } catch (error) {
    if (!(error instanceof SelectorConfigError)) throw error;
    llm = { id: "llm", label: "LLM", available: false, hint: error.message };
  }
  return [off, gap, llm];
}
