/**
 * OpenInference retriever spans as logged recalls (lib/capture/README.md "Capture from
 * production"). Pure. A span whose `openinference.span.kind` is RETRIEVER is a recall: the query
 * is `input.value`, the results are its documents as `documents.ts` reads them (attributes,
 * metadata, `output.value`). Every other span is acknowledged and dropped.
 *
 * A retriever span is refused only when it cannot be a recall at all: no trace or span id, no
 * query. Everything else that is missing or unreadable (ids, scores, a block) is logged anyway and
 * said in the recall's `notices`.
 *
 * The confidence block: a span that carries a memory service's blocks keeps them as stated —
 * `recall.confidence` / `recall.selector` (JSON text), or an `output.value` that is the
 * service's RecallResponse JSON. Otherwise, when every document has a score, the block is
 * computed here from them by the fallback rules (the only rules that need nothing but scores)
 * and marked `computed_from: "scores"`; with a score missing there is not enough signal for a
 * level, and the recall has no block.
 */
import type { RecallNotice } from "@/lib/recall/notices";
import { RecallConfidenceSchema } from "@/lib/recall/schemas";
import { confidenceFromScores, type LoggedConfidence } from "@/lib/recall/wire";
import { replaceBadText } from "@/lib/validation/input-rules";
import { ID_KEYS, readDocuments, type SpanDocument } from "./documents";
import type { AttributeValue, DecodedSpan } from "../../otlp/decode";

export const SPAN_KIND_ATTRIBUTE = "openinference.span.kind";
/** Where a span names the store it recalled from; else the resource's service.name, else "otel". */
export const STORE_ATTRIBUTE = "recall.store";
export const CONFIDENCE_ATTRIBUTE = "recall.confidence";
export const SELECTOR_ATTRIBUTE = "recall.selector";
export const DEFAULT_OTEL_STORE = "otel";

/** Results beyond this are not kept (a recall asks for at most 100). */
export const MAX_DOCUMENTS = 100;
const SUMMARY_MAX = 2_000;
const STORE_MAX = 100;

export interface SpanRecall {
  store: string;
  request: { query: string; k: number };
  response: Record<string, unknown>;
  latency_ms: number | null;
  created_at: Date | null;
  trace: { traceId: string; spanId: string };
  computedConfidence?: LoggedConfidence;
  /** What the span did not say where OpenInference puts it (ids found elsewhere or made, scores missing, values unread). */
  notices: RecallNotice[];
}

/** Why a retriever span could not be logged, as a code (counted on the capture-status page) and a sentence. */
export type RejectionCode = "no_trace_id" | "no_span_id" | "no_query" | "invalid_recall";

export type SpanOutcome =
  { kind: "recall"; recall: SpanRecall } | { kind: "other" } | { kind: "rejected"; code: RejectionCode; reason: string };

export function isRetrieverSpan(span: DecodedSpan): boolean {
  const kind = span.attributes[SPAN_KIND_ATTRIBUTE];
  return typeof kind === "string" && kind.trim().toUpperCase() === "RETRIEVER";
}

