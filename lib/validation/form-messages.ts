/**
 * Form errors in words a person can act on — the one home for them (docs/ARCHITECTURE.md "One
 * home per thing"). Forms validate with the same zod schema the API does; zod's own wording
 * ("Invalid input: expected number, received NaN", "Too small: expected string to have >=1
 * characters") is replaced here by a sentence naming the field and what to enter. A message the
 * schema spells out itself ("query is empty") is kept: zod gives a schema's own message
 * precedence over this per-parse map.
 *
 * Client-safe: zod only.
 */
import type { z } from "zod";
import { zodIssueMessage } from "@/lib/recall/errors";

/** The names a form shows for its fields, by path ("k", "tags.0" or "tags"): how messages refer to them. */
export type FieldLabels = Readonly<Record<string, string>>;

/** The parts of a zod 4 raw issue this module reads (structural, so any issue shape fits). */
export interface IssueLike {
  code?: string;
  path?: readonly PropertyKey[];
  input?: unknown;
  expected?: string;
  origin?: string;
  minimum?: number | bigint;
  maximum?: number | bigint;
  inclusive?: boolean;
  format?: string;
  values?: readonly unknown[];
  keys?: readonly string[];
  divisor?: number | bigint;
  message?: string;
  /** The schema (or check) that failed; a number schema tells its range. */
  inst?: unknown;
}

const capitalize = (text: string) => text.charAt(0).toUpperCase() + text.slice(1);

/** How a message names the field at `path`: its label, else its key in plain words ("search_mode" → "Search mode"). */
export function fieldLabel(path: readonly PropertyKey[] | undefined, labels: FieldLabels = {}): string {
  const keys = (path ?? []).map(String);
  const joined = keys.join(".");
  if (labels[joined]) return labels[joined]!;
  const [head, index] = [path?.[0], path?.[1]];
  if (head !== undefined && typeof index === "number" && labels[String(head)]) {
    return `${labels[String(head)]} ${index + 1}`;
  }
  if (head !== undefined && labels[String(head)]) return labels[String(head)]!;
  if (keys.length === 0) return "This field";
  return capitalize(keys.map((k) => (/^\d+$/.test(k) ? `#${Number(k) + 1}` : k.replace(/_/g, " "))).join(" "));
}

/** A number schema's range and whether it takes only whole numbers (zod's `minValue`, `maxValue`, `isInt`). */
function numberBounds(issue: IssueLike): { min?: number; max?: number; whole: boolean } {
  const schema = (issue.inst ?? {}) as { minValue?: unknown; maxValue?: unknown; isInt?: unknown };
  // The integer check's own safe-integer range is no bound a person set.
  const finite = (v: unknown) => (typeof v === "number" && Math.abs(v) < Number.MAX_SAFE_INTEGER ? v : undefined);
  return { min: finite(schema.minValue), max: finite(schema.maxValue), whole: schema.isInt === true };
}

function rangeWords(bounds: { min?: number; max?: number; whole: boolean }): string {
  const kind = bounds.whole ? "a whole number" : "a number";
  if (bounds.min !== undefined && bounds.max !== undefined) return `${kind} from ${bounds.min} to ${bounds.max}`;
  if (bounds.min !== undefined) return `${kind} of at least ${bounds.min}`;
  if (bounds.max !== undefined) return `${kind} of at most ${bounds.max}`;
  return kind;
}

const blank = (input: unknown) =>
  input === undefined || input === null || (typeof input === "string" && input.trim() === "") || Number.isNaN(input);

/**
 * The sentence for one issue, naming its field; undefined leaves zod's default (never for the
 * codes forms meet).
 */
