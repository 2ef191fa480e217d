/**
 * The one input rule every schema shares (docs/ARCHITECTURE.md, "Bad input"): text PostgreSQL
 * can store, dates it can compare, and JSON shallow enough to serialize.
 *
 * - No NUL (U+0000) anywhere: a PostgreSQL text or jsonb value cannot hold one, so the write
 *   would fail with a database error (a 500) after the item was judged valid.
 * - No unpaired UTF-16 surrogate: it is not Unicode, cannot be encoded as UTF-8, and would be
 *   stored as U+FFFD by some layers and refused by others.
 * - Dates in the years 1970–9999: what the columns, the cursors and the ISO form round-trip
 *   (year 0 or +275760 are valid JSON dates but fail in the database or in `toISOString`).
 * - Pass-through JSON (`request.filters`, a result's `context`…) at most `MAX_INPUT_DEPTH` deep:
 *   deeper values overflow the stack of `JSON.stringify` when they are written.
 *
 * JSON from elsewhere (a memory service's answer, a proxied answer, OTLP attributes) is held to
 * the same walk with `UNTRUSTED_JSON_LIMITS` (deeper, plus a count of values and a string length)
 * through `untrustedJsonProblem`; the recall log's writer checks every row with it last.
 *
 * Client-safe (zod only): the forms validate with the same schemas the routes do. The walk is
 * iterative, so a 20,000-deep value is reported, never a stack overflow.
 */
import { z } from "zod";

/** Objects and arrays nested deeper than this (from the value checked) are refused. */
export const MAX_INPUT_DEPTH = 32;
export const MIN_INPUT_YEAR = 1970;
export const MAX_INPUT_YEAR = 9999;

const MIN_TIME = Date.UTC(MIN_INPUT_YEAR, 0, 1);
const MAX_TIME = Date.UTC(MAX_INPUT_YEAR + 1, 0, 1) - 1;

/** Which part of the rule a value broke (named in a remote answer's 502 and in the log). */
export type InputRuleName = "text" | "date" | "depth" | "size" | "string_length";

export interface InputProblem {
  path: (string | number)[];
  message: string;
  rule?: InputRuleName;
}

/**
 * Limits of the rule. `maxNodes` (every value and key counted) and `maxStringLength` are off unless
 * given: a request body is already bounded by its byte limit and its schema.
 */
export interface InputLimits {
  maxDepth?: number;
  /** Problems reported at most (the walk stops there). */
  limit?: number;
  maxNodes?: number;
  maxStringLength?: number;
}

/**
 * The rule for JSON this app did not write and will store or show (docs/ARCHITECTURE.md "Bad
 * input"): a memory service's answers, proxied answers, OTLP attributes. Deeper than request
 * bodies (a result's `context` is the service's user data, three levels in), but far below what
 * breaks the database: PGlite's jsonb parser runs out of WebAssembly memory near 1,100 levels and
 * `JSON.stringify` overflows the stack near 4,000. 200,000 values and 1,000,000 characters a
 * string are far past any recall page (k ≤ 100) and below the 10 MB an answer is read up to.
 */
export const UNTRUSTED_JSON_LIMITS = {
  maxDepth: 64,
  maxNodes: 200_000,
  maxStringLength: 1_000_000,
} as const satisfies InputLimits;

const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;
const LONE_SURROGATES = new RegExp(LONE_SURROGATE.source, "g");

/** Why a string is refused, or null when it is fine. */
export function textProblem(text: string): string | null {
  if (text.includes("\u0000")) return "contains a NUL character (\\u0000), which cannot be stored";
  if (LONE_SURROGATE.test(text)) return "contains an unpaired UTF-16 surrogate (not valid Unicode)";
  return null;
}

/** The text with every NUL and unpaired surrogate replaced by U+FFFD (for words about a refused value). */
export function replaceBadText(text: string): string {
  return text.replaceAll("\u0000", "\uFFFD").replace(LONE_SURROGATES, "\uFFFD");
}

