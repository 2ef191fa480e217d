/**
 * The **LLM** selector: asks any OpenAI-compatible chat-completions endpoint
 * (`POST {base_url}/chat/completions`: OpenAI, Ollama, vLLM, llama.cpp server…) which results
 * of the page to keep, and parses the answer strictly.
 *
 * Request: `{ model, messages: [system, user], temperature: 0, stream: false }`, with
 * `authorization: Bearer <key>` when a key is configured. `response_format` is NOT sent:
 * `json_object` is accepted by current OpenAI, Ollama, vLLM and llama.cpp server, but not by
 * every version or model behind them (some reject the field with a 400, OpenAI rejects it for
 * some models), and the strict parser below already copes with prose and code fences. Asking
 * for JSON in the prompt works everywhere.
 *
 * Any failure leaves the page unselected with a specific reason (lib/recall/selector-reasons.ts):
 * `timeout`, `unreachable`, `aborted` (the caller's signal), `http_error` (the status in the
 * trace), `bad_response` (2xx but not a chat completion), `refused` (a refusal,
 * `content_filter`, or empty content), `truncated` (`finish_reason: "length"` and no usable
 * answer), `unparseable`, `unknown_id`. A readable answer is applied, whatever it keeps.
 *
 * Every run that reached the model carries a trace (what it saw and said): the prompt version and
 * the page, the raw answer, the parsed keep list and any invented id. The key is never in it.
 */
import { z } from "zod";
import { AnswerTooLargeError, postJson, type PostedAnswer } from "@/lib/post-json";
import { appliedRun, notAppliedRun, pageProblem } from "../run";
import { type Selector, type SelectorInput, type SelectorRun, type SelectorTrace, type SelectorUsage } from "../types";
import { chatCompletionsUrl, type LlmSelectorConfig } from "./config";
import { capText, parseKeepList, snippet } from "./keep-list";
import { buildSelectorPrompt, LLM_SELECTOR_PROMPT_VERSION } from "./prompt";

export * from "./config";
export { parseKeepList, type KeepListParse } from "./keep-list";
export { buildSelectorPrompt, LLM_SELECTOR_PROMPT_VERSION, SELECTOR_SYSTEM_PROMPT } from "./prompt";

/**
 * One part of an array `content` (several OpenAI-compatible servers answer reasoning models this
 * way): `{type: "text", text}` parts are the answer; `{type: "refusal", refusal}` a refusal;
 * any other type (`thinking`, `reasoning`, images…) is not the answer and is skipped.
 */
const ContentPartSchema = z.looseObject({ type: z.string(), text: z.unknown().optional(), refusal: z.unknown().optional() });

/**
 * The part of a chat completion (OpenAI's schema) the selector reads; other keys
 * (`system_fingerprint`, `logprobs`, `tool_calls`, …) are allowed and ignored.
 */
const ChatCompletionSchema = z.object({
  choices: z
    .array(
      z.object({
        message: z
          .object({
            content: z.union([z.string(), z.array(ContentPartSchema)]).nullish(),
            refusal: z.string().nullish(),
            // Reasoning servers (vLLM, DeepSeek, llama.cpp) put the model's thinking here, beside the answer.
            reasoning_content: z.string().nullish(),
          })
          .nullish(),
        finish_reason: z.string().nullish(),
      }),
    )
    .min(1),
  usage: z.unknown().optional(),
});

type ChatMessage = NonNullable<z.infer<typeof ChatCompletionSchema>["choices"][number]["message"]>;

/** The answer's text (text parts joined), any refusal (the field or a refusal part), and the reasoning. */
export function readMessage(message: ChatMessage | null | undefined): { text: string; refusal?: string; reasoning?: string } {
  const content = message?.content;
  let text = "";
  const refusals: string[] = [];
  if (typeof content === "string") text = content;
  else if (Array.isArray(content)) {
    for (const part of content) {
      if (part.type === "text" && typeof part.text === "string") text += part.text;
      else if (part.type === "refusal" && typeof part.refusal === "string") refusals.push(part.refusal);
    }
  }
  const refusal = [message?.refusal ?? "", ...refusals].map((r) => r.trim()).find((r) => r !== "");
  const reasoning = message?.reasoning_content?.trim();
  return { text, ...(refusal ? { refusal } : {}), ...(reasoning ? { reasoning } : {}) };
}

