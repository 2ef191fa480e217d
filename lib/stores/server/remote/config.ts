/**
 * Remote stores (docs/memory-service-api.md): running memory services reached over HTTP, configured by
 * environment and validated at boot.
 *
 * Two forms, which may be combined (names must stay unique):
 *
 * - `REMOTE_STORES`: a JSON array, one object per store:
 *   `[{"name":"prod","base_url":"https://memory.example.com","api_key":"kagura_…",
 *      "context_id":"…","timeout_ms":10000,"label":"Production"}]`
 * - one store by separate variables: `REMOTE_STORE_URL`, `REMOTE_STORE_API_KEY`,
 *   `REMOTE_STORE_CONTEXT_ID`, and optionally `REMOTE_STORE_NAME` (default "remote"),
 *   `REMOTE_STORE_LABEL`, `REMOTE_STORE_TIMEOUT_MS` (default 10000).
 *
 * A bad configuration raises `RemoteStoreConfigError`, whose message is one line naming the
 * variable and the problem. No message ever repeats a configured value other than a store name
 * that already passed validation, so an API key pasted into the wrong field is not echoed either.
 *
 * The API key lives in a private field of `RemoteStoreConfig`: `JSON.stringify`, `String()` and
 * `util.inspect` leave it out. Only `authorizationHeader()` hands it over (to the HTTP client).
 */
import { z } from "zod";
import { CrossBundleError } from "@/lib/errors/cross-bundle";

export const DEFAULT_REMOTE_STORE_NAME = "remote";
export const DEFAULT_REMOTE_TIMEOUT_MS = 10_000;
export const MIN_REMOTE_TIMEOUT_MS = 100;
export const MAX_REMOTE_TIMEOUT_MS = 600_000;
const NAME_MAX = 64;
const LABEL_MAX = 100;
const RESERVED_NAMES = new Set(["embedded"]);

/** A configuration problem a person has to fix; the message is one line. */
export class RemoteStoreConfigError extends CrossBundleError("RemoteStoreConfigError") {
  constructor(
    message: string,
    /** The environment variable at fault, e.g. `REMOTE_STORES` or `REMOTE_STORE_URL`. */
    readonly variable: string,
  ) {
    super(message);
  }
}

/** Where each setting of a store came from, so messages can say which variable to change. */
export interface RemoteStoreSources {
  base_url: string;
  api_key: string;
  context_id: string;
  timeout_ms: string;
}

export interface RemoteStoreSettings {
  name: string;
  label: string;
  /** Service root without a trailing slash, e.g. `https://memory.example.com` (no `/api/v1`). */
  baseUrl: string;
  contextId: string;
  timeoutMs: number;
  apiKey: string;
  sources?: RemoteStoreSources;
}

/** What `JSON.stringify(config)` gives: everything except the key. */
export interface RemoteStorePublicConfig {
  kind: "remote";
  name: string;
  label: string;
  base_url: string;
  context_id: string;
  timeout_ms: number;
}

const INSPECT = Symbol.for("nodejs.util.inspect.custom");

/** One configured remote store. The API key is private and never serialized. */
export class RemoteStoreConfig {
  readonly kind = "remote" as const;
  readonly name: string;
  readonly label: string;
  readonly baseUrl: string;
  readonly contextId: string;
  readonly timeoutMs: number;
  readonly sources: RemoteStoreSources;
  readonly #apiKey: string;

  constructor(settings: RemoteStoreSettings) {
    this.name = settings.name;
    this.label = settings.label;
    this.baseUrl = settings.baseUrl.replace(/\/+$/, "");
    this.contextId = settings.contextId;
    this.timeoutMs = settings.timeoutMs;
    this.sources = settings.sources ?? {
      base_url: "base_url",
      api_key: "api_key",
      context_id: "context_id",
      timeout_ms: "timeout_ms",
    };
    this.#apiKey = settings.apiKey;
  }