export function spanToRecall(span: DecodedSpan): SpanOutcome {
  if (!isRetrieverSpan(span)) return { kind: "other" };
  const named = `span ${span.spanId ?? "(no id)"}`;
  const reject = (code: RejectionCode, reason: string): SpanOutcome => ({
    kind: "rejected",
    code,
    reason: `${named}: ${reason}`,
  });
  if (!span.traceId) return reject("no_trace_id", "traceId is missing or not 16 bytes");
  if (!span.spanId) return reject("no_span_id", "spanId is missing or not 8 bytes");

  const query = queryOf(span.attributes["input.value"], span.attributes["input.mime_type"]);
  if (query === null) return reject("no_query", "input.value (the query) is missing or empty");

  const read = readDocuments(span.attributes);
  const unread = [...read.notes.unread];
  // Text PostgreSQL cannot store (NUL, an unpaired surrogate — what an attribute limit cutting a
  // string in a surrogate pair leaves) is replaced, and said; docs/ARCHITECTURE.md "Bad input".
  const replaced = new Set<string>();
  const clean = (text: string, where: string) => {
    const fixed = replaceBadText(text);
    if (fixed !== text) replaced.add(where);
    return fixed;
  };
  const documents = read.documents.slice(0, MAX_DOCUMENTS).map((d) => ({ ...d, id: clean(d.id, "a document id") }));
  const results = documents.map((d) => ({
    memory_id: d.id,
    summary: clean(
      d.content.length > SUMMARY_MAX ? `${d.content.slice(0, SUMMARY_MAX - 1)}…` : d.content,
      "a document's content",
    ),
    ...(d.score !== null ? { score: d.score } : {}),
  }));
  const cleanQuery = clean(query, "the query");
  for (const where of replaced) unread.push(`${where} held a NUL or an unpaired surrogate, replaced by U+FFFD`);
  const stated = statedBlocks(span.attributes, unread);
  const response: Record<string, unknown> = { results, related_tags: [] };
  if (stated.confidence !== undefined) response.confidence = stated.confidence;
  if (stated.selector !== undefined) response.selector = stated.selector;
  if (stated.degraded !== undefined) response.degraded = stated.degraded;
  if (stated.degraded_reason !== undefined) response.degraded_reason = stated.degraded_reason;

  const start = nanosToMs(span.startTimeUnixNano);
  const end = nanosToMs(span.endTimeUnixNano);
  const unscored = documents.filter((d) => d.score === null).length;
  const recall: SpanRecall = {
    store: storeOf(span),
    request: { query: cleanQuery, k: Math.min(MAX_DOCUMENTS, Math.max(1, documents.length)) },
    response,
    latency_ms: start !== null && end !== null && end >= start ? Math.round((end - start) * 1000) / 1000 : null,
    created_at: start !== null && start > 0 && start < 253_402_300_800_000 ? new Date(start) : null,
    trace: { traceId: span.traceId, spanId: span.spanId },
    notices: spanNotices(documents, unscored, stated.confidence !== undefined, unread, read.documents.length),
  };
  if (stated.confidence === undefined && unscored === 0) {
    recall.computedConfidence = confidenceFromScores(documents.map((d) => d.score as number));
  }
  return { kind: "recall", recall };
}

/** Notices at most listed of a kind's examples (ids, unread values). */
const EXAMPLES = 5;

function listed(items: readonly string[]): string {
  const shown = items.slice(0, EXAMPLES).join("; ");
  return items.length > EXAMPLES ? `${shown}; and ${items.length - EXAMPLES} more` : shown;
}

/** What a person reading the recall should know about how its documents were read. */
function spanNotices(
  documents: readonly SpanDocument[],
  unscored: number,
  statedBlock: boolean,
  unread: readonly string[],
  total: number,
): RecallNotice[] {
  const notices: RecallNotice[] = [];
  const bySource = new Map<string, number>();
  for (const d of documents) {
    if (d.idSource === "attribute" || d.idSource === "content_hash") continue;
    bySource.set(d.idSource, (bySource.get(d.idSource) ?? 0) + 1);
  }
  if (bySource.size > 0) {
    const where = [...bySource].map(
      ([source, n]) => `${n} from ${source === "output.value" ? "output.value" : `the metadata's "${source.slice(9)}"`}`,
    );
    notices.push({
      kind: "span_ids_derived",
      message: `The span did not carry retrieval.documents.N.document.id; the ids were read elsewhere: ${where.join(", ")}.`,
    });
  }
  const made = documents.filter((d) => d.idSource === "content_hash");
  if (made.length > 0) {
    notices.push({
      kind: "span_ids_generated",
      ...(made.length === 1 ? { memory_id: made[0]!.id } : {}),
      message:
        `${made.length} document${made.length === 1 ? "" : "s"} carried no id (not in document.id, the metadata's ${ID_KEYS.join("/")}, nor output.value): ` +
        `logged under an id made from the content ("content:" and the first 16 hex digits of its SHA-256, the same for the same text): ${listed(made.map((d) => d.id))}.`,
    });
  }
  if (unscored > 0) {
    notices.push({
      kind: "span_scores_missing",
      message:
        `The span carried no score for ${unscored} of ${documents.length} document${documents.length === 1 ? "" : "s"}: the results are in the retriever's order` +
        (statedBlock
          ? ", and the level is the one the span stated."
          : "; without every score there is not enough signal for a level, so none was computed."),
    });
  }
  const left =
    total > MAX_DOCUMENTS
      ? [...unread, `${total - MAX_DOCUMENTS} documents past the first ${MAX_DOCUMENTS} were not kept`]
      : unread;
  if (left.length > 0) {
    notices.push({ kind: "span_unread", message: `Parts of the span could not be read as sent: ${listed(left)}.` });
  }
  return notices;
}

