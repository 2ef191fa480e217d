/**
 * A failed exchange with a memory service as a `StoreError` (the remote client, client.ts): the
 * message names the store, its address and the variable to change, never the key or the query.
 */
import { StoreError } from "@/lib/stores/types";
import {
  capitalize,
  MAX_REMOTE_ANSWER_BYTES,
  networkReason,
  oneLine,
  parseEnvelope,
  parseRetryAfter,
  validationErrors,
} from "./answer-reading";
import type { RemoteStoreConfig } from "./config";

/** "the remote store "prod" (https://memory.example.com)". */
export function describeStore(config: RemoteStoreConfig): string {
  return `the remote store "${config.name}" (${config.baseUrl})`;
}

export function tooLarge(config: RemoteStoreConfig, bytes: number): StoreError {
  return new StoreError(
    502,
    "remote_answer_too_large",
    `${capitalize(describeStore(config))} sent an answer larger than ${MAX_REMOTE_ANSWER_BYTES / 1_000_000} MB (${bytes > MAX_REMOTE_ANSWER_BYTES ? "at least " : ""}${(bytes / 1_000_000).toFixed(1)} MB); it was cut off unread. Ask for fewer results (a smaller k) or check the service.`,
    { store: config.name, max_bytes: MAX_REMOTE_ANSWER_BYTES },
  );
}

export function timedOut(config: RemoteStoreConfig, timeoutMs: number, overridden: boolean): StoreError {
  const hint = overridden ? "" : `; raise ${config.sources.timeout_ms} if the service is just slow`;
  return new StoreError(
    504,
    "remote_timeout",
    `${capitalize(describeStore(config))} did not answer within ${timeoutMs} ms${hint}.`,
    {
      store: config.name,
      timeout_ms: timeoutMs,
    },
  );
}

export function unreachable(config: RemoteStoreConfig, error: unknown): StoreError {
  const reason = networkReason(error);
  return new StoreError(
    502,
    "remote_unreachable",
    config.redact(
      `Could not reach ${describeStore(config)}${reason ? ` (${reason})` : ""}: check ${config.sources.base_url} and that the service is running.`,
    ),
    { store: config.name },
  );
}

export function httpError(config: RemoteStoreConfig, response: Response, text: string): StoreError {
  const status = response.status;
  const envelope = parseEnvelope(text);
  const serviceMessage = envelope?.message ? oneLine(config.redact(envelope.message)) : null;
  const said = serviceMessage ? ` The service said: "${serviceMessage}".` : "";
  const details: Record<string, unknown> = {
    store: config.name,
    remote_status: status,
    ...(envelope ? { remote_error: envelope.error } : {}),
  };
  const name = `"${config.name}"`;
  const make = (httpStatus: StoreError["status"], code: string, message: string, extra: Record<string, unknown> = {}) =>
    new StoreError(httpStatus, code, config.redact(message), { ...details, ...extra });

  if (status === 401) {
    return make(
      502,
      "remote_auth_failed",
      `The remote store ${name} rejected its API key (invalid or expired): set a valid key in ${config.sources.api_key}.`,
    );
  }
  if (status === 403) {
    return make(
      502,
      "remote_forbidden",
      `The remote store ${name} refused this API key (403): the key lacks access to this endpoint or workspace (some endpoints accept only a browser session). Use a key with access to context ${config.contextId}.${said}`,
    );
  }
  if (status === 404) {
    // No envelope, or the framework's generic "Not Found" of an unknown route: a wrong address.
    if (!envelope || envelope.message?.trim() === "Not Found") {
      return make(
        502,
        "remote_not_found",
        `${capitalize(describeStore(config))} answered 404 as if the memory API were not at this address: check that ${config.sources.base_url} is the service's root address.`,
      );
    }
    return make(
      502,
      "remote_not_found",
      `The remote store ${name} found no context ${config.contextId}, or this API key has no access to it (the service does not say which): check ${config.sources.context_id} and that the key belongs to the context's workspace.`,
    );
  }
  if (status === 422) {
    const errors = validationErrors(envelope, (s) => config.redact(s));
    const listed =
      errors.length > 0
        ? `: ${errors
            .slice(0, 5)
            .map((e) => (e.loc ? `${e.loc}: ${e.msg}` : e.msg))
            .join("; ")}`
        : serviceMessage
          ? `: ${serviceMessage}`
          : "";
    return make(
      422,
      "remote_rejected",
      `The remote store ${name} rejected the request (422)${listed}.`,
      errors.length > 0 ? { errors } : {},
    );
  }
  const retryAfter = parseRetryAfter(response.headers.get("retry-after"));
  const retry = retryAfter !== null ? ` Retry after ${retryAfter} s.` : "";
  if (status === 429) {
    return make(
      503,
      "remote_rate_limited",
      `The remote store ${name} is rate-limiting this key (429).${retry}${said}`,
      retryAfter !== null ? { retry_after_s: retryAfter } : {},
    );
  }
  if (status === 503) {
    return make(
      503,
      "remote_unavailable",
      `The remote store ${name} is temporarily unavailable (503).${retry}${said}`,
      retryAfter !== null ? { retry_after_s: retryAfter } : {},
    );
  }
  if (status >= 500) {
    return make(502, "remote_error", `The remote store ${name} failed with HTTP ${status}.${said}`);
  }
  if (status >= 300 && status < 400) {
    const location = response.headers.get("location");
    let where = "";
    if (location) {
      try {
        const target = new URL(location, config.baseUrl);
        where = ` to ${target.origin}${target.pathname}`;
      } catch {
        /* an unusable Location: say nothing about it */
      }
    }
    return make(
      502,
      "remote_redirect",
      `${capitalize(describeStore(config))} redirected the request${where} (HTTP ${status}); redirects are not followed so the key is not sent elsewhere: set ${config.sources.base_url} to the final address.`,
    );
  }
  return make(502, "remote_error", `The remote store ${name} answered HTTP ${status}.${said}`);
}
