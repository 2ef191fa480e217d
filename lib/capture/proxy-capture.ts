import "server-only";
import { promisify } from "node:util";
import zlib from "node:zlib";
import { getPrisma } from "@/lib/db";
import { captureRecalls } from "@/lib/recall-log/ingest";

/**
 * What the recall proxy logs (docs/ARCHITECTURE.md "Capture from production"): a successful REST
 * recall (`POST /api/v1/memory/recall`, docs/memory-service-api.md "Endpoints") becomes a logged
 * recall with source "proxy" — the agent's request and the service's answer through the one
 * wire translation, as `POST /api/recalls` would log them. Every other call passes unlogged.
 * Runs after the answer has gone to the agent; any problem is a warning, never the agent's.
 */
export const RECALL_PATH = "/api/v1/memory/recall";

/** The most of an answer copied for logging (a recall page is kilobytes). */
export const MAX_CAPTURE_BYTES = 10_000_000;

export function isRecallCall(method: string, path: string): boolean {
  return method.toUpperCase() === "POST" && path.replace(/\/+$/, "") === RECALL_PATH;
}

export interface ProxiedRecall {
  store: string;
  requestBody: Buffer;
  status: number;
  contentType: string | null;
  contentEncoding: string | null;
  /** The answer's bytes as sent (null when too large to copy). */
  responseBody: Buffer | null;
  latencyMs: number;
}

const decoders: Record<string, (input: Buffer) => Promise<Buffer>> = {
  gzip: promisify(zlib.gunzip),
  "x-gzip": promisify(zlib.gunzip),
  deflate: promisify(zlib.inflate),
  br: promisify(zlib.brotliDecompress),
};

async function decoded(body: Buffer, encoding: string | null): Promise<Buffer | null> {
  // "gzip, br" means gzip first, then br: undo them last to first.
  const codings = (encoding ?? "")
    .split(",")
    .map((c) => c.trim().toLowerCase())
    .filter((c) => c !== "" && c !== "identity");
  let out = body;
  for (const coding of codings.reverse()) {
    const decode = decoders[coding];
    if (!decode) return null;
    out = await decode(out);
  }
  return out;
}

function parseJson(bytes: Buffer): unknown {
  try {
    return JSON.parse(bytes.toString("utf8"));
  } catch {
    return undefined;
  }
}

/** Logs one proxied recall; resolves to why it was not logged, or null when it was. */
export async function captureProxiedRecall(call: ProxiedRecall): Promise<string | null> {
  const skip = (why: string) => {
    console.warn(`recall proxy: a recall through store "${call.store}" was not logged: ${why}`);
    return why;
  };
  // The service's own faults pass through to the agent; the log keeps recalls that were answered.
  if (call.status < 200 || call.status >= 300) return null;
  if (!call.responseBody) return skip("the answer was too large to copy");
  if (call.contentType && !/json/i.test(call.contentType)) return skip("the answer is not JSON");
  const body = await decoded(call.responseBody, call.contentEncoding).catch(() => null);
  if (!body) return skip("the answer's content encoding could not be undone");
  const request = parseJson(call.requestBody);
  const response = parseJson(body);
  if (request === undefined || response === undefined) return skip("the request or the answer is not JSON");
  const [result] = await captureRecalls(await getPrisma(), [
    { source: "proxy", store: call.store, request, response, latency_ms: Math.round(call.latencyMs * 1000) / 1000 },
  ]);
  if (result?.status === "rejected") {
    // Paths and zod's words only: never a value from the request or the answer.
    const where = result.errors
      .slice(0, 3)
      .map((e) => e.path.join(".") || "(root)")
      .join(", ");
    return skip(`it does not read as a RecallRequest and RecallResponse (at ${where})`);
  }
  return null;
}
