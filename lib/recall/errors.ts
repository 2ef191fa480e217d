import { CrossBundleError } from "../errors/cross-bundle";
/**
 * Typed errors of the recall domain library.
 *
 * Every problem with caller-supplied data (scores, threshold profiles, merge arms, selector
 * blocks) is reported as a `RecallInputError`: a stable `code`, a one-line `message`, and
 * `details.issues` listing each problem with the path of the offending value. Route handlers
 * map it to a 422 with the error envelope `{ error: code, message, details }`.
 */

export type RecallIssuePath = (string | number)[];

export interface RecallIssue {
  /** Where the problem is, using wire (snake_case) names, e.g. `["semantic_raw", 3]`. */
  path: RecallIssuePath;
  /** Human-readable description; never echoes large inputs. */
  message: string;
}

export type RecallErrorCode =
  "invalid_scores" | "too_many_scores" | "invalid_thresholds" | "invalid_merge_input" | "invalid_selector" | "invalid_argument";

export interface RecallErrorDetails {
  /** At most `MAX_LISTED_ISSUES` problems, in input order. */
  issues: RecallIssue[];
  /** How many problems were found in total (may exceed `issues.length`). */
  issue_count: number;
}

/** Problems beyond this many are counted but not listed. */
export const MAX_LISTED_ISSUES = 20;

export class RecallInputError extends CrossBundleError("RecallInputError") {
  readonly code: RecallErrorCode;
  readonly details: RecallErrorDetails;

  constructor(code: RecallErrorCode, message: string, issues: readonly RecallIssue[]) {
    super(message);
    this.code = code;
    this.details = {
      issues: issues.slice(0, MAX_LISTED_ISSUES).map((i) => ({ path: [...i.path], message: i.message })),
      issue_count: issues.length,
    };
  }
}

/** A threshold profile that is not finite, out of range, or has its bands out of order. */
export class ThresholdsError extends RecallInputError {
  override readonly name: string = "ThresholdsError";
  static override [Symbol.hasInstance](value: unknown): boolean {
    return RecallInputError[Symbol.hasInstance](value) && (value as Error).name === "ThresholdsError";
  }

  constructor(issues: readonly RecallIssue[]) {
    super("invalid_thresholds", summarize("Invalid threshold profile", issues), issues);
  }
}

export function isRecallInputError(value: unknown): value is RecallInputError {
  return value instanceof RecallInputError;
}

/** "Prefix: first problem (and N more)". */
export function summarize(prefix: string, issues: readonly RecallIssue[]): string {
  const first = issues[0];
  if (first === undefined) return prefix;
  const where = first.path.length > 0 ? `${first.path.join(".")}: ` : "";
  const more = issues.length > 1 ? ` (and ${issues.length - 1} more)` : "";
  return `${prefix}: ${where}${first.message}${more}`;
}

/** Minimal structural view of a zod issue, so this module needs no zod import. */
interface ZodLikeIssue {
  path: PropertyKey[];
  message: string;
}

/** A zod issue in words a person can act on: an unknown key names the key. */
export function zodIssueMessage(issue: { message: string; code?: string; keys?: readonly string[] }): string {
  if (issue.code === "unrecognized_keys" && issue.keys) {
    return `unknown field${issue.keys.length > 1 ? "s" : ""}: ${issue.keys.join(", ")}`;
  }
  return issue.message;
}

/**
 * Up to three zod issues on one line, "path: message; …; and N more" (paths as `a.b[2]`): the
 * wording of a remote answer that failed its schema.
 */
export function zodIssuesText(issues: readonly ZodLikeIssue[], prefix = ""): string {
  const parts = issues.slice(0, 3).map((issue) => {
    const path = (prefix + issue.path.map((p) => (typeof p === "number" ? `[${p}]` : `.${String(p)}`)).join("")).replace(
      /^\./,
      "",
    );
    return path ? `${path}: ${issue.message}` : issue.message;
  });
  return parts.join("; ") + (issues.length > 3 ? `; and ${issues.length - 3} more` : "");
}

/** Per-item errors of a batch (`{path, message}`, the path as strings) from zod issues. */
export function itemErrorsFromZod(
  issues: readonly (ZodLikeIssue & { code?: string; keys?: readonly string[] })[],
): { path: string[]; message: string }[] {
  return issues.map((issue) => ({ path: issue.path.map(String), message: zodIssueMessage(issue) }));
}

/** Converts zod issues to recall issues, prefixing their paths. */
export function issuesFromZod(issues: readonly ZodLikeIssue[], prefix: RecallIssuePath = []): RecallIssue[] {
  return issues.map((i) => ({
    path: [...prefix, ...i.path.map((p) => (typeof p === "number" ? p : String(p)))],
    message: i.message,
  }));
}
