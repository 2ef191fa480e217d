/**
 * The one way client code calls the dashboard's own API: JSON in, JSON out, and a failure
 * becomes an `ApiRequestError` carrying the error envelope's message (docs/ARCHITECTURE.md "Thin handlers"), so a
 * component can show something a person can act on instead of "Failed to fetch".
 */
import { apiErrorWords } from "@/lib/errors/api-error-words";

export class ApiRequestError extends Error {
  override readonly name = "ApiRequestError";
  constructor(
    message: string,
    /** HTTP status; 0 when the server could not be reached at all. */
    readonly status: number,
    /** The envelope's machine code (`not_found`, `validation_failed`, …) or one of ours. */
    readonly code: string,
    readonly details: Record<string, unknown> = {},
  ) {
    super(message);
  }
}

/** The init of a request that sends `body` as JSON (spread it to add a signal). */
export function jsonRequest(method: "POST" | "PUT" | "PATCH", body: unknown): RequestInit {
  return { method, headers: { "Content-Type": "application/json" }, body: JSON.stringify(body) };
}

interface Envelope {
  error: string;
  message: string;
  details?: Record<string, unknown>;
}

function isEnvelope(value: unknown): value is Envelope {
  if (typeof value !== "object" || value === null) return false;
  const v = value as Record<string, unknown>;
  return typeof v.error === "string" && typeof v.message === "string";
}

export async function fetchJson<T>(url: string, init: RequestInit = {}): Promise<T> {
  const headers = new Headers(init.headers);
  if (!headers.has("Accept")) headers.set("Accept", "application/json");

  let response: Response;
  try {
    response = await fetch(url, { ...init, headers });
  } catch (error) {
    // An abort is TanStack Query cancelling a stale request: let it through untouched.
    if (init.signal?.aborted) throw error;
    throw new ApiRequestError(
      "Could not reach the dashboard's server. Check that it is still running, then try again.",
      0,
      "network_error",
    );
  }

  const text = await response.text();
  let body: unknown;
  let parsed = false;
  if (text.trim() !== "") {
    try {
      body = JSON.parse(text);
      parsed = true;
    } catch {
      // Not JSON (a proxy's HTML page, a crash before the handler ran): reported below.
    }
  }

  if (!response.ok) {
    if (isEnvelope(body)) throw new ApiRequestError(body.message, response.status, body.error, body.details ?? {});
    const status = `${response.status}${response.statusText ? ` ${response.statusText}` : ""}`;
    throw new ApiRequestError(`The server answered ${status} without an explanation.`, response.status, "http_error");
  }
  if (!parsed) {
    throw new ApiRequestError(`The server answered ${response.status} but not with JSON.`, response.status, "bad_response");
  }
  return body as T;
}

/**
 * A message for any thrown value, for showing in the UI: an API failure in words a person can act
 * on (lib/errors/api-error-words.ts), not the envelope's message for API callers.
 */
export function errorMessage(error: unknown): string {
  return apiErrorWords(error).sentence;
}