/** How much of an answer that is not a chat completion the detail quotes. */
const BAD_ANSWER_QUOTE_CHARS = 200;

/** The endpoint's `usage`, keeping only well-formed counts. */
export function readUsage(raw: unknown): SelectorUsage | undefined {
  if (typeof raw !== "object" || raw === null) return undefined;
  const usage: SelectorUsage = {};
  for (const key of ["prompt_tokens", "completion_tokens", "total_tokens"] as const) {
    const v = (raw as Record<string, unknown>)[key];
    if (typeof v === "number" && Number.isSafeInteger(v) && v >= 0) usage[key] = v;
  }
  return Object.keys(usage).length > 0 ? usage : undefined;
}

function describeError(error: unknown): string {
  if (!(error instanceof Error)) return String(error);
  const cause = (error as { cause?: unknown }).cause;
  const code = typeof cause === "object" && cause !== null ? (cause as { code?: unknown }).code : undefined;
  const causeMessage = cause instanceof Error ? cause.message : undefined;
  return [error.message, typeof code === "string" ? code : causeMessage].filter(Boolean).join(": ");
}

export interface LlmSelectorOptions {
  /** Injected for tests; the real `fetch` by default. */
  fetch?: typeof fetch;
}

/** The LLM strategy as a {@link Selector}; `model` (and the block's model) is the configured model name. */
export function createLlmSelector(config: LlmSelectorConfig, options: LlmSelectorOptions = {}): Selector {
  const doFetch = options.fetch ?? globalThis.fetch;
  const url = chatCompletionsUrl(config.baseUrl);
  // An endpoint may echo the request (headers included) in an error body: the key never reaches the trace.
  const blank = (text: string) => (config.apiKey ? text.split(config.apiKey).join("[key]") : text);
  const capAnswer = (text: string) => capText(blank(text));

  async function select(input: SelectorInput, signal?: AbortSignal): Promise<SelectorRun> {
    const started = performance.now();
    const { page } = input;
    const model = config.model;
    const problem = pageProblem(page);
    if (problem) return notAppliedRun(model, page, problem.reason, started, { detail: problem.detail });
    if (signal?.aborted) return notAppliedRun(model, page, "aborted", started, { detail: "The recall was cancelled." });

    // What the model is shown: kept with every run that got this far.
    const trace: SelectorTrace = { prompt_version: LLM_SELECTOR_PROMPT_VERSION, page_ids: page.map((item) => item.memory_id) };
    const timeout = AbortSignal.timeout(config.timeoutMs);
    const combined = signal ? AbortSignal.any([timeout, signal]) : timeout;
    const transportFailure = (error: unknown): SelectorRun => {
      if (signal?.aborted) return notAppliedRun(model, page, "aborted", started, { detail: "The recall was cancelled.", trace });
      if (timeout.aborted) {
        return notAppliedRun(model, page, "timeout", started, {
          detail: `${url} did not answer within ${config.timeoutMs} ms.`,
          trace,
        });
      }
      return notAppliedRun(model, page, "unreachable", started, {
        detail: `${url} could not be reached (${describeError(error)}).`,
        trace,
      });
    };

    const prompt = buildSelectorPrompt(input.query, page);
    let answer: PostedAnswer;
    try {
      answer = await postJson(doFetch, url, {
        apiKey: config.apiKey,
        body: {
          model: config.model,
          messages: [
            { role: "system", content: prompt.system },
            { role: "user", content: prompt.user },
          ],
          temperature: 0,
          stream: false,
        },
        signal: combined,
      });
    } catch (error) {
      if (error instanceof AnswerTooLargeError) {
        return notAppliedRun(model, page, "bad_response", started, { detail: `${url} ${error.message}.`, trace });
      }
      return transportFailure(error);
    }
    const { status, ok, text } = answer;

    if (!ok) {
      return notAppliedRun(model, page, "http_error", started, {
        detail: `${url} answered ${status}: ${snippet(blank(text))}`,
        trace: { ...trace, http_status: status, raw_answer: capAnswer(text) },
      });
    }

    // What came back, for a bad answer's detail: its start, one line, the key blanked.
    const quoted = () => {
      const flat = blank(text).replace(/\s+/g, " ").trim();
      return flat.length > BAD_ANSWER_QUOTE_CHARS ? `${flat.slice(0, BAD_ANSWER_QUOTE_CHARS)}…` : flat;
    };
    let json: unknown;
    try {
      json = JSON.parse(text);
    } catch {
      return notAppliedRun(model, page, "bad_response", started, {
        detail: `${url} answered ${status} with something that is not JSON: ${quoted() || "(empty body)"}`,
        trace: { ...trace, raw_answer: capAnswer(text) },
      });
    }
    const checked = ChatCompletionSchema.safeParse(json);
    if (!checked.success) {
      const issue = checked.error.issues[0];
      const where = issue && issue.path.length > 0 ? ` (${issue.path.join(".")}: ${issue.message})` : "";
      return notAppliedRun(model, page, "bad_response", started, {
        detail: `${url} answered ${status} with something that is not a chat completion${where}: ${quoted()}`,
        trace: { ...trace, raw_answer: capAnswer(text) },
      });
    }
    const body = checked.data;
    const usage = readUsage(body.usage);
    const choice = body.choices[0]!;
    const finish = choice.finish_reason ?? undefined;
    const { text: raw, refusal, reasoning } = readMessage(choice.message);
    // `reasoning_content` is the model's thinking, not its answer: never searched for the keep list.
    const content = raw.replace(/<think>[\s\S]*?<\/think>/gi, "").trim();
    const said: SelectorTrace = {
      ...trace,
      raw_answer: capAnswer(refusal || (content === "" && reasoning ? `(reasoning only, no answer) ${reasoning}` : raw)),
    };

    if (finish === "content_filter") {
      return notAppliedRun(model, page, "refused", started, {
        usage,
        detail: "The endpoint's content filter stopped the answer.",
        trace: said,
      });
    }
    if (refusal)
      return notAppliedRun(model, page, "refused", started, {
        usage,
        detail: `The model refused: ${snippet(refusal)}`,
        trace: said,
      });
    if (content.length === 0) {
      return finish === "length"
        ? notAppliedRun(model, page, "truncated", started, {
            usage,
            detail: reasoning
              ? "The answer hit the token limit while the model was still reasoning, before any content."
              : "The answer hit the token limit before any content.",
            trace: said,
          })
        : notAppliedRun(model, page, "refused", started, {
            usage,
            detail: reasoning
              ? "The model reasoned but gave no answer (reasoning_content only; it is not read as the answer)."
              : "The model answered with empty content.",
            trace: said,
          });
    }

    const parsed = parseKeepList(
      content,
      page.map((item) => item.memory_id),
    );
    if (!parsed.ok) {
      const failed: SelectorTrace = {
        ...said,
        ...(parsed.keep ? { keep_ids: parsed.keep } : {}),
        ...(parsed.unknownIds ? { unknown_ids: parsed.unknownIds } : {}),
      };
      if (finish === "length" && parsed.reason === "unparseable") {
        return notAppliedRun(model, page, "truncated", started, {
          usage,
          detail: `The answer hit the token limit: ${parsed.detail}`,
          trace: failed,
        });
      }
      return notAppliedRun(model, page, parsed.reason, started, { usage, detail: parsed.detail, trace: failed });
    }
    return appliedRun(model, page, new Set(parsed.keptIds), started, { usage, trace: { ...said, keep_ids: parsed.keep } });
  }

  return { id: "llm", model: config.model, select };
}
