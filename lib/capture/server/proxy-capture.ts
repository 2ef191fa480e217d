import "server-only";
import { getPrisma } from "@/lib/db/server";
import { zodIssuesText } from "@/lib/recall/errors";
import { captureFailedRecall, captureRecalls } from "@/lib/recall-log/server/ingest";
import { MAX_REMOTE_ANSWER_BYTES } from "@/lib/stores/server/remote/answer-reading";

/**
 * What the recall proxy logs (lib/capture/README.md "Capture from production"): a successful REST
 * recall (docs/memory-service-api.md "Recall: POST /api/v1/memory/recall") becomes a logged
 * recall with source "proxy" — the agent's request and the service's answer through the one
 * wire translation, as `POST /api/recalls` would log them. An answer that cannot be read (too
 * large to inspect, not JSON, not a RecallResponse, against the rule for untrusted JSON) is
 * logged as a failed recall with the reason, as the remote store logs it. Every other call passes
 * unlogged. Runs after the answer has gone to the agent; any problem is a warning, never the agent's.
 */
export const RECALL_PATH = "/api/v1/memory/recall";

/**
 * The most of an answer (decoded) copied for logging: the cap a memory service's answer has when
 * the remote store reads it, so an answer the remote store would refuse is not read here either.
 */
export const MAX_CAPTURE_BYTES = MAX_REMOTE_ANSWER_BYTES;

export function isRecallCall(method: string, path: string): boolean {
  return method.toUpperCase() === "POST" && path.replace(/\/+$/, "") === RECALL_PATH;
}

export interface ProxiedRecall {
  store: string;
  requestBody: Buffer;
  status: number;
  contentType: string | null;
  /** The answer's bytes as the agent got them, content codings undone (null when over MAX_CAPTURE_BYTES). */
  responseBody: Buffer | null;
  latencyMs: number;
}

function parseJson(bytes: Buffer): unknown {
  try {
    return JSON.parse(bytes.toString("utf8"));
  } catch {
    return undefined;
  }
}

/**
 * Text from an answer's shape (paths, keys) made safe to store and to print: no control
 * characters, no unpaired surrogates, at most `max` characters.
 */
function printable(text: string, max = 400): string {
  const clean = text
    .replace(/[\u0000-\u001f\u007f]/g, " ")
    .replace(/[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g, "\uFFFD");
  return clean.length > max ? `${clean.slice(0, max - 1)}…` : clean;
}

/** Logs one proxied recall; resolves to why it was not logged as answered, or null when it was. */
export async function captureProxiedRecall(call: ProxiedRecall): Promise<string | null> {
  const warn = (why: string) => {
    console.warn(`recall proxy: a recall through store "${call.store}" was not logged: ${why}`);
    return why;
  };
  // The service's own faults pass through to the agent; the log keeps recalls that were answered.
  if (call.status < 200 || call.status >= 300) return null;
  const request = parseJson(call.requestBody);
  if (request === undefined) return warn("the request is not JSON");
  const latency_ms = Math.round(call.latencyMs * 1000) / 1000;
  const service = "The memory service";

  const failed = async (code: string, message: string) => {
    const result = await captureFailedRecall(await getPrisma(), {
      source: "proxy",
      store: call.store,
      request,
      latency_ms,
      failure: { code, status: 502, message: printable(message, 600) },
    });
    // A request that is not a RecallRequest cannot be logged at all: say why, in paths only.
    if (result.status === "rejected") return warn(`${message} (and the request does not read as a RecallRequest)`);
    return message;
  };

  if (!call.responseBody) {
    return failed(
      "remote_answer_too_large",
      `Answer too large to inspect: the memory service's answer was over ${MAX_CAPTURE_BYTES / 1_000_000} MB once decoded. The agent got all of it; the dashboard did not read it.`,
    );
  }
  if (call.contentType && !/json/i.test(call.contentType)) {
    return failed("remote_bad_response", `${service} answered the recall with a body that is not JSON (by its Content-Type).`);
  }
  const response = parseJson(call.responseBody);
  if (response === undefined)
    return failed("remote_bad_response", `${service} answered the recall with a body that is not JSON.`);

  const [result] = await captureRecalls(await getPrisma(), [
    { source: "proxy", store: call.store, request, response, latency_ms },
  ]);
  if (result?.status !== "rejected") return null;
  // Zod's words and the paths only (never a value from the request or the answer).
  const issues = result.errors.map((e) => ({ path: e.path.map((p) => (/^\d+$/.test(p) ? Number(p) : p)), message: e.message }));
  const inRequest = issues.filter((i) => i.path[0] !== "response");
  if (inRequest.length > 0) {
    return warn(printable(`the request does not read as a RecallRequest (${zodIssuesText(inRequest)})`));
  }
  const inAnswer = issues.map((i) => ({ ...i, path: i.path.slice(1) }));
  return failed(
    "remote_bad_response",
    `${service} answered with something that is not a RecallResponse (${zodIssuesText(inAnswer)}).`,
  );
}
