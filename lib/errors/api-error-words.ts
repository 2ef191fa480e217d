import { CLIENT_CLOSED } from "./client-closed";

/**
 * An API failure in words a person can act on. The error envelope (docs/ARCHITECTURE.md "Thin
 * handlers") carries a machine `error` code, a `message` written for API callers ("The request
 * params is invalid: id: a recall id is a UUID") and `details`; the UI shows the sentence this
 * module makes from them, with the code as secondary text. One home for that wording: the
 * client's `errorMessage` (lib/queries/fetch-json.ts) and `ApiErrorText` (components/ui/states.tsx)
 * both go through `apiErrorWords`. Pure and client-safe; it reads any value shaped like the
 * client's `ApiRequestError` (it cannot import it: lib/queries sits above this layer).
 */

export interface ApiErrorWords {
  /** What went wrong and what to do about it, one or two sentences. */
  sentence: string;
  /** The envelope's code (`validation_failed`, `not_found`, …), shown small beside the sentence; null for a non-API error. */
  code: string | null;
  /** The HTTP status, when the server answered at all. */
  status: number | null;
}

interface ApiErrorShape {
  message: string;
  code?: unknown;
  status?: unknown;
  details?: unknown;
}

interface Issue {
  path: readonly (string | number)[];
  message: string;
}

const FALLBACK = "Something went wrong.";
const SERVER_FAILED = "The server failed on its side. Try again; if it keeps failing, the server log says why.";
/** Issues named in one sentence; the rest are counted. */
const MAX_ISSUES = 3;

function shapeOf(error: unknown): ApiErrorShape | null {
  if (typeof error !== "object" || error === null) return null;
  const message = (error as { message?: unknown }).message;
  return typeof message === "string" ? (error as ApiErrorShape) : null;
}

function issuesOf(details: unknown): Issue[] {
  if (typeof details !== "object" || details === null) return [];
  const raw = (details as { issues?: unknown }).issues;
  if (!Array.isArray(raw)) return [];
  return raw.flatMap((i: unknown) => {
    if (typeof i !== "object" || i === null) return [];
    const { path, message } = i as { path?: unknown; message?: unknown };
    if (typeof message !== "string" || message.trim() === "") return [];
    const parts = Array.isArray(path)
      ? path.filter((p): p is string | number => typeof p === "string" || typeof p === "number")
      : [];
    return [{ path: parts, message: message.trim() }];
  });
}

/** `["items", 3, "relevant"]` → "items #4 relevant"; `search_mode` → "search mode". */
export function fieldWords(path: readonly (string | number)[]): string {
  return path.map((p) => (typeof p === "number" || /^\d+$/.test(p) ? `#${Number(p) + 1}` : p.replace(/_/g, " "))).join(" ");
}

/** One issue: its message, led by the field it concerns unless the message already names it. */
function issueWords(issue: Issue): string {
  const field = fieldWords(issue.path);
  const message = issue.message.replace(/[.;]\s*$/, "");
  const last = issue.path.at(-1);
  const named = (word: string) =>
    new RegExp(`(^|[^\\w])${word.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}($|[^\\w])`, "i").test(message);
  if (!field || named(field) || (typeof last === "string" && named(last))) return message;
  return `${field}: ${message}`;
}

function issuesWords(issues: readonly Issue[]): string {
  const named = issues.slice(0, MAX_ISSUES).map(issueWords).join("; ");
  const more = issues.length - MAX_ISSUES;
  return more > 0 ? `${named}; and ${more} more` : named;
}

/** Where a validation failure was: the API's message starts "The request body|query|params is invalid". */
function validationPlace(message: string): "body" | "query" | "params" | null {
  const match = /^The request (body|query|params) is invalid/.exec(message);
  return match ? (match[1] as "body" | "query" | "params") : null;
}

function validationSentence(message: string, details: unknown): string {
  const issues = issuesOf(details);
  const place = validationPlace(message);
  // No issue list: the message past the API's lead-in is the most specific thing to say.
  const what = issues.length > 0 ? issuesWords(issues) : message.replace(/^The request (body|query|params) is invalid:\s*/, "");
  switch (place) {
    case "params":
      return `This link is not valid: ${what}. Check the address, or open the item again from its list.`;
    case "query":
      return `A setting in the address is not valid: ${what}. Remove it from the address, or choose it again on the page.`;
    default:
      return `The server did not accept what was sent: ${what}. Correct it and try again.`;
  }
}

/** The sentence for a code whose server message is not the best thing to show; null to show the message. */
function sentenceFor(code: string, status: number | null, message: string, details: unknown): string | null {
  switch (code) {
    case "validation_failed":
      return validationSentence(message, details);
    case "bad_json":
      return "The server could not read the request (it was not valid JSON). Reload the page and try again.";
    case "method_not_allowed":
      return "The server does not take this kind of request here. Reload the page; if it happens again, it is a bug in the page.";
    case "unauthorized":
    case "invalid_api_key":
      return "You are not signed in, or your session has ended. Sign in again, then retry.";
    case "cross_site_request":
      return "The server refused a request that looked as if it came from another site. Open the dashboard at its own address and try again.";
    case CLIENT_CLOSED.code:
      return "The request was cancelled before the server answered. Try again.";
    case "internal_error":
    case "bad_response":
      return SERVER_FAILED;
    case "http_error":
      return status !== null && status >= 500 ? SERVER_FAILED : null;
    default:
      return null;
  }
}

/**
 * The words for any thrown value: an API failure (anything with a string `message` and a string
 * `code`) becomes the sentence for its code, falling back to the server's message, which the
 * codes not listed here write for people already (not_found, duplicate_name, remote_* …). Any
 * other Error shows its message.
 */
export function apiErrorWords(error: unknown): ApiErrorWords {
  const shape = shapeOf(error);
  if (!shape) return { sentence: FALLBACK, code: null, status: null };
  const message = shape.message.trim();
  const code = typeof shape.code === "string" && shape.code !== "" ? shape.code : null;
  const status = typeof shape.status === "number" && shape.status > 0 ? shape.status : null;
  const sentence = (code ? sentenceFor(code, status, message, shape.details) : null) ?? (message || FALLBACK);
  return { sentence, code, status };
}

/** The secondary text beside the sentence: the code and the status ("validation_failed · HTTP 422"). */
export function apiErrorCodeText(words: ApiErrorWords): string | null {
  if (!words.code) return null;
  return words.status ? `${words.code} · HTTP ${words.status}` : words.code;
}
