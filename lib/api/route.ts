import { NextResponse, type NextRequest } from "next/server";
import type { z } from "zod";
import { authorizeApi, type Principal } from "@/lib/auth/authorize";
import { DatabaseSetupError } from "@/lib/db/config";
import { readCapped } from "@/lib/read-capped";
import { RecallInputError } from "@/lib/recall/errors";
import { guardRequest, SECURITY_HEADERS } from "@/lib/security/guard";
import { guardInputOf, serverAllowedHosts } from "@/lib/security/hosts";
import { StoreError } from "@/lib/stores/types";
import { findInputProblems, type InputProblem } from "@/lib/validation/input-rules";
import { ApiError, errorResponse } from "./errors";

/**
 * The thin route wrapper every handler goes through: the request guard (Host, cross-site writes,
 * JSON bodies only: lib/security/guard.ts, the proxy's rules, since proxy.ts does not see the
 * API), who calls (lib/auth/authorize.ts), then parse and validate (JSON body, query string, path
 * params) with zod, call the handler, answer JSON with the security headers; every failure
 * becomes the error envelope with the right status, never a stack trace.
 */
interface RouteSchemas<B extends z.ZodType | undefined, Q extends z.ZodType | undefined, P extends z.ZodType | undefined> {
  body?: B;
  query?: Q;
  params?: P;
  /** Largest accepted body in bytes (413 beyond). */
  maxBodyBytes?: number;
}

type Parsed<S> = S extends z.ZodType ? z.output<S> : undefined;

export interface RouteInput<B, Q, P> {
  body: B;
  query: Q;
  params: P;
  request: NextRequest;
  /** Who is calling (lib/auth/authorize.ts): checked before anything is parsed. */
  principal: Principal;
}

const DEFAULT_MAX_BODY_BYTES = 1_000_000;

export function apiRoute<
  B extends z.ZodType | undefined = undefined,
  Q extends z.ZodType | undefined = undefined,
  P extends z.ZodType | undefined = undefined,
>(schemas: RouteSchemas<B, Q, P>, handler: (input: RouteInput<Parsed<B>, Parsed<Q>, Parsed<P>>) => Promise<unknown>) {
  return async (request: NextRequest, context: { params: Promise<Record<string, string | string[]>> }) =>
    withSecurityHeaders(await run(request, context));
  async function run(request: NextRequest, context: { params: Promise<Record<string, string | string[]>> }): Promise<Response> {
    try {
      const refusal = guardRequest(guardInputOf(request), serverAllowedHosts());
      if (refusal) throw new ApiError(refusal.status, refusal.code, refusal.message, refusal.details);
      const principal = await authorizeApi(request);
      // The shared input rule on every path and query parameter, whether or not a schema reads it.
      const rawParams = await context.params;
      checkRaw(rawParams, "params");
      const rawQuery = Object.fromEntries(request.nextUrl.searchParams);
      checkRaw(rawQuery, "query");
      const params = schemas.params ? parse(schemas.params, rawParams, "params") : undefined;
      const query = schemas.query ? parse(schemas.query, rawQuery, "query") : undefined;
      const body = schemas.body
        ? parse(schemas.body, await readJson(request, schemas.maxBodyBytes ?? DEFAULT_MAX_BODY_BYTES), "body")
        : undefined;
      const result = await handler({
        body: body as Parsed<B>,
        query: query as Parsed<Q>,
        params: params as Parsed<P>,
        request,
        principal,
      });
      return result instanceof Response ? result : NextResponse.json(result);
    } catch (error) {
      return errorResponse(toApiError(error));
    }
  }
}

export function withSecurityHeaders(response: Response): Response {
  try {
    for (const [name, value] of Object.entries(SECURITY_HEADERS)) response.headers.set(name, value);
    return response;
  } catch {
    // A Response with immutable headers (e.g. one passed through from fetch): copy it.
    const copy = new Response(response.body, response);
    for (const [name, value] of Object.entries(SECURITY_HEADERS)) copy.headers.set(name, value);
    return copy;
  }
}

function parse<S extends z.ZodType>(schema: S, value: unknown, where: "body" | "query" | "params"): z.output<S> {
  const result = schema.safeParse(value);
  if (!result.success) throw ApiError.validation(result.error, where);
  return result.data;
}

function checkRaw(value: unknown, where: "query" | "params") {
  const problems = findInputProblems(value);
  if (problems.length === 0) return;
  const what = (p: InputProblem) => `${p.path.length ? p.path.join(".") : "(root)"}: ${p.message}`;
  throw new ApiError(422, "validation_failed", `The request ${where} is invalid: ${problems.slice(0, 3).map(what).join("; ")}`, {
    issues: problems.map((p) => ({ path: p.path.map(String), code: "custom", message: p.message })),
  });
}

/**
 * The body as text, refusing more than `maxBytes` with a 413. The bytes are counted as they
 * arrive and the stream is cancelled at the limit, so a chunked body without a length (or one
 * that lies about it) never costs more than `maxBytes` of memory.
 */
export async function readBodyText(request: Request, maxBytes: number): Promise<string> {
  return (await readBodyBytes(request, maxBytes)).toString("utf8");
}

/** The body's bytes as sent, refusing more than `maxBytes` with a 413 (see readBodyText). */
export async function readBodyBytes(request: Request, maxBytes: number): Promise<Buffer> {
  return readCapped(request.body, request.headers.get("content-length"), maxBytes, () => tooLarge(maxBytes));
}

async function readJson(request: NextRequest, maxBytes: number): Promise<unknown> {
  const text = await readBodyText(request, maxBytes);
  if (text.trim() === "") throw ApiError.badJson("the body is empty");
  try {
    return JSON.parse(text);
  } catch (error) {
    throw ApiError.badJson(error instanceof Error ? error.message : String(error));
  }
}

function tooLarge(maxBytes: number) {
  const size = maxBytes >= 1_000_000 ? `${Math.round(maxBytes / 1_000_000)} MB` : `${maxBytes} bytes`;
  return new ApiError(413, "payload_too_large", `The request body is larger than ${size}; send it in smaller batches.`, {
    max_bytes: maxBytes,
  });
}

/**
 * The answer for a method a route does not take: 405 in the envelope, with `Allow` (Next's own
 * 405 has an empty body). Each route file exports it for the methods it lacks.
 */
export function methodNotAllowed(allowed: readonly string[]) {
  return async (request: Request) => {
    const { pathname } = new URL(request.url);
    const allow = [...allowed, ...(allowed.includes("GET") ? ["HEAD"] : [])].join(", ");
    return withSecurityHeaders(
      errorResponse(
        new ApiError(405, "method_not_allowed", `${pathname} does not take ${request.method}; it takes ${allowed.join(", ")}.`, {
          allowed: [...allowed],
        }),
        { allow },
      ),
    );
  };
}

export function toApiError(error: unknown): ApiError {
  if (error instanceof ApiError) return error;
  if (error instanceof StoreError) return new ApiError(error.status, error.code, error.message, error.details);
  if (error instanceof RecallInputError) {
    return new ApiError(422, error.code, error.message, { ...error.details });
  }
  if (error instanceof DatabaseSetupError) {
    return new ApiError(503, "database_unavailable", error.message, { reason: error.code });
  }
  console.error(error);
  return new ApiError(500, "internal_error", "Something went wrong on our side; the server log has the details.");
}
