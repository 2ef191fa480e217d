/** The LLM selector's settings (SELECTOR_LLM_*), read and checked once at boot by lib/env.ts. */
import { envValue, httpUrlProblem, wholeNumberIn, type Env } from "@/lib/env-values";

/** Used when `SELECTOR_LLM_TIMEOUT_MS` is not set. */
export const LLM_SELECTOR_DEFAULT_TIMEOUT_MS = 15_000;
/** `SELECTOR_LLM_TIMEOUT_MS` must be an integer in 1…this. */
export const LLM_SELECTOR_MAX_TIMEOUT_MS = 600_000;
/** Summaries longer than this (in characters) are cut in the prompt, with "…" appended. */
export const LLM_SELECTOR_MAX_SUMMARY_CHARS = 1_000;
/** Answers longer than this are not searched for JSON (→ `unparseable`). */
export const LLM_SELECTOR_MAX_ANSWER_CHARS = 200_000;

export interface LlmSelectorConfig {
  /** e.g. `https://api.openai.com/v1` or `http://127.0.0.1:11434/v1`; `/chat/completions` is appended. */
  baseUrl: string;
  model: string;
  apiKey?: string;
  timeoutMs: number;
}

/** A selector setting that is present but wrong (e.g. a timeout that is not a number). */
export class SelectorConfigError extends Error {
  override readonly name = "SelectorConfigError";
}

/**
 * The LLM selector's configuration from the environment: `SELECTOR_LLM_BASE_URL`,
 * `SELECTOR_LLM_MODEL` (both required), `SELECTOR_LLM_API_KEY` (optional),
 * `SELECTOR_LLM_TIMEOUT_MS` (optional, default 15000). Blank counts as unset.
 *
 * @returns null when the base URL or the model is not set (the LLM selector is not configured).
 * @throws SelectorConfigError when a value is set but invalid (a non-http(s) URL, a timeout that
 *   is not an integer in 1…600000).
 */
export function readLlmSelectorConfig(env: Env = process.env): LlmSelectorConfig | null {
  const baseUrl = envValue(env, "SELECTOR_LLM_BASE_URL");
  const model = envValue(env, "SELECTOR_LLM_MODEL");
  if (!baseUrl || !model) return null;

  const urlProblem = httpUrlProblem(baseUrl, "SELECTOR_LLM_API_KEY");
  if (urlProblem) throw new SelectorConfigError(`SELECTOR_LLM_BASE_URL ${urlProblem}.`);

  const rawTimeout = envValue(env, "SELECTOR_LLM_TIMEOUT_MS");
  const timeoutMs =
    rawTimeout === undefined ? LLM_SELECTOR_DEFAULT_TIMEOUT_MS : wholeNumberIn(rawTimeout, 1, LLM_SELECTOR_MAX_TIMEOUT_MS);
  if (timeoutMs === undefined) {
    throw new SelectorConfigError(
      `SELECTOR_LLM_TIMEOUT_MS must be an integer number of milliseconds in 1…${LLM_SELECTOR_MAX_TIMEOUT_MS}, got "${rawTimeout}".`,
    );
  }
  const apiKey = envValue(env, "SELECTOR_LLM_API_KEY");
  return { baseUrl: baseUrl.replace(/\/+$/, ""), model, ...(apiKey ? { apiKey } : {}), timeoutMs };
}

/** `{base_url}/chat/completions`. */
export function chatCompletionsUrl(baseUrl: string): string {
  return `${baseUrl.replace(/\/+$/, "")}/chat/completions`;
}
