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

export interface InputProblem {
  path: (string | number)[];
  message: string;
}

const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

/** Why a string is refused, or null when it is fine. */
export function textProblem(text: string): string | null {
  if (text.includes("\u0000")) return "contains a NUL character (\\u0000), which cannot be stored";
  if (LONE_SURROGATE.test(text)) return "contains an unpaired UTF-16 surrogate (not valid Unicode)";
  return null;
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

/**
 * Every problem of a value (strings, object keys, Dates, nesting), up to `limit` of them. Only
 * plain objects and arrays are walked; a nested value deeper than `maxDepth` is one problem and
 * is not walked further.
 */
export function findInputProblems(value: unknown, options: { maxDepth?: number; limit?: number } = {}): InputProblem[] {
  const maxDepth = options.maxDepth ?? MAX_INPUT_DEPTH;
  const limit = options.limit ?? 20;
  const problems: InputProblem[] = [];
  const stack: { value: unknown; path: (string | number)[]; depth: number }[] = [{ value, path: [], depth: 0 }];
  while (stack.length > 0 && problems.length < limit) {
    const { value: current, path, depth } = stack.pop()!;
    if (typeof current === "string") {
      const problem = textProblem(current);
      if (problem) problems.push({ path, message: `text ${problem}` });
      continue;
    }
    if (typeof current !== "object" || current === null) continue;
    if (current instanceof Date) {
      const problem = dateProblem(current);
      if (problem) problems.push({ path, message: `the date ${problem}` });
      continue;
    }
    const isArray = Array.isArray(current);
    if (!isArray && !isPlainObject(current)) continue;
    if (depth >= maxDepth) {
      problems.push({ path, message: `nested more than ${maxDepth} levels deep` });
      continue;
    }
    const children: { value: unknown; path: (string | number)[]; depth: number }[] = [];
    if (isArray) {
      (current as unknown[]).forEach((item, i) => children.push({ value: item, path: [...path, i], depth: depth + 1 }));
    } else {
      for (const [key, item] of Object.entries(current)) {
        const problem = textProblem(key);
        if (problem) {
          problems.push({ path, message: `a key ${problem}` });
          continue;
        }
        children.push({ value: item, path: [...path, key], depth: depth + 1 });
      }
    }
    // Reversed so problems come out in document order.
    for (let i = children.length - 1; i >= 0; i--) stack.push(children[i]!);
  }
  return problems;
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
