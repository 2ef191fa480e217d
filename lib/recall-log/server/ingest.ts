import type { PrismaClient } from "@prisma/client";
import { randomUUID } from "node:crypto";
import { z } from "zod";
import { itemErrorsFromZod, RecallInputError } from "@/lib/recall/errors";
import type { RecallNotice } from "@/lib/recall/notices";
import { RecallRequestSchema } from "@/lib/recall/schemas";
import type { IngestedSelectorBlock } from "@/lib/recall/selector-block";
import {
  confidenceFromWire,
  decodeSelectorBlock,
  degradedFromWire,
  LenientRecallResponseSchema,
  resultsFromWire,
} from "@/lib/recall/wire";
import { describeProblem, isoDateTimeString, untrustedJsonProblem, withInputRules } from "@/lib/validation/input-rules";
import { insertRecalls, recallRow } from "./repository";
import { unloggedReason } from "../row-guard";
import type { LoggedConfidence, LoggedRequest } from "../types";

/**
 * Ingestion of recalls captured elsewhere (`POST /api/recalls`): each item carries the request
 * and the reference service's `RecallResponse`, optionally the candidate pool and the latency.
 * Items are judged one by one; a bad item never stops the good ones.
 */
export const INGEST_LIMITS = { batch: 1_000, bodyBytes: 16_000_000 } as const;

const CandidateInputSchema = z.strictObject({
  memory_id: z.string().min(1).max(200),
  summary: z.string().max(2_000).nullish(),
  rank: z.number().int().min(1).optional(),
  raw_cosine: z.number().min(-1).max(1).nullish(),
  keyword_score: z.number().nullish(),
  hybrid_score: z.number().nullish(),
  in_pool: z.boolean().optional(),
  returned: z.boolean().optional(),
});

/** One item; the shared input rule covers its pass-through JSON (request, response) too. */
export const IngestItemSchema = withInputRules(
  z.strictObject({
    external_id: z.string().min(1).max(200).nullish(),
    store: z.string().min(1).max(100),
    request: RecallRequestSchema,
    // The selector block is decoded by the one wire rule (dropped with a warning when malformed).
    response: LenientRecallResponseSchema,
    candidates: z.array(CandidateInputSchema).max(1_000).nullish(),
    latency_ms: z.number().min(0).max(3_600_000).nullish(),
    created_at: isoDateTimeString().nullish(),
  }),
);

export const IngestBodySchema = z.strictObject({
  recalls: z.array(z.unknown()).min(1, "recalls is empty").max(INGEST_LIMITS.batch),
});

export type IngestItemResult =
  | { index: number; status: "accepted"; id: string; external_id?: string; warnings?: string[] }
  | { index: number; status: "duplicate"; external_id: string }
  | { index: number; status: "rejected"; external_id?: string; errors: { path: string[]; message: string }[] };

export async function ingestRecalls(
  prisma: PrismaClient,
  items: readonly unknown[],
): Promise<{ results: IngestItemResult[]; accepted: number; duplicates: number; rejected: number }> {
  const results: IngestItemResult[] = new Array(items.length);
  const rows: { index: number; row: ReturnType<typeof recallRow>; warnings: string[] }[] = [];
  const seen = new Map<string, number>();

  items.forEach((item, index) => {
    const rawExternal = (item as { external_id?: unknown } | null)?.external_id;
    const externalHint = typeof rawExternal === "string" ? { external_id: rawExternal } : {};
    const parsed = IngestItemSchema.safeParse(item);
    if (!parsed.success) {
      results[index] = {
        index,
        status: "rejected",
        ...externalHint,
        errors: itemErrorsFromZod(parsed.error.issues),
      };
      return;
    }
    const data = parsed.data;
    const externalId = data.external_id ?? null;
    if (externalId !== null) {
      if (seen.has(externalId)) {
        results[index] = { index, status: "duplicate", external_id: externalId };
        return;
      }
      seen.set(externalId, index);
    }
    try {
      rows.push({ index, ...toRow(data, externalId, { source: "ingest" }) });
    } catch (error) {
      if (!(error instanceof RecallInputError)) throw error;
      results[index] = {
        index,
        status: "rejected",
        ...externalHint,
        errors: error.details.issues.map((i) => ({ path: i.path.map(String), message: i.message })),
      };
    }
  });

  const written = await insertRecalls(
    prisma,
    rows.map((r) => r.row),
  );
  for (const { index, row, warnings } of rows) {
    results[index] = written.has(row.id)
      ? {
          index,
          status: "accepted",
          id: row.id,
          ...(row.externalId ? { external_id: row.externalId } : {}),
          ...(warnings.length > 0 ? { warnings } : {}),
        }
      : { index, status: "duplicate", external_id: row.externalId! };
  }
  const count = (status: IngestItemResult["status"]) => results.filter((r) => r.status === status).length;
  return { results, accepted: count("accepted"), duplicates: count("duplicate"), rejected: count("rejected") };
}