export function issueWords(issue: IssueLike, labels: FieldLabels = {}): string | undefined {
  const label = fieldLabel(issue.path, labels);
  const n = (v: number | bigint | undefined) => Number(v ?? 0);
  switch (issue.code) {
    case "invalid_type": {
      if (issue.expected === "number" || issue.expected === "int" || issue.expected === "bigint") {
        const bounds = numberBounds(issue);
        if (issue.expected === "int") bounds.whole = true;
        return blank(issue.input) ? `Enter ${rangeWords(bounds)} for ${label}.` : `${label} must be ${rangeWords(bounds)}.`;
      }
      if (blank(issue.input)) return `${label} is required.`;
      if (issue.expected === "string") return `${label} must be text.`;
      if (issue.expected === "boolean") return `${label} must be yes or no.`;
      if (issue.expected === "array") return `${label} must be a list.`;
      return `${label} has the wrong kind of value.`;
    }
    case "too_small": {
      const min = n(issue.minimum);
      if (issue.origin === "string")
        return min <= 1 ? `${label} is empty: enter something.` : `${label} needs at least ${min} characters.`;
      if (issue.origin === "array" || issue.origin === "set")
        return min <= 1 ? `Add at least one to ${label}.` : `${label} needs at least ${min} items.`;
      return issue.inclusive === false ? `${label} must be more than ${min}.` : `${label} must be at least ${min}.`;
    }
    case "too_big": {
      const max = n(issue.maximum);
      if (issue.origin === "string") return `${label} is longer than ${max.toLocaleString("en-US")} characters: shorten it.`;
      if (issue.origin === "array" || issue.origin === "set")
        return `${label} holds more than ${max.toLocaleString("en-US")} items.`;
      return issue.inclusive === false ? `${label} must be less than ${max}.` : `${label} must be at most ${max}.`;
    }
    case "not_multiple_of":
      return `${label} must be a multiple of ${n(issue.divisor)}.`;
    case "invalid_value": {
      const options = (issue.values ?? []).map(String);
      return options.length === 1 ? `${label} must be ${options[0]}.` : `Choose ${label} from: ${options.join(", ")}.`;
    }
    case "invalid_format":
      if (issue.format === "regex") return `${label} holds characters it may not.`;
      if (issue.format === "datetime" || issue.format === "date") return `${label} must be a date and time (ISO 8601).`;
      return `${label} is not a valid ${issue.format ?? "value"}.`;
    case "unrecognized_keys":
      return `${capitalize(zodIssueMessage({ code: issue.code, keys: issue.keys ?? [], message: "" }))}.`;
    case "invalid_union":
    case "custom":
      return `${label} is not valid.`;
    default:
      return undefined;
  }
}

/** A zod error map (the `error` option of `safeParse`) that words every issue with these labels. */
export function formErrorMap(labels: FieldLabels = {}): (issue: IssueLike) => string | undefined {
  return (issue) => issueWords(issue, labels);
}

export type FormParse<T> =
  | { success: true; data: T }
  | {
      success: false;
      /** The messages per field (the first key of each issue's path), in issue order. */
      fields: Record<string, string[]>;
      /** Messages that belong to no field. */
      general: string[];
      /** Every message, fields first, for a form that shows one list. */
      messages: string[];
    };

/**
 * Validates a form's values with the API's schema and words the problems. Field messages are
 * sentences that name the field, so they read the same beside the input and in a summary list.
 */
export function parseForm<S extends z.ZodType>(schema: S, data: unknown, labels: FieldLabels = {}): FormParse<z.output<S>> {
  const parsed = schema.safeParse(data, { error: formErrorMap(labels) as never });
  if (parsed.success) return { success: true, data: parsed.data };
  const fields: Record<string, string[]> = {};
  const general: string[] = [];
  for (const issue of parsed.error.issues) {
    const key = issue.path[0];
    const message = sentence(
      issue.message,
      issue.path.length > 0 && !mentions(issue.message, issue.path, labels) ? fieldLabel(issue.path, labels) : null,
      labels,
    );
    if (key === undefined) general.push(message);
    else {
      const list = (fields[String(key)] ??= []);
      if (!list.includes(message)) list.push(message);
    }
  }
  return { success: false, fields, general, messages: [...Object.values(fields).flat(), ...general] };
}

/** Whether a message already names its field (ours always do; a schema's own often do: "query is empty"). */
function mentions(message: string, path: readonly PropertyKey[], labels: FieldLabels): boolean {
  const names = [fieldLabel(path, labels), String(path[0] ?? "")].filter(Boolean);
  return names.some((name) => new RegExp(`(^|\\W)${name.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}(\\W|$)`, "i").test(message));
}

/**
 * A message as a sentence: prefixed with the field when it does not name it, capitalized unless
 * it opens with a label as the form writes it (a lower-case "k").
 */
function sentence(message: string, label: string | null, labels: FieldLabels): string {
  const text = label
    ? `${label}: ${message}`
    : Object.values(labels).some((l) => message.startsWith(l))
      ? message
      : capitalize(message);
  return /[.!?]$/.test(text) ? text : `${text}.`;
}
