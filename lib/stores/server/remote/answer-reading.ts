/**
 * Reading a memory service's answer safely: the body capped while it streams, the error envelope
 * and 422 details parsed without echoing the input, Retry-After, and a network failure in words.
 * Used by the remote client (client.ts); nothing here knows a store's configuration.
 */
import { z } from "zod";
import { readCapped } from "@/lib/read-capped";
import { zodIssuesText } from "@/lib/recall/errors";
import { nullish } from "@/lib/validation/tolerant";

const MESSAGE_MAX = 300;

/** The service's error envelope: `{error, message, details}`. */
const ErrorEnvelopeSchema = z.looseObject({
  error: z.string(),
  message: nullish(z.string()),
  details: nullish(z.record(z.string(), z.unknown())),
});

const ValidationErrorSchema = z.looseObject({
  loc: nullish(z.array(z.union([z.string(), z.number()]))),
  msg: nullish(z.string()),
  type: nullish(z.string()),
});

export function capitalize(text: string): string {
  return text.charAt(0).toUpperCase() + text.slice(1);
}

export function oneLine(text: string): string {
  const flat = text.replace(/\s+/g, " ").trim();
  return flat.length > MESSAGE_MAX ? `${flat.slice(0, MESSAGE_MAX - 1)}…` : flat;
}

export function issueText(issues: readonly z.core.$ZodIssue[]): string {
  return zodIssuesText(issues);
}

export function parseEnvelope(text: string): z.output<typeof ErrorEnvelopeSchema> | null {
  try {
    const parsed = ErrorEnvelopeSchema.safeParse(JSON.parse(text));
    return parsed.success ? parsed.data : null;
  } catch {
    return null;
  }
}

/** `details.errors[{loc, msg, type}]` of a 422, as `loc` text and message (never the input). */
export function validationErrors(
  envelope: z.output<typeof ErrorEnvelopeSchema> | null,
  redact: (s: string) => string,
): { loc: string | null; msg: string; type: string | null }[] {
  const raw = envelope?.details?.errors;
  if (!Array.isArray(raw)) return [];
  const out: { loc: string | null; msg: string; type: string | null }[] = [];
  for (const item of raw) {
    const parsed = ValidationErrorSchema.safeParse(item);
    if (!parsed.success || !parsed.data.msg) continue;
    out.push({
      // FastAPI puts the offending value's name in `loc`, and for a header that can be the value
      // itself ("header.Bearer sk-…"): every part is redacted, and an Authorization value masked.
      loc: parsed.data.loc && parsed.data.loc.length > 0 ? parsed.data.loc.map((part) => locPart(part, redact)).join(".") : null,
      msg: oneLine(redact(parsed.data.msg)),
      type: parsed.data.type ?? null,
    });
  }
  return out;
}

function locPart(part: string | number, redact: (s: string) => string): string {
  const text = redact(String(part));
  return /^(bearer|basic|token)\s/i.test(text) || /\bsk-[A-Za-z0-9_-]{4,}/.test(text) ? "[redacted]" : oneLine(text);
}

/** The most of a remote answer read into memory (a recall page is kilobytes; 200 MB was seen). */
export const MAX_REMOTE_ANSWER_BYTES = 10_000_000;

export class AnswerTooLarge extends Error {
  constructor(readonly bytes: number) {
    super("answer too large");
  }
}

/** The body as text, counted while it streams and cancelled past `max` bytes (lib/read-capped.ts). */
export async function readCappedText(response: Response, max: number): Promise<string> {
  const bytes = await readCapped(response.body, response.headers.get("content-length"), max, (n) => new AnswerTooLarge(n));
  return bytes.toString("utf8");
}

/** Retry-After in seconds: delta-seconds or an HTTP date. */
export function parseRetryAfter(value: string | null): number | null {
  if (!value) return null;
  const trimmed = value.trim();
  if (/^\d+$/.test(trimmed)) return Number(trimmed);
  const at = Date.parse(trimmed);
  if (Number.isNaN(at)) return null;
  return Math.max(0, Math.ceil((at - Date.now()) / 1000));
}

/** Why a connection failed, in words ("connection refused", "host not found"…). */
export function networkReason(error: unknown): string | null {
  const codes: string[] = [];
  let current: unknown = error;
  for (let depth = 0; depth < 5 && current && typeof current === "object"; depth++) {
    const code = (current as { code?: unknown }).code;
    if (typeof code === "string") codes.push(code);
    const errors = (current as { errors?: unknown }).errors; // AggregateError (happy eyeballs)
    if (Array.isArray(errors)) {
      for (const e of errors) {
        const c = (e as { code?: unknown })?.code;
        if (typeof c === "string") codes.push(c);
      }
    }
    current = (current as { cause?: unknown }).cause;
  }
  const known: Record<string, string> = {
    ECONNREFUSED: "connection refused",
    ENOTFOUND: "host not found",
    EAI_AGAIN: "host name lookup failed",
    ECONNRESET: "connection reset",
    EHOSTUNREACH: "host unreachable",
    ENETUNREACH: "network unreachable",
    ETIMEDOUT: "connection timed out",
    EPIPE: "connection closed",
    UND_ERR_SOCKET: "connection closed",
    UND_ERR_CONNECT_TIMEOUT: "connection timed out",
    CERT_HAS_EXPIRED: "TLS certificate expired",
    DEPTH_ZERO_SELF_SIGNED_CERT: "self-signed TLS certificate",
    SELF_SIGNED_CERT_IN_CHAIN: "self-signed TLS certificate",
    UNABLE_TO_VERIFY_LEAF_SIGNATURE: "TLS certificate not trusted",
    ERR_TLS_CERT_ALTNAME_INVALID: "TLS certificate does not match the host",
  };
  for (const code of codes) if (known[code]) return known[code];
  if (codes[0]) return codes[0];
  // No code (e.g. undici's "bad port"): the innermost cause's message, if short.
  const cause = error instanceof Error && error.cause instanceof Error ? error.cause : null;
  return cause && cause.message.length <= 80 ? cause.message : null;
}