/**
 * A block written under the older rule (before selector truth), read under the one rule (lib/selectors/README.md
 * "Selector truth"): the score gap's `no_clear_gap` kept the whole page, so it ran — applied, 0
 * dropped; `http_<status>` is the one `http_error`. Anything else stands as sent.
 */
export function underOneRule(block: IngestedSelectorBlock | null, pageLength: number): IngestedSelectorBlock | null {
  if (!block || block.applied) return block;
  if (block.reason === "no_clear_gap")
    return { applied: true, model: "score-gap", kept: pageLength, dropped: 0, dropped_memory_ids: [] };
  if (block.reason !== undefined && /^http_\d{3}$/.test(block.reason)) return { applied: false, reason: "http_error" };
  return block;
}

/**
 * A recall captured on the way (lib/capture/README.md "Capture from production"): the recall
 * proxy's (the agent's request and the service's answer) or an OpenTelemetry retriever span's.
 * Judged by the same item schema and the same wire translation as `POST /api/recalls`.
 */
export interface CapturedRecall {
  source: "proxy" | "otel";
  store: string;
  /** A `RecallRequest` as the agent sent it. */
  request: unknown;
  /** A `RecallResponse` as the service answered it (for a span: its results and any stated blocks). */
  response: unknown;
  latency_ms?: number | null;
  created_at?: Date;
  trace?: { traceId: string; spanId: string };
  /** Idempotency key (e.g. `otel:<trace>:<span>`, so an export sent twice is logged once). */
  externalId?: string;
  /**
   * The confidence block when the dashboard computed it (a span that stated none): kept instead
   * of translating a stated one.
   */
  computedConfidence?: LoggedConfidence;
  /** What the capture could not read as sent (an OpenTelemetry span's missing ids or scores), for the recall's notices. */
  notices?: RecallNotice[];
}

export type CaptureResult =
  | { status: "accepted"; id: string; warnings?: string[] }
  | { status: "duplicate" }
  | { status: "rejected"; errors: { path: string[]; message: string }[] };

/** Logs captured recalls in one statement per batch; a bad item is rejected alone, with reasons. */
export async function captureRecalls(prisma: PrismaClient, items: readonly CapturedRecall[]): Promise<CaptureResult[]> {
  const results: CaptureResult[] = new Array(items.length);
  const rows: { index: number; row: ReturnType<typeof recallRow>; warnings: string[] }[] = [];
  const seen = new Set<string>();
  items.forEach((item, index) => {
    if (item.externalId !== undefined) {
      if (seen.has(item.externalId)) {
        results[index] = { status: "duplicate" };
        return;
      }
      seen.add(item.externalId);
    }
    // The rule for untrusted JSON (docs/ARCHITECTURE.md "Bad input") before the schema: an
    // agent's request and a service's answer were written by neither this app nor its user.
    for (const part of ["request", "response"] as const) {
      const problem = untrustedJsonProblem(item[part]);
      if (problem) {
        results[index] = {
          status: "rejected",
          errors: [{ path: [part, ...problem.path.map(String)], message: describeProblem({ ...problem, path: [] }) }],
        };
        return;
      }
    }
    const parsed = IngestItemSchema.safeParse({
      store: item.store,
      request: item.request,
      response: item.response,
      latency_ms: item.latency_ms ?? null,
    });
    if (!parsed.success) {
      results[index] = { status: "rejected", errors: itemErrorsFromZod(parsed.error.issues) };
      return;
    }
    const options = {
      source: item.source,
      ...(item.trace ? { trace: item.trace } : {}),
      ...(item.created_at ? { createdAt: item.created_at } : {}),
      ...(item.computedConfidence ? { confidence: item.computedConfidence } : {}),
      ...(item.notices ? { notices: item.notices } : {}),
    };
    try {
      rows.push({ index, ...toRow(parsed.data, item.externalId ?? null, options) });
    } catch (error) {
      if (!(error instanceof RecallInputError)) throw error;
      results[index] = {
        status: "rejected",
        errors: error.details.issues.map((i) => ({ path: i.path.map(String), message: i.message })),
      };
    }
  });
  const written = await insertRecalls(
    prisma,
    rows.map((r) => r.row),
  );
  for (const { index, row, warnings } of rows) {
    results[index] = written.has(row.id)
      ? { status: "accepted", id: row.id, ...(warnings.length > 0 ? { warnings } : {}) }
      : { status: "duplicate" };
  }
  return results;
}

