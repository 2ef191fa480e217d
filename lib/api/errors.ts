import { NextResponse } from "next/server";
import { z } from "zod";

/** The one error envelope of the dashboard's HTTP API (docs/ARCHITECTURE.md "Thin handlers"). */
export interface ErrorEnvelope {
  error: string;
  message: string;
  details: Record<string, unknown>;
}

export const errorEnvelopeSchema = z.object({
  error: z.string(),
  message: z.string(),
  details: z.record(z.string(), z.unknown()),
});

/** An error a handler means to answer with: status, machine code, human message, details. */
export class ApiError extends Error {
  override readonly name = "ApiError";
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    readonly details: Record<string, unknown> = {},
    /** Headers the answer carries, e.g. Retry-After on a 429. */
    readonly headers?: HeadersInit,
  ) {
    super(message);
  }

  static badJson(reason: string) {
    return new ApiError(400, "bad_json", `The request body is not valid JSON: ${reason}`);
  }
  static notFound(what: string) {
    return new ApiError(404, "not_found", `${what} was not found.`);
  }
  static validation(error: z.ZodError, where: "body" | "query" | "params") {
    return new ApiError(422, "validation_failed", `The request ${where} is invalid: ${summarizeIssues(error)}`, {
      issues: error.issues.map((issue) => ({ path: issue.path.map(String), code: issue.code, message: issue.message })),
    });
  }
}

/** "k: Too big; query: Required" — the first few issues, for the one-line message. */
export function summarizeIssues(error: z.ZodError, max = 3): string {
  const parts = error.issues.slice(0, max).map((issue) => {
    const at = issue.path.length ? issue.path.join(".") : "(root)";
    return `${at}: ${issue.message}`;
  });
  const more = error.issues.length - max;
  return more > 0 ? `${parts.join("; ")}; and ${more} more` : parts.join("; ");
}

export function errorResponse(error: ApiError, headers: HeadersInit | undefined = error.headers): NextResponse<ErrorEnvelope> {
  return NextResponse.json(
    { error: error.code, message: error.message, details: error.details },
    { status: error.status, headers },
  );
}