  /** The `Authorization` header value. For the HTTP client only: never log or return it. */
  authorizationHeader(): string {
    return `Bearer ${this.#apiKey}`;
  }

  /** `text` with every occurrence of the key replaced (a last line of defence for messages). */
  redact(text: string): string {
    return this.#apiKey.length > 0 ? text.split(this.#apiKey).join("[redacted]") : text;
  }

  toJSON(): RemoteStorePublicConfig {
    return {
      kind: this.kind,
      name: this.name,
      label: this.label,
      base_url: this.baseUrl,
      context_id: this.contextId,
      timeout_ms: this.timeoutMs,
    };
  }

  toString(): string {
    return `RemoteStoreConfig(${this.name} → ${this.baseUrl}, context ${this.contextId})`;
  }

  [INSPECT](): string {
    return this.toString();
  }
}

// ---------------------------------------------------------------------------------------------
// Validation

type Check = { ok: true; value: string } | { ok: false; problem: string };

function checkName(value: string): Check {
  if (value.length === 0) return { ok: false, problem: "is empty" };
  if (value.length > NAME_MAX) return { ok: false, problem: `is longer than ${NAME_MAX} characters` };
  if (!/^[a-z0-9-]+$/.test(value))
    return { ok: false, problem: "may hold only lowercase letters, digits and hyphens ([a-z0-9-]+)" };
  if (RESERVED_NAMES.has(value)) return { ok: false, problem: `must not be "${value}" (that is the built-in store)` };
  return { ok: true, value };
}

function checkBaseUrl(value: string): Check {
  if (value.length === 0) return { ok: false, problem: "is empty" };
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    return { ok: false, problem: "is not a valid URL; expected the memory service's root, e.g. https://memory.example.com" };
  }
  if (url.protocol !== "http:" && url.protocol !== "https:") {
    return { ok: false, problem: "must be an http:// or https:// URL" };
  }
  if (url.username || url.password) {
    return { ok: false, problem: "must not carry credentials; put the key in the API key setting instead" };
  }
  if (url.search || url.hash) return { ok: false, problem: "must not have a query string or fragment" };
  const path = url.pathname.replace(/\/+$/, "");
  if (/\/api\/v1(\/memory)?$/.test(path)) {
    return { ok: false, problem: "must be the service root, without /api/v1 (the client adds /api/v1/memory/…)" };
  }
  return { ok: true, value: `${url.origin}${path}` };
}

function checkApiKey(value: string): Check {
  if (value.length === 0) return { ok: false, problem: "is empty" };
  if (/[\s\u0000-\u001f\u007f]/.test(value))
    return { ok: false, problem: "contains whitespace or control characters; paste the key alone" };
  return { ok: true, value };
}

function checkContextId(value: string): Check {
  if (value.length === 0) return { ok: false, problem: "is empty" };
  if (value.length > 200 || !/^[A-Za-z0-9._:-]+$/.test(value)) {
    return { ok: false, problem: "is not a context id (expected the context's UUID)" };
  }
  return { ok: true, value };
}

function checkLabel(value: string): Check {
  if (value.length === 0) return { ok: false, problem: "is empty" };
  if (value.length > LABEL_MAX) return { ok: false, problem: `is longer than ${LABEL_MAX} characters` };
  return { ok: true, value };
}

function checkTimeout(value: number): { ok: true; value: number } | { ok: false; problem: string } {
  if (!Number.isInteger(value)) return { ok: false, problem: "must be a whole number of milliseconds" };
  if (value < MIN_REMOTE_TIMEOUT_MS || value > MAX_REMOTE_TIMEOUT_MS) {
    return { ok: false, problem: `must be between ${MIN_REMOTE_TIMEOUT_MS} and ${MAX_REMOTE_TIMEOUT_MS} ms` };
  }
  return { ok: true, value };
}