/** Why a date is refused, or null when it is inside 1970–9999. */
export function dateProblem(date: Date): string | null {
  const time = date.getTime();
  if (Number.isNaN(time)) return "is not a valid date";
  if (time < MIN_TIME || time > MAX_TIME) return `is outside the years ${MIN_INPUT_YEAR}–${MAX_INPUT_YEAR}`;
  return null;
}

export function isDateInRange(date: Date): boolean {
  return dateProblem(date) === null;
}

function isPlainObject(value: object): boolean {
  const proto = Object.getPrototypeOf(value) as unknown;
  return proto === Object.prototype || proto === null;
}

/** A value waiting in the walk; its path is built from the parent links only when it has a problem. */
type Pending = { value: unknown; parent: Pending | null; key: string | number | null; depth: number };

function pathOf(pending: Pending): (string | number)[] {
  const path: (string | number)[] = [];
  for (let p: Pending | null = pending; p !== null && p.key !== null; p = p.parent) path.push(p.key);
  return path.reverse();
}

type WellFormed = { isWellFormed?: () => boolean };

/** True when a string holds a NUL or an unpaired surrogate (the native check where there is one: it runs on every string of a logged row). */
function hasBadText(text: string): boolean {
  if (text.includes("\u0000")) return true;
  const native = (text as unknown as WellFormed).isWellFormed;
  return native ? !native.call(text) : LONE_SURROGATE.test(text);
}

/**
 * Every problem of a value (strings, object keys, Dates, nesting, and with the limits given, its
 * count of values and the length of its strings), up to `limit` of them. Only plain objects and
 * arrays are walked; a nested value deeper than `maxDepth` is one problem and is not walked
 * further; past `maxNodes` the walk stops with one problem. Iterative: no value can overflow the
 * stack here.
 */
export function findInputProblems(value: unknown, options: InputLimits = {}): InputProblem[] {
  const maxDepth = options.maxDepth ?? MAX_INPUT_DEPTH;
  const limit = options.limit ?? 20;
  const maxNodes = options.maxNodes ?? Infinity;
  const maxString = options.maxStringLength ?? Infinity;
  const problems: InputProblem[] = [];
  const stringProblem = (text: string, at: Pending, what: "text" | "a key"): InputProblem | null => {
    if (text.length > maxString) {
      return { path: pathOf(at), rule: "string_length", message: `${what} is longer than ${maxString} characters` };
    }
    if (!hasBadText(text)) return null;
    return { path: pathOf(at), rule: "text", message: `${what} ${textProblem(text)}` };
  };
  const tooMany = (at: Pending): InputProblem => ({
    path: pathOf(at),
    rule: "size",
    message: `holds more than ${maxNodes} values`,
  });
  let nodes = 0;
  const stack: Pending[] = [{ value, parent: null, key: null, depth: 0 }];
  while (stack.length > 0 && problems.length < limit) {
    const pending = stack.pop()!;
    const { value: current, depth } = pending;
    if (++nodes > maxNodes) {
      problems.push(tooMany(pending));
      break;
    }
    if (typeof current === "string") {
      const problem = stringProblem(current, pending, "text");
      if (problem) problems.push(problem);
      continue;
    }
    if (typeof current !== "object" || current === null) continue;
    if (current instanceof Date) {
      const problem = dateProblem(current);
      if (problem) problems.push({ path: pathOf(pending), rule: "date", message: `the date ${problem}` });
      continue;
    }
    const isArray = Array.isArray(current);
    if (!isArray && !isPlainObject(current)) continue;
    if (depth >= maxDepth) {
      problems.push({ path: pathOf(pending), rule: "depth", message: `nested more than ${maxDepth} levels deep` });
      continue;
    }
    // Children are pushed last first, so problems come out in document order.
    if (isArray) {
      const items = current as unknown[];
      // Counted before the children are queued, so a five-million-item array costs nothing.
      if (nodes + stack.length + items.length > maxNodes) {
        problems.push(tooMany(pending));
        break;
      }
      for (let i = items.length - 1; i >= 0; i--) {
        const item = items[i];
        // Numbers, booleans and null have nothing to check: counted, not queued.
        if (typeof item !== "object" && typeof item !== "string") nodes++;
        else stack.push({ value: item, parent: pending, key: i, depth: depth + 1 });
      }
    } else {
      const keys = Object.keys(current);
      if (nodes + stack.length + 2 * keys.length > maxNodes) {
        problems.push(tooMany(pending));
        break;
      }
      nodes += keys.length;
      const record = current as Record<string, unknown>;
      const start = stack.length;
      for (const key of keys) {
        const problem = stringProblem(key, pending, "a key");
        const item = record[key];
        if (problem) problems.push(problem);
        else if (typeof item !== "object" && typeof item !== "string") nodes++;
        else stack.push({ value: item, parent: pending, key, depth: depth + 1 });
      }
      // Reversed in place: the first key is popped first.
      for (let i = start, j = stack.length - 1; i < j; i++, j--) [stack[i], stack[j]] = [stack[j]!, stack[i]!];
    }
  }
  return problems.slice(0, limit);
}

