import { NextResponse, type NextRequest } from "next/server";
import type { z } from "zod";
import type { RouteScope } from "@/lib/auth/scopes";
import { authorizeApi, type Principal } from "@/lib/auth/server/authorize";
import { DatabaseSetupError } from "@/lib/db/server/config";
import { readCapped } from "@/lib/read-capped";
import { RecallInputError } from "@/lib/recall/errors";
import { guardRequest, SECURITY_HEADERS } from "@/lib/security/guard";
import { guardInputOf, serverAllowedHosts } from "@/lib/security/server/hosts";
import { StoreError } from "@/lib/stores/types";
import { findInputProblems, type InputProblem } from "@/lib/validation/input-rules";
import { ApiError, errorResponse } from "../errors";

/**
 * The thin route wrapper every handler goes through: the request guard (Host, cross-site writes,
 * JSON bodies only: lib/security/guard.ts, the page guard's rules, since the root proxy.ts does
 * not see the API), who calls (the method's declared scope, lib/auth/authorize.ts), then parse and
 * validate (JSON body, query string, path params) with zod, call the handler, answer JSON with
 * the security headers; every failure becomes the error envelope with the right status, never a
 * stack trace. docs/ARCHITECTURE.md "Thin handlers" and lib/auth/README.md "Security".
 */
interface RouteSchemas<B extends z.ZodType | undefined, Q extends z.ZodType | undefined, P extends z.ZodType | undefined> {
  body?: B;
  query?: Q;
  params?: P;
  /** Largest accepted body in bytes (413 beyond). */
  maxBodyBytes?: number;
}

type Parsed<S> = S extends z.ZodType ? z.output<S> : undefined;
type Schema = z.ZodType | undefined;

export interface RouteInput<B, Q, P> {
  body: B;
  query: Q;
  params: P;
  request: NextRequest;
  /** Who is calling (lib/auth/authorize.ts): checked before anything is parsed. */
  principal: Principal;
}

type RouteContext = { params: Promise<Record<string, string | string[]>> };
/** Next always passes the context; tests may call a method without one (no path params then). */
export type RouteHandler = (request: NextRequest, context?: RouteContext) => Promise<Response>;

/** One method of a route: who may call it, what it reads, and the handler (lib/auth/scopes.ts RouteScope). */
export interface MethodSpec<B extends Schema, Q extends Schema, P extends Schema> extends RouteSchemas<B, Q, P> {
  scope: RouteScope;
  handler: (input: RouteInput<Parsed<B>, Parsed<Q>, Parsed<P>>) => Promise<unknown>;
}

/**
 * A method that reads its own request (the recall proxy forwards bytes, OTLP takes protobuf and
 * answers in its own format): it runs its own guard and must authorise with the `scope` it is given.
 */
export interface RawMethodSpec {
  scope: RouteScope;
  raw: (request: NextRequest, context: RouteContext & { scope: RouteScope }) => Promise<Response>;
}

type Spec<B extends Schema, Q extends Schema, P extends Schema> = MethodSpec<B, Q, P> | RawMethodSpec;

/** The methods every route answers: those it does not take answer 405 in the envelope. */
export const ROUTE_METHODS = ["GET", "POST", "PUT", "PATCH", "DELETE"] as const;
export type RouteMethod = (typeof ROUTE_METHODS)[number];

/** What a route file's method exports were declared with (app/route-scopes.test.ts reads it). */
const DECLARED = new WeakMap<object, RouteScope | "method_not_allowed">();

/** The declared scope of an exported route method, "method_not_allowed" for an automatic 405, else undefined. */
export function declaredScopeOf(handler: unknown): RouteScope | "method_not_allowed" | undefined {
  return typeof handler === "function" ? DECLARED.get(handler) : undefined;
}

