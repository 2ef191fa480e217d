/**
 * Where a logged recall came from (`recalls.source`), one list for the log, History's filter and
 * the pages (lib/capture/README.md "Capture from production"). Client-safe.
 */
export const RECALL_SOURCES = ["console", "ingest", "proxy", "otel", "eval"] as const;
export type RecallSource = (typeof RECALL_SOURCES)[number];

/** Short words for a chip or a select option. */
export const RECALL_SOURCE_LABELS: Record<RecallSource, string> = {
  console: "Console",
  ingest: "Ingested",
  proxy: "Proxy",
  otel: "OpenTelemetry",
  eval: "Evaluation runs",
};

export function isRecallSource(value: unknown): value is RecallSource {
  return typeof value === "string" && (RECALL_SOURCES as readonly string[]).includes(value);
}

/** A stored source as the wire says it; an unknown value (none is written) reads as the console. */
export function recallSource(value: string): RecallSource {
  return isRecallSource(value) ? value : "console";
}