/** The request as the log keeps it, from a captured `RecallRequest` and the answer's selector block. */
function loggedRequestOf(
  store: string,
  request: z.output<typeof RecallRequestSchema>,
  selector: IngestedSelectorBlock | null,
): LoggedRequest {
  return {
    store,
    query: request.query,
    k: request.k,
    // The service resolves an unset mode to hybrid.
    search_mode: request.search_mode ?? "hybrid",
    ...(request.search_mode == null ? { search_mode_auto: true as const } : {}),
    use_rerank: request.use_rerank,
    selector:
      !selector || (!selector.applied && selector.reason === "disabled")
        ? "off"
        : selector.applied && selector.model === "score-gap"
          ? "gap"
          : "llm",
    ...(request.filters ? { filters: request.filters as Record<string, unknown> } : {}),
  };
}

/**
 * A captured recall whose request was read but whose answer could not be (too large to inspect,
 * not JSON, not a RecallResponse, against the input rule): logged as a failed recall with the
 * reason, from the request alone, so it shows in History instead of vanishing.
 */
export interface FailedCapture {
  source: "proxy";
  store: string;
  /** A `RecallRequest` as the agent sent it. */
  request: unknown;
  /** Why the answer was not read: a code, one line a person can act on, the status it maps to. */
  failure: { code: string; message: string; status: number };
  latency_ms?: number | null;
}

const FailedCaptureSchema = withInputRules(
  z.strictObject({
    store: z.string().min(1).max(100),
    request: RecallRequestSchema,
    latency_ms: z.number().min(0).max(3_600_000).nullish(),
  }),
);

/** Logs one failed captured recall; rejected (with reasons) when its request is not a RecallRequest. */
export async function captureFailedRecall(prisma: PrismaClient, item: FailedCapture): Promise<CaptureResult> {
  const parsed = FailedCaptureSchema.safeParse({ store: item.store, request: item.request, latency_ms: item.latency_ms ?? null });
  if (!parsed.success) return { status: "rejected", errors: itemErrorsFromZod(parsed.error.issues) };
  const row = recallRow({
    id: randomUUID(),
    createdAt: new Date(),
    source: item.source,
    request: loggedRequestOf(parsed.data.store, parsed.data.request, null),
    latencyMs: parsed.data.latency_ms ?? null,
    error: item.failure,
  });
  const written = await insertRecalls(prisma, [row]);
  return written.has(row.id) ? { status: "accepted", id: row.id } : { status: "duplicate" };
}

interface RowOptions {
  source: "ingest" | "proxy" | "otel";
  trace?: { traceId: string; spanId: string };
  createdAt?: Date;
  /** A block computed here, used instead of the response's. */
  confidence?: LoggedConfidence;
  notices?: RecallNotice[];
}

function toRow(data: z.output<typeof IngestItemSchema>, externalId: string | null, options: RowOptions) {
  const { request, response } = data;
  const degraded = degradedFromWire(response);
  const decoded = decodeSelectorBlock(response.selector);
  const warnings = decoded.warnings;
  const selector = underOneRule(decoded.selector, response.results.length);
  const droppedIds = new Set(selector?.applied ? (selector.dropped_memory_ids ?? []) : []);
  const requestView = loggedRequestOf(data.store, request, selector);
  const id = randomUUID();
  const candidates = data.candidates
    ? data.candidates.map((c, i) => ({
        memory_id: c.memory_id,
        summary: c.summary ?? null,
        rank: c.rank ?? i + 1,
        raw_cosine: c.raw_cosine ?? null,
        keyword_score: c.keyword_score ?? null,
        hybrid_score: c.hybrid_score ?? null,
        in_pool: c.in_pool ?? true,
        // The page the selector was given: what the service returned plus what its selector removed.
        returned: c.returned ?? (droppedIds.has(c.memory_id) || response.results.some((r) => r.memory_id === c.memory_id)),
      }))
    : null;
  if (candidates && new Set(candidates.map((c) => c.rank)).size !== candidates.length) {
    throw new RecallInputError("invalid_argument", "candidate ranks repeat", [
      { path: ["candidates"], message: "each candidate needs its own rank" },
    ]);
  }
  const row = recallRow({
    id,
    createdAt: data.created_at ? new Date(data.created_at) : (options.createdAt ?? new Date()),
    source: options.source,
    externalId,
    trace: options.trace ?? null,
    request: requestView,
    latencyMs: data.latency_ms ?? null,
    outcome: {
      results: resultsFromWire(response.results),
      confidence:
        options.confidence ??
        (response.confidence
          ? confidenceFromWire(response.confidence, { degraded: degraded !== undefined, searchMode: requestView.search_mode })
          : null),
      selector,
      candidates,
      timings: {},
      degraded,
      ...(options.notices ? { notices: options.notices } : {}),
    },
  });
  // A value the log's last guard refused (row-guard.ts) rejects the item rather than logging a failure nobody ran.
  const refused = unloggedReason(row);
  if (refused) throw new RecallInputError("invalid_argument", refused.message, [{ path: [], message: refused.message }]);
  return { row, warnings };
}
