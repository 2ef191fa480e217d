/**
 * The one list of reasons a selector block can say it was not applied, what kind of "not
 * applied" each is, and how to say it to a person (lib/selectors/README.md "Selector truth").
 * Pure and client-safe: the console, History and Insights all read it.
 *
 * The rule: a selector that ran is `applied: true` (with `kept` and `dropped`, possibly 0
 * dropped: keeping the whole page is a judgement). `applied: false` means it did not run or
 * failed, and its reason is one of these kinds:
 *
 * - `off`: nobody asked for a selector (`disabled`) — off by choice, never a failure;
 * - `unavailable`: asked for, but not set up (`not_configured`, `misconfigured`);
 * - `skipped`: the page gave the strategy nothing to judge (`empty_page`, `invalid_page`,
 *   `no_cosines`, `too_few_results`), or the caller cancelled first (`aborted`);
 * - `failed`: it tried and failed (`timeout`, `unreachable`, `http_error`, `bad_response`,
 *   `refused`, `truncated`, `unparseable`, `unknown_id`). The failure rate counts these over the
 *   recalls it ran or tried on (applied + failed).
 *
 * A reason another service sent that is not on the list is `unknown` (shown as sent).
 * The SQL function `selector_reason_kind` (prisma/sql/insights-rollup-triggers.sql) mirrors this table;
 * a unit test holds them together.
 */

export const SELECTOR_REASON_KINDS = {
  disabled: "off",
  not_configured: "unavailable",
  misconfigured: "unavailable",
  empty_page: "skipped",
  invalid_page: "skipped",
  no_cosines: "skipped",
  too_few_results: "skipped",
  aborted: "skipped",
  timeout: "failed",
  unreachable: "failed",
  http_error: "failed",
  bad_response: "failed",
  refused: "failed",
  truncated: "failed",
  unparseable: "failed",
  unknown_id: "failed",
} as const;

export type SelectorReason = keyof typeof SELECTOR_REASON_KINDS;
export type SelectorReasonKind = (typeof SELECTOR_REASON_KINDS)[SelectorReason] | "unknown";

/** The kinds a filter can name (`unknown` is what is left, not a filter). */
export const SELECTOR_REASON_KIND_NAMES = ["off", "unavailable", "skipped", "failed"] as const;

/** Every reason this dashboard writes, in the table's order. */
export const SELECTOR_REASONS = Object.keys(SELECTOR_REASON_KINDS) as SelectorReason[];

export function isSelectorReason(reason: unknown): reason is SelectorReason {
  return typeof reason === "string" && Object.hasOwn(SELECTOR_REASON_KINDS, reason);
}

/** The kind of a reason; `http_<status>` (as older releases wrote it) is an HTTP error. */
export function selectorReasonKind(reason: string | null | undefined): SelectorReasonKind {
  if (!reason) return "unknown";
  if (isSelectorReason(reason)) return SELECTOR_REASON_KINDS[reason];
  return /^http_\d{3}$/.test(reason) ? "failed" : "unknown";
}

const LABELS: Record<SelectorReason, string> = {
  disabled: "Selector off",
  not_configured: "LLM not configured",
  misconfigured: "LLM settings invalid",
  empty_page: "Nothing on the page",
  invalid_page: "Page ids missing or repeated",
  no_cosines: "No cosine scores on the page",
  too_few_results: "Too few results to judge",
  aborted: "Cancelled before it answered",
  timeout: "Timed out",
  unreachable: "Endpoint unreachable",
  http_error: "HTTP error from the endpoint",
  bad_response: "Not a chat completion",
  refused: "Model refused or answered empty",
  truncated: "Answer cut off at the token limit",
  unparseable: "Answer not readable",
  unknown_id: "Answer named an id not on the page",
};

const KIND_LABELS: Record<SelectorReasonKind, string> = {
  off: "Off by choice",
  unavailable: "Not set up",
  skipped: "Nothing to judge",
  failed: "Failed",
  unknown: "Other",
};

/** A reason in plain words ("Timed out"); an unknown one as sent, null as "not stated". */
export function selectorReasonLabel(reason: string | null | undefined): string {
  if (!reason) return "Reason not stated";
  if (isSelectorReason(reason)) return LABELS[reason];
  const http = /^http_(\d{3})$/.exec(reason);
  return http ? `HTTP ${http[1]} from the endpoint` : reason;
}

export function selectorReasonKindLabel(kind: SelectorReasonKind): string {
  return KIND_LABELS[kind];
}
