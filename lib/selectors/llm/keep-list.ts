/** Reading the model's answer into a keep list, strictly (pure; unit-tested on hostile answers). */
import { SELECTOR_TRACE_MAX_ANSWER_CHARS } from "../types";
import { LLM_SELECTOR_MAX_ANSWER_CHARS } from "./config";
import { clip } from "./prompt";

export type KeepListParse =
  | { ok: true; /** Unique, in page order. */ keptIds: string[]; /** The `keep` list as the model wrote it. */ keep: string[] }
  | { ok: false; reason: "unparseable" | "unknown_id"; detail: string; unknownIds?: string[]; keep?: string[] };

/** The answer as stored in the trace: at most SELECTOR_TRACE_MAX_ANSWER_CHARS characters. */
export function capText(text: string): string {
  return text.length > SELECTOR_TRACE_MAX_ANSWER_CHARS ? `${text.slice(0, SELECTOR_TRACE_MAX_ANSWER_CHARS)}…` : text;
}

export function snippet(text: string): string {
  const flat = text.replace(/\s+/g, " ").trim();
  return flat.length > 120 ? `${flat.slice(0, 120)}…` : flat;
}

/** The end index of the balanced `{…}` starting at `start` (string-aware), or -1. */
function matchBrace(text: string, start: number): number {
  let depth = 0;
  let inString = false;
  for (let i = start; i < text.length; i++) {
    const c = text[i];
    if (inString) {
      if (c === "\\") i++;
      else if (c === '"') inString = false;
    } else if (c === '"') inString = true;
    else if (c === "{") depth++;
    else if (c === "}") {
      depth--;
      if (depth === 0) return i;
    }
  }
  return -1;
}

/** Every top-level `{…}` in the text that parses as a JSON object. */
function jsonObjectsIn(text: string): unknown[] {
  const found: unknown[] = [];
  let i = text.indexOf("{");
  while (i >= 0) {
    const end = matchBrace(text, i);
    let next = i + 1;
    if (end > 0) {
      try {
        const value: unknown = JSON.parse(text.slice(i, end + 1));
        found.push(value);
        next = end + 1;
      } catch {
        // Not JSON (prose braces): look for an object starting inside it.
      }
    }
    i = text.indexOf("{", next);
  }
  return found;
}

/**
 * Parses a model's answer into the ids to keep, strictly.
 *
 * Accepted: exactly one JSON object with a `keep` array of strings, either as the whole answer
 * or surrounded by prose and/or a Markdown code fence (```json … ```). `<think>…</think>`
 * blocks (reasoning models) are ignored. Other keys next to `keep` are ignored. Duplicate ids
 * collapse. An empty `keep` list is a valid answer: the model judged nothing relevant, and the
 * whole page is dropped (the block then says `kept: 0`).
 *
 * Failures:
 * - `unparseable`: no JSON object, more than one, not an object, no `keep`, `keep` not an array,
 *   an entry that is not a string (e.g. the model answered with the numbers), or an answer
 *   longer than {@link LLM_SELECTOR_MAX_ANSWER_CHARS};
 * - `unknown_id`: any id that is not on the page (one invented id voids the whole answer).
 */
export function parseKeepList(content: string, pageIds: readonly string[]): KeepListParse {
  const fail = (reason: "unparseable" | "unknown_id", detail: string, unknownIds?: string[], keep?: string[]): KeepListParse => ({
    ok: false,
    reason,
    detail,
    ...(unknownIds ? { unknownIds } : {}),
    ...(keep ? { keep } : {}),
  });
  if (typeof content !== "string") return fail("unparseable", "The answer is not text.");
  if (content.length > LLM_SELECTOR_MAX_ANSWER_CHARS) {
    return fail(
      "unparseable",
      `The answer is ${content.length} characters long; at most ${LLM_SELECTOR_MAX_ANSWER_CHARS} are read.`,
    );
  }
  const text = content.replace(/<think>[\s\S]*?<\/think>/gi, "").trim();

  let value: unknown;
  let whole = false;
  try {
    value = JSON.parse(text);
    whole = true;
  } catch {
    // Not JSON as a whole: look for the object inside prose or a code fence.
  }
  if (!whole) {
    const objects = jsonObjectsIn(text);
    if (objects.length === 0) return fail("unparseable", `No JSON object in the answer: "${snippet(text)}".`);
    if (objects.length > 1)
      return fail("unparseable", `The answer holds ${objects.length} JSON objects; exactly one is expected.`);
    value = objects[0];
  }

  if (typeof value !== "object" || value === null || Array.isArray(value)) {
    return fail("unparseable", `The answer is JSON but not an object: "${snippet(text)}".`);
  }
  if (!Object.hasOwn(value, "keep")) return fail("unparseable", 'The JSON object has no "keep" list.');
  const keep = (value as { keep: unknown }).keep;
  if (!Array.isArray(keep)) return fail("unparseable", '"keep" is not an array.');
  const bad = keep.findIndex((id) => typeof id !== "string");
  if (bad >= 0)
    return fail(
      "unparseable",
      `"keep" entry ${bad + 1} is not a string id: ${snippet(JSON.stringify(keep[bad]) ?? String(keep[bad]))}.`,
    );

  const onPage = new Set(pageIds);
  const wanted = new Set(keep as string[]);
  const unknown = [...wanted].filter((id) => !onPage.has(id));
  if (unknown.length > 0) {
    const listed = unknown
      .slice(0, 5)
      .map((id) => JSON.stringify(clip(id, 60)))
      .join(", ");
    return fail(
      "unknown_id",
      `Not on the page: ${listed}${unknown.length > 5 ? ` and ${unknown.length - 5} more` : ""}.`,
      unknown,
      keep as string[],
    );
  }
  return { ok: true, keptIds: pageIds.filter((id) => wanted.has(id)), keep: keep as string[] };
}