/** Runs a check inside a zod schema; the issue message never includes the value. */
function refined(check: (value: string) => Check) {
  return z
    .string({ error: (issue) => (issue.input === undefined ? "is required" : "must be a string") })
    .transform((s) => s.trim())
    .transform((value, ctx) => {
      const result = check(value);
      if (result.ok) return result.value;
      ctx.addIssue({ code: "custom", message: result.problem });
      return z.NEVER;
    });
}

/** One entry of `REMOTE_STORES`. Unknown keys are errors (a misspelt `api_key` must not pass). */
const RemoteStoreEntrySchema = z.strictObject(
  {
    name: refined(checkName),
    label: refined(checkLabel).optional(),
    base_url: refined(checkBaseUrl),
    api_key: refined(checkApiKey),
    context_id: refined(checkContextId),
    timeout_ms: z
      .number({ error: (issue) => (issue.input === undefined ? "is required" : "must be a number of milliseconds") })
      .transform((value, ctx) => {
        const result = checkTimeout(value);
        if (result.ok) return result.value;
        ctx.addIssue({ code: "custom", message: result.problem });
        return z.NEVER;
      })
      .optional(),
  },
  { error: (issue) => (issue.code === "invalid_type" ? "must be an object" : undefined) },
);

const RemoteStoresSchema = z.array(RemoteStoreEntrySchema, { error: "must be a JSON array of store objects" });

const EXAMPLE = '[{"name":"prod","base_url":"https://memory.example.com","api_key":"kagura_…","context_id":"<context uuid>"}]';

/** zod issues as one line, never including a value. */
function describeIssues(issues: readonly z.core.$ZodIssue[]): string {
  const parts = issues.slice(0, 3).map((issue) => {
    const path = issue.path
      .map((p) => (typeof p === "number" ? `[${p}]` : `.${String(p)}`))
      .join("")
      .replace(/^\./, "");
    let message = issue.message;
    if (issue.code === "unrecognized_keys")
      message = `has unknown key${issue.keys.length > 1 ? "s" : ""} ${issue.keys.join(", ")}`;
    return path ? `${path} ${message}` : message;
  });
  const more = issues.length > 3 ? ` (and ${issues.length - 3} more problems)` : "";
  return parts.join("; ") + more;
}

function fromJson(raw: string): RemoteStoreConfig[] {
  let parsed: unknown;
  try {
    parsed = JSON.parse(raw);
  } catch (error) {
    // JSON.parse's own message quotes the input, which may hold a key: report the position only.
    const position = error instanceof Error ? /position (\d+)/.exec(error.message)?.[1] : undefined;
    throw new RemoteStoreConfigError(
      `REMOTE_STORES is not valid JSON${position ? ` (at character ${position})` : ""}; expected an array like ${EXAMPLE}.`,
      "REMOTE_STORES",
    );
  }
  const result = RemoteStoresSchema.safeParse(parsed);
  if (!result.success) {
    const described = describeIssues(result.error.issues);
    throw new RemoteStoreConfigError(`REMOTE_STORES is invalid: ${described}.`, "REMOTE_STORES");
  }
  return result.data.map(
    (entry, i) =>
      new RemoteStoreConfig({
        name: entry.name,
        label: entry.label ?? entry.name,
        baseUrl: entry.base_url,
        apiKey: entry.api_key,
        contextId: entry.context_id,
        timeoutMs: entry.timeout_ms ?? DEFAULT_REMOTE_TIMEOUT_MS,
        sources: {
          base_url: `REMOTE_STORES[${i}].base_url`,
          api_key: `REMOTE_STORES[${i}].api_key`,
          context_id: `REMOTE_STORES[${i}].context_id`,
          timeout_ms: `REMOTE_STORES[${i}].timeout_ms`,
        },
      }),
  );
}

/** The variables that configure one store without JSON (lib/env.ts lists them with REMOTE_STORES). */
export const REMOTE_STORE_SINGLE_VARS = [
  "REMOTE_STORE_URL",
  "REMOTE_STORE_API_KEY",
  "REMOTE_STORE_CONTEXT_ID",
  "REMOTE_STORE_NAME",
  "REMOTE_STORE_LABEL",
  "REMOTE_STORE_TIMEOUT_MS",
] as const;

