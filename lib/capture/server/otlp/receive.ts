import "server-only";
import type { NextRequest } from "next/server";
import { promisify } from "node:util";
import zlib from "node:zlib";
import { ApiError } from "@/lib/api/errors";
import { readBodyBytes, toApiError } from "@/lib/api/server/route";
import type { RouteScope } from "@/lib/auth/scopes";
import { authorizeApi } from "@/lib/auth/server/authorize";
import { getPrisma } from "@/lib/db/server";
import { captureRecalls, type CapturedRecall } from "@/lib/recall-log/server/ingest";
import { SECURITY_HEADERS, checkCrossSite, checkHost } from "@/lib/security/guard";
import { guardInputOf, serverAllowedHosts } from "@/lib/security/server/hosts";
import { spanToRecall } from "./openinference";
import { emptyTally, recordTallies, serviceName, type ServiceTally } from "./status";
import { decodeJsonExport, decodeProtobufExport, MalformedExport, type DecodedSpan } from "../../otlp/decode";
import { ExportTraceServiceResponse, RpcStatus } from "../../otlp/proto";

/**
 * OTLP/HTTP trace ingestion, `POST /v1/traces` (lib/capture/README.md "Capture from
 * production"), answered as the OTLP specification says ("OTLP/HTTP"): the answer is in the
 * request's encoding (protobuf or JSON); 200 with an ExportTraceServiceResponse whose
 * `partial_success` counts the retriever spans that could not be logged and says why; 400 with
 * a google.rpc.Status for a body that is not an export; 415 for another content type or a
 * content coding other than gzip/deflate; the request guard of /api and, when exposed, an API
 * key (Authorization: Bearer, an ingest or full key) — refusals as Status messages too, since
 * the callers are OTLP exporters.
 */
export const OTLP_MAX_BODY_BYTES = 32_000_000;

type Encoding = "protobuf" | "json";

const CONTENT_TYPES: Record<Encoding, string> = { protobuf: "application/x-protobuf", json: "application/json" };

// google.rpc.Code for each HTTP status this endpoint answers with.
const RPC_CODES: Record<number, number> = { 400: 3, 401: 16, 403: 7, 404: 5, 413: 8, 415: 3, 500: 13, 503: 14 };

export interface ReceiveOutcome {
  /** Retriever spans logged (a span sent again counts here too: it is already logged). */
  recalls: number;
  /** Spans of other kinds, acknowledged and dropped. */
  dropped: number;
  rejected: number;
}

/** `scope`: who may call, as the route file declares it (lib/auth/README.md "Security"). */
export async function receiveTraces(request: NextRequest, scope: RouteScope): Promise<Response> {
  let encoding: Encoding = "json";
  try {
    const input = guardInputOf(request);
    const refusal = checkHost(input.host, serverAllowedHosts()) ?? checkCrossSite(input);
    if (refusal) throw new ApiError(refusal.status, refusal.code, refusal.message, refusal.details);
    const media = encodingOf(request.headers.get("content-type"));
    if (!media) {
      throw new ApiError(
        415,
        "unsupported_media_type",
        "POST /v1/traces takes an OTLP export as application/x-protobuf or application/json.",
      );
    }
    encoding = media;
    await authorizeApi(request, scope);
    const raw = await readBodyBytes(request, OTLP_MAX_BODY_BYTES);
    const body = await decompressed(raw, request.headers.get("content-encoding"));
    const spans = encoding === "protobuf" ? decodeProtobufExport(body) : decodeJsonExport(body.toString("utf8"));
    const { outcome, errors } = await ingestSpans(spans);
    return answer(encoding, 200, exportResponse(encoding, outcome.rejected, errors));
  } catch (error) {
    const failure =
      error instanceof MalformedExport
        ? new ApiError(400, "malformed_export", `The OTLP export could not be read: ${error.message}.`)
        : error instanceof ApiError
          ? error
          : toApiError(error);
    return answer(encoding, failure.status, statusMessage(encoding, failure));
  }
}

/**
 * Logs the retriever spans of an export; the others are counted and dropped. What became of each
 * span is added to the capture-status counters per service (status.ts), since the exporter will
 * not show the answer's partial_success to anyone.
 */
