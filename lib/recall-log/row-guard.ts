/**
 * The recall log's last guard (lib/recall-log/README.md "The recall log"): a row about to be written
 * is held to the rule for untrusted JSON's depth and text, and a row that breaks it becomes a
 * failed recall saying why (`recallRow` in repository.ts applies it).
 */
import { describeProblem, replaceBadText, UNTRUSTED_JSON_LIMITS, untrustedJsonProblem } from "@/lib/validation/input-rules";
import type { LogRecallInput, RecallRow } from "./server/repository";

/** The error a recall is logged with when its row held a value the database cannot take. */
export const UNLOGGABLE_CODE = "unloggable_value";

/** The failure a row was logged with instead of its outcome, or null (run-recall and ingest report it). */
export function unloggedReason(row: Pick<RecallRow, "error">): { code: string; message: string; status: number } | null {
  const error = row.error as { code?: unknown; message?: unknown; status?: unknown } | null;
  return error?.code === UNLOGGABLE_CODE
    ? { code: UNLOGGABLE_CODE, message: String(error.message), status: Number(error.status) }
    : null;
}

// The columns of a row are one level below it, and a result's own fields one more.
const COLUMN_LIMITS = { maxDepth: UNTRUSTED_JSON_LIMITS.maxDepth + 2 };

export function rowProblem(row: RecallRow): string | null {
  const problem = untrustedJsonProblem(row, COLUMN_LIMITS);
  return problem ? describeProblem(problem) : null;
}

export function unloggable(input: LogRecallInput, problem: string): LogRecallInput {
  const { filters, ...request } = input.request;
  const clean = (text: string) => replaceBadText(text).slice(0, 8_000);
  return {
    id: input.id,
    createdAt: input.createdAt,
    ...(input.source ? { source: input.source } : {}),
    externalId: input.externalId == null ? null : clean(input.externalId),
    trace: input.trace ?? null,
    ...(input.evalRun ? { evalRun: input.evalRun } : {}),
    request: {
      ...request,
      store: clean(request.store),
      query: clean(request.query),
      ...(filters && untrustedJsonProblem(filters, COLUMN_LIMITS) === null ? { filters } : {}),
    },
    latencyMs: input.latencyMs,
    error: {
      code: UNLOGGABLE_CODE,
      status: input.error?.status ?? 502,
      message: `The recall could not be logged as answered: ${clean(problem)}. It is logged as failed, without the answer.`,
    },
  };
}