/** The first problem of untrusted JSON under the rule (UNTRUSTED_JSON_LIMITS unless given), or null. */
export function untrustedJsonProblem(value: unknown, limits: InputLimits = UNTRUSTED_JSON_LIMITS): InputProblem | null {
  return findInputProblems(value, { ...limits, limit: 1 })[0] ?? null;
}

/**
 * Where a problem is, in words: `results.0.context.a.b…` (the first 12 steps, each cut to 40
 * characters), or `(the whole value)`.
 */
export function problemPath(path: readonly (string | number)[]): string {
  if (path.length === 0) return "(the whole value)";
  const steps = path.slice(0, 12).map((step) => {
    const text = String(step);
    return text.length > 40 ? `${text.slice(0, 39)}…` : text;
  });
  return `${steps.join(".")}${path.length > 12 ? ".…" : ""}`;
}

/** One line for a problem: "results.0.summary: text contains a NUL character … (rule: text)". */
export function describeProblem(problem: InputProblem): string {
  return `${problemPath(problem.path)}: ${problem.message}${problem.rule ? ` (rule: ${problem.rule})` : ""}`;
}

/** The rule as a zod refinement: adds one issue per problem. */
export function inputRule(value: unknown, ctx: z.RefinementCtx): void {
  for (const problem of findInputProblems(value)) {
    ctx.addIssue({ code: "custom", path: problem.path, message: problem.message, input: undefined });
  }
}

/**
 * A schema with the shared input rule added: it runs on the parsed value (unknown keys of loose
 * objects included), so every string, key and date the handler sees has passed it. The schema's
 * type is unchanged.
 */
export function withInputRules<S extends z.ZodType>(schema: S): S {
  return schema.superRefine(inputRule) as S;
}

/** Plain text (a string with the rule), for fields that need no other constraint. */
export function safeText() {
  return z.string().superRefine((text, ctx) => {
    const problem = textProblem(text);
    if (problem) ctx.addIssue({ code: "custom", message: `text ${problem}` });
  });
}

const ISO_MESSAGE = "expected an ISO 8601 date-time with a time zone, e.g. 2025-01-31T09:00:00Z";

/** An ISO 8601 date-time with an offset, in 1970–9999, kept as the string. */
export function isoDateTimeString(message = ISO_MESSAGE) {
  return z.iso.datetime({ offset: true, message }).superRefine((text, ctx) => {
    const problem = dateProblem(new Date(text));
    if (problem) ctx.addIssue({ code: "custom", message: `the date ${problem}` });
  });
}

/** An ISO 8601 date-time with an offset, in 1970–9999, as a Date. */
export function isoDateTime(message = ISO_MESSAGE) {
  return isoDateTimeString(message).transform((text) => new Date(text));
}