function fromSingleVariables(env: Readonly<Record<string, string | undefined>>): RemoteStoreConfig | null {
  const value = (key: (typeof REMOTE_STORE_SINGLE_VARS)[number]) => env[key]?.trim() ?? "";
  const set = REMOTE_STORE_SINGLE_VARS.filter((key) => value(key) !== "");
  if (set.length === 0) return null;

  const required = ["REMOTE_STORE_URL", "REMOTE_STORE_API_KEY", "REMOTE_STORE_CONTEXT_ID"] as const;
  for (const key of required) {
    if (value(key) === "") {
      throw new RemoteStoreConfigError(
        `${key} is not set, but ${set.join(", ")} ${set.length > 1 ? "are" : "is"}: a remote store needs REMOTE_STORE_URL, REMOTE_STORE_API_KEY and REMOTE_STORE_CONTEXT_ID (or unset the other REMOTE_STORE_* variables).`,
        key,
      );
    }
  }
  const need = (key: (typeof REMOTE_STORE_SINGLE_VARS)[number], check: (v: string) => Check): string => {
    const result = check(value(key));
    if (!result.ok) throw new RemoteStoreConfigError(`${key} ${result.problem}.`, key);
    return result.value;
  };
  const name = value("REMOTE_STORE_NAME") ? need("REMOTE_STORE_NAME", checkName) : DEFAULT_REMOTE_STORE_NAME;
  const label = value("REMOTE_STORE_LABEL") ? need("REMOTE_STORE_LABEL", checkLabel) : name;
  let timeoutMs = DEFAULT_REMOTE_TIMEOUT_MS;
  const rawTimeout = value("REMOTE_STORE_TIMEOUT_MS");
  if (rawTimeout) {
    const parsed = /^\d+$/.test(rawTimeout)
      ? checkTimeout(Number(rawTimeout))
      : ({ ok: false, problem: "must be a whole number of milliseconds" } as const);
    if (!parsed.ok) throw new RemoteStoreConfigError(`REMOTE_STORE_TIMEOUT_MS ${parsed.problem}.`, "REMOTE_STORE_TIMEOUT_MS");
    timeoutMs = parsed.value;
  }
  return new RemoteStoreConfig({
    name,
    label,
    baseUrl: need("REMOTE_STORE_URL", checkBaseUrl),
    apiKey: need("REMOTE_STORE_API_KEY", checkApiKey),
    contextId: need("REMOTE_STORE_CONTEXT_ID", checkContextId),
    timeoutMs,
    sources: {
      base_url: "REMOTE_STORE_URL",
      api_key: "REMOTE_STORE_API_KEY",
      context_id: "REMOTE_STORE_CONTEXT_ID",
      timeout_ms: "REMOTE_STORE_TIMEOUT_MS",
    },
  });
}

/**
 * Every remote store the environment configures (`REMOTE_STORES` first, then the single
 * `REMOTE_STORE_*` store), or `[]` when none is.
 * @throws RemoteStoreConfigError with a one-line message naming the variable and the problem.
 */
export function readRemoteStoreConfigs(env: Readonly<Record<string, string | undefined>> = process.env): RemoteStoreConfig[] {
  const raw = env.REMOTE_STORES?.trim();
  const stores = raw ? fromJson(raw) : [];
  const single = fromSingleVariables(env);
  if (single) stores.push(single);

  const seen = new Map<string, string>();
  for (const store of stores) {
    const where = store.sources.base_url === "REMOTE_STORE_URL" ? "REMOTE_STORE_NAME" : "REMOTE_STORES";
    const earlier = seen.get(store.name);
    if (earlier !== undefined) {
      throw new RemoteStoreConfigError(
        `Two remote stores are named "${store.name}" (${earlier} and ${where}); store names must be unique.`,
        where,
      );
    }
    seen.set(store.name, where);
  }
  return stores;
}