/**
 * A route file's methods, each declaring who may call it (`scope`, required) beside what it reads
 * and its handler; every method of ROUTE_METHODS not given answers 405 with `Allow`. HEAD follows
 * GET (Next runs GET for it) unless given, as OPTIONS is Next's own unless given. Used as
 * `export const { GET, POST, PUT, PATCH, DELETE } = apiRoutes({ GET: { scope: "read", handler } })`.
 */
export function apiRoutes<
  GB extends Schema = undefined,
  GQ extends Schema = undefined,
  GP extends Schema = undefined,
  PB extends Schema = undefined,
  PQ extends Schema = undefined,
  PP extends Schema = undefined,
  UB extends Schema = undefined,
  UQ extends Schema = undefined,
  UP extends Schema = undefined,
  AB extends Schema = undefined,
  AQ extends Schema = undefined,
  AP extends Schema = undefined,
  DB extends Schema = undefined,
  DQ extends Schema = undefined,
  DP extends Schema = undefined,
>(methods: {
  GET?: Spec<GB, GQ, GP>;
  POST?: Spec<PB, PQ, PP>;
  PUT?: Spec<UB, UQ, UP>;
  PATCH?: Spec<AB, AQ, AP>;
  DELETE?: Spec<DB, DQ, DP>;
  HEAD?: RawMethodSpec;
  OPTIONS?: RawMethodSpec;
}): Record<RouteMethod, RouteHandler> & { HEAD?: RouteHandler; OPTIONS?: RouteHandler } {
  // One shape for every method inside: the generics only type each handler's input.
  const loose = methods as unknown as Partial<Record<string, Spec<Schema, Schema, Schema>>>;
  const given = Object.entries(loose).filter((entry): entry is [string, Spec<Schema, Schema, Schema>] => entry[1] !== undefined);
  const allowed = ROUTE_METHODS.filter((method) => loose[method] !== undefined);
  const routes: Partial<Record<string, RouteHandler>> = {};
  for (const method of ROUTE_METHODS) {
    if (loose[method] === undefined) routes[method] = declare(methodNotAllowed(allowed), "method_not_allowed");
  }
  for (const [method, spec] of given) {
    if (!spec.scope) throw new Error(`${method}: a route method must declare its scope (lib/auth/scopes.ts RouteScope).`);
    const scope = spec.scope;
    routes[method] = declare(
      "raw" in spec
        ? (request, context) => spec.raw(request, { params: context?.params ?? NO_PARAMS, scope })
        : async (request, context) => withSecurityHeaders(await run(request, context, scope, spec, spec.handler)),
      scope,
    );
  }
  return routes as Record<RouteMethod, RouteHandler> & { HEAD?: RouteHandler; OPTIONS?: RouteHandler };
}

function declare(handler: RouteHandler, scope: RouteScope | "method_not_allowed"): RouteHandler {
  DECLARED.set(handler, scope);
  return handler;
}

const NO_PARAMS: RouteContext["params"] = Promise.resolve({});

async function run<B extends Schema, Q extends Schema, P extends Schema>(
  request: NextRequest,
  context: RouteContext | undefined,
  scope: RouteScope,
  schemas: RouteSchemas<B, Q, P>,
  handler: (input: RouteInput<Parsed<B>, Parsed<Q>, Parsed<P>>) => Promise<unknown>,
): Promise<Response> {
  try {
    const refusal = guardRequest(guardInputOf(request), serverAllowedHosts());
    if (refusal) throw new ApiError(refusal.status, refusal.code, refusal.message, refusal.details);
    const principal = await authorizeApi(request, scope);
    // The shared input rule on every path and query parameter, whether or not a schema reads it.
    const rawParams = await (context?.params ?? NO_PARAMS);
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

const DEFAULT_MAX_BODY_BYTES = 1_000_000;

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
 * 405 has an empty body). apiRoutes answers it for the methods a route lacks; no guard and no
 * sign-in first, as before, since it reveals nothing the route list does not.
 */
function methodNotAllowed(allowed: readonly string[]) {
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
