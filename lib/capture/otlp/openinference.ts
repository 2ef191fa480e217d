/**
 * OpenInference retriever spans as logged recalls (docs/ARCHITECTURE.md "Capture from
 * production"). Pure. A span whose `openinference.span.kind` is RETRIEVER is a recall: the query
 * is `input.value`, the results are `retrieval.documents.{i}.document.{id,content,score}`.
 * Every other span is acknowledged and dropped.
 *
 * The confidence block: a span that carries a memory service's blocks keeps them as stated —
 * `recall.confidence` / `recall.selector` (JSON text), or an `output.value` that is the
 * service's RecallResponse JSON. Otherwise the block is computed here from the result scores by
 * the fallback rules (the only rules that need nothing but scores) and marked
 * `computed_from: "scores"`.
 */
import { computeConfidence } from "@/lib/recall/confidence";
import { DEFAULT_THRESHOLDS } from "@/lib/recall/thresholds";
import type { LoggedConfidence } from "@/lib/recall/wire";
import type { AttributeValue, DecodedSpan } from "./decode";

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
}

export type SpanOutcome = { kind: "recall"; recall: SpanRecall } | { kind: "other" } | { kind: "rejected"; reason: string };

export function isRetrieverSpan(span: DecodedSpan): boolean {
  const kind = span.attributes[SPAN_KIND_ATTRIBUTE];
  return typeof kind === "string" && kind.trim().toUpperCase() === "RETRIEVER";
}

export function spanToRecall(span: DecodedSpan): SpanOutcome {
  if (!isRetrieverSpan(span)) return { kind: "other" };
  const named = `span ${span.spanId ?? "(no id)"}`;
  const reject = (reason: string): SpanOutcome => ({ kind: "rejected", reason: `${named}: ${reason}` });
  if (!span.traceId) return reject("traceId is missing or not 16 bytes");
  if (!span.spanId) return reject("spanId is missing or not 8 bytes");

  const query = queryOf(span.attributes["input.value"], span.attributes["input.mime_type"]);
  if (query === null) return reject("input.value (the query) is missing or empty");

  const documents = documentsOf(span.attributes);
  if (typeof documents === "string") return reject(documents);
  const results = documents.slice(0, MAX_DOCUMENTS).map((d) => ({
    memory_id: d.id,
    summary: d.content.length > SUMMARY_MAX ? `${d.content.slice(0, SUMMARY_MAX - 1)}…` : d.content,
    ...(d.score !== null ? { score: d.score } : {}),
  }));

  const stated = statedBlocks(span.attributes);
  if (typeof stated === "string") return reject(stated);
  const response: Record<string, unknown> = { results, related_tags: [] };
  if (stated.confidence !== undefined) response.confidence = stated.confidence;
  if (stated.selector !== undefined) response.selector = stated.selector;
  if (stated.degraded !== undefined) response.degraded = stated.degraded;
  if (stated.degraded_reason !== undefined) response.degraded_reason = stated.degraded_reason;

  const start = nanosToMs(span.startTimeUnixNano);
  const end = nanosToMs(span.endTimeUnixNano);
  const recall: SpanRecall = {
    store: storeOf(span),
    request: { query, k: Math.min(MAX_DOCUMENTS, Math.max(1, documents.length)) },
    response,
    latency_ms: start !== null && end !== null && end >= start ? Math.round((end - start) * 1000) / 1000 : null,
    created_at: start !== null && start > 0 && start < 253_402_300_800_000 ? new Date(start) : null,
    trace: { traceId: span.traceId, spanId: span.spanId },
  };
  if (stated.confidence === undefined) {
    const scores = results.map((r) => r.score).filter((s): s is number => typeof s === "number" && Number.isFinite(s));
    recall.computedConfidence = confidenceFromScores(scores);
  }
  return { kind: "recall", recall };
}

/** The fallback rules over the returned scores alone, marked as computed here. */
export function confidenceFromScores(scores: readonly number[]): LoggedConfidence {
  const result = computeConfidence({ hybridScores: scores });
  return { ...result, threshold_values: { ...DEFAULT_THRESHOLDS }, computed_from: "scores" };
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

interface Document {
  id: string;
  content: string;
  score: number | null;
}

const DOCUMENT_KEY = /^retrieval\.documents\.(\d+)\.document\.(id|content|score)$/;

/** The flattened documents in index order, or why they cannot be read. */
function documentsOf(attributes: Record<string, AttributeValue>): Document[] | string {
  const byIndex = new Map<number, Partial<Record<"id" | "content" | "score", AttributeValue>>>();
  for (const [key, value] of Object.entries(attributes)) {
    const match = DOCUMENT_KEY.exec(key);
    if (!match) continue;
    const index = Number(match[1]);
    if (!Number.isSafeInteger(index) || index > 100_000) continue;
    const entry = byIndex.get(index) ?? {};
    entry[match[2] as "id" | "content" | "score"] = value;
    byIndex.set(index, entry);
  }
  const out: Document[] = [];
  for (const index of [...byIndex.keys()].sort((a, b) => a - b)) {
    const entry = byIndex.get(index)!;
    const id = typeof entry.id === "number" ? String(entry.id) : entry.id;
    if (typeof id !== "string" || id.trim() === "") return `retrieval.documents.${index}.document.id is missing`;
    if (id.length > 200) return `retrieval.documents.${index}.document.id is longer than 200 characters`;
    const score = entry.score;
    if (score !== undefined && score !== null && (typeof score !== "number" || !Number.isFinite(score))) {
      return `retrieval.documents.${index}.document.score is not a finite number`;
    }
    out.push({
      id,
      content: typeof entry.content === "string" ? entry.content : "",
      score: typeof score === "number" ? score : null,
    });
  }
  return out;
}

interface StatedBlocks {
  confidence?: unknown;
  selector?: unknown;
  degraded?: unknown;
  degraded_reason?: unknown;
}

/** A memory service's blocks the span carries, as stated; why not, when one is there but unreadable. */
function statedBlocks(attributes: Record<string, AttributeValue>): StatedBlocks | string {
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
    if (typeof value !== "string") return `${attribute} is not a JSON object`;
    try {
      out[key] = JSON.parse(value);
    } catch {
      return `${attribute} is not JSON`;
    }
  }
  return out;
}

function storeOf(span: DecodedSpan): string {
  const named = span.attributes[STORE_ATTRIBUTE] ?? span.resource["service.name"];
  const store = typeof named === "string" ? named.trim() : "";
  return store === "" ? DEFAULT_OTEL_STORE : store.slice(0, STORE_MAX);
}

/** Nanoseconds (decimal text) → milliseconds, or null for 0/unset. */
function nanosToMs(nanos: string): number | null {
  if (nanos === "0" || nanos === "") return null;
  const value = BigInt(nanos);
  return Number(value / 1000n) / 1000;
}