function queryOf(value: AttributeValue | undefined, mime: AttributeValue | undefined): string | null {
  if (typeof value !== "string" || value.trim() === "") return null;
  // An instrumentation that records the retriever's input as JSON ({"query": …}) is read through.
  if (mime === "application/json" || value.trimStart().startsWith("{")) {
    try {
      const parsed: unknown = JSON.parse(value);
      if (parsed && typeof parsed === "object" && !Array.isArray(parsed)) {
        const q = (parsed as Record<string, unknown>).query ?? (parsed as Record<string, unknown>).query_str;
        if (typeof q === "string" && q.trim() !== "") return q.slice(0, 8000);
      }
    } catch {
      /* plain text that starts with "{" */
    }
  }
  return value.slice(0, 8000);
}

interface StatedBlocks {
  confidence?: unknown;
  selector?: unknown;
  degraded?: unknown;
  degraded_reason?: unknown;
}

/**
 * A memory service's blocks the span carries, as stated. One that is there but unreadable (not
 * JSON, not a confidence block) is left out and said in `unread`: the recall is still logged.
 */
function statedBlocks(attributes: Record<string, AttributeValue>, unread: string[]): StatedBlocks {
  const out: StatedBlocks = {};
  const output = attributes["output.value"];
  if (typeof output === "string" && output.trimStart().startsWith("{")) {
    try {
      const parsed: unknown = JSON.parse(output);
      if (parsed && typeof parsed === "object" && !Array.isArray(parsed)) {
        const answer = parsed as Record<string, unknown>;
        for (const key of ["confidence", "selector", "degraded", "degraded_reason"] as const) {
          if (answer[key] !== undefined && answer[key] !== null) out[key] = answer[key];
        }
      }
    } catch {
      /* an output that is not the service's answer: nothing stated */
    }
  }
  for (const [attribute, key] of [
    [CONFIDENCE_ATTRIBUTE, "confidence"],
    [SELECTOR_ATTRIBUTE, "selector"],
  ] as const) {
    const value = attributes[attribute];
    if (value === undefined || value === null) continue;
    if (typeof value === "object") {
      out[key] = value;
      continue;
    }
    if (typeof value !== "string") {
      unread.push(`${attribute} is not a JSON object`);
      continue;
    }
    try {
      out[key] = JSON.parse(value);
    } catch {
      unread.push(`${attribute} is not JSON`);
    }
  }
  // A stated confidence block the wire schema refuses would sink the whole recall; the selector
  // block has its own rule for that (lib/recall/wire.ts decodeSelectorBlock).
  if (out.confidence !== undefined && !RecallConfidenceSchema.safeParse(out.confidence).success) {
    unread.push("the stated confidence block is not a RecallConfidence");
    delete out.confidence;
  }
  for (const key of ["degraded", "degraded_reason"] as const) {
    const expected = key === "degraded" ? "boolean" : "string";
    if (out[key] !== undefined && typeof out[key] !== expected) {
      unread.push(`output.value's ${key} is not a ${expected}`);
      delete out[key];
    }
  }
  return out;
}

function storeOf(span: DecodedSpan): string {
  const named = span.attributes[STORE_ATTRIBUTE] ?? span.resource["service.name"];
  const store = typeof named === "string" ? named.trim() : "";
  return store === "" ? DEFAULT_OTEL_STORE : replaceBadText(store.slice(0, STORE_MAX));
}

/** Nanoseconds (decimal text) → milliseconds, or null for 0/unset. */
function nanosToMs(nanos: string): number | null {
  if (nanos === "0" || nanos === "") return null;
  const value = BigInt(nanos);
  return Number(value / 1000n) / 1000;
}