export async function ingestSpans(spans: readonly DecodedSpan[]): Promise<{ outcome: ReceiveOutcome; errors: string[] }> {
  const captured: CapturedRecall[] = [];
  const services: string[] = [];
  const errors: string[] = [];
  const tallies = new Map<string, ServiceTally>();
  const tallyOf = (service: string) => {
    let tally = tallies.get(service);
    if (!tally) tallies.set(service, (tally = emptyTally()));
    return tally;
  };
  const reject = (tally: ServiceTally, code: string, reason: string) => {
    errors.push(reason);
    tally.rejected += 1;
    const seen = tally.reasons.get(code);
    tally.reasons.set(code, { count: (seen?.count ?? 0) + 1, message: reason });
  };
  let dropped = 0;
  for (const span of spans) {
    const service = serviceName(span.resource["service.name"]);
    const tally = tallyOf(service);
    tally.received += 1;
    const outcome = spanToRecall(span);
    if (outcome.kind === "other") {
      dropped += 1;
      continue;
    }
    tally.retrievers += 1;
    if (outcome.kind === "rejected") reject(tally, outcome.code, outcome.reason);
    else {
      const { recall } = outcome;
      services.push(service);
      captured.push({
        source: "otel",
        store: recall.store,
        request: recall.request,
        response: recall.response,
        latency_ms: recall.latency_ms,
        ...(recall.created_at ? { created_at: recall.created_at } : {}),
        trace: recall.trace,
        externalId: `otel:${recall.trace.traceId}:${recall.trace.spanId}`,
        ...(recall.computedConfidence ? { computedConfidence: recall.computedConfidence } : {}),
        ...(recall.notices.length > 0 ? { notices: recall.notices } : {}),
      });
    }
  }
  const prisma = captured.length > 0 || tallies.size > 0 ? await getPrisma() : null;
  const results = captured.length > 0 ? await captureRecalls(prisma!, captured) : [];
  let recalls = 0;
  results.forEach((result, i) => {
    const tally = tallyOf(services[i]!);
    if (result.status === "rejected") {
      const where = result.errors
        .slice(0, 2)
        .map((e) => `${e.path.join(".") || "(root)"}: ${e.message}`)
        .join("; ");
      reject(tally, "invalid_recall", `span ${captured[i]!.trace!.spanId}: ${where}`);
    } else {
      recalls += 1;
      if (result.status === "duplicate") tally.duplicates += 1;
      else tally.logged += 1;
    }
  });
  if (prisma) {
    // The spans are logged whatever happens here: a counter that failed to move must not turn a
    // logged export into an error the exporter would retry (and log twice over).
    try {
      await recordTallies(prisma, tallies);
    } catch (error) {
      console.error(
        `[capture] the capture-status counters were not updated: ${error instanceof Error ? error.message : String(error)}`,
      );
    }
  }
  return { outcome: { recalls, dropped, rejected: errors.length }, errors };
}

function encodingOf(contentType: string | null): Encoding | null {
  const media = (contentType ?? "").split(";")[0]!.trim().toLowerCase();
  if (media === "application/x-protobuf" || media === "application/protobuf") return "protobuf";
  if (media === "application/json") return "json";
  return null;
}

const inflaters: Record<string, (input: Buffer, options: zlib.ZlibOptions) => Promise<Buffer>> = {
  gzip: promisify(zlib.gunzip),
  "x-gzip": promisify(zlib.gunzip),
  deflate: promisify(zlib.inflate),
};

async function decompressed(body: Buffer, encoding: string | null): Promise<Buffer> {
  const coding = (encoding ?? "").trim().toLowerCase();
  if (coding === "" || coding === "identity") return body;
  const inflate = inflaters[coding];
  if (!inflate) {
    throw new ApiError(415, "unsupported_content_encoding", `Content-Encoding "${coding}" is not supported; send gzip or none.`);
  }
  try {
    return await inflate(body, { maxOutputLength: OTLP_MAX_BODY_BYTES });
  } catch (error) {
    if ((error as { code?: string }).code === "ERR_BUFFER_TOO_LARGE") {
      throw new ApiError(
        413,
        "payload_too_large",
        `The export is larger than ${OTLP_MAX_BODY_BYTES / 1_000_000} MB once decompressed; send smaller batches.`,
      );
    }
    throw new MalformedExport(`the body is not valid ${coding}`);
  }
}

const ERRORS_LISTED = 5;

function exportResponse(encoding: Encoding, rejected: number, errors: readonly string[]): Uint8Array | string {
  const errorMessage =
    errors.length === 0
      ? ""
      : `${rejected} retriever span${rejected === 1 ? "" : "s"} could not be logged: ${errors.slice(0, ERRORS_LISTED).join("; ")}${
          errors.length > ERRORS_LISTED ? `; and ${errors.length - ERRORS_LISTED} more` : ""
        }`;
  // A full success leaves partial_success unset (the OTLP specification, "Full Success").
  if (encoding === "json") {
    return JSON.stringify(rejected > 0 ? { partialSuccess: { rejectedSpans: rejected, errorMessage } } : {});
  }
  const message = ExportTraceServiceResponse.create(
    rejected > 0 ? { partialSuccess: { rejectedSpans: rejected, errorMessage } } : {},
  );
  return ExportTraceServiceResponse.encode(message).finish();
}

function statusMessage(encoding: Encoding, error: ApiError): Uint8Array | string {
  const code = RPC_CODES[error.status] ?? 2;
  if (encoding === "json") return JSON.stringify({ code, message: error.message, details: [] });
  return RpcStatus.encode(RpcStatus.create({ code, message: error.message })).finish();
}

function answer(encoding: Encoding, status: number, body: Uint8Array | string): Response {
  const bytes = typeof body === "string" ? Buffer.from(body, "utf8") : Buffer.from(body);
  const headers = new Headers({ "content-type": CONTENT_TYPES[encoding], "content-length": String(bytes.length) });
  for (const [name, value] of Object.entries(SECURITY_HEADERS)) headers.set(name, value);
  return new Response(bytes, { status, headers });
}
