import { z } from "zod";

/**
 * `GET /api/capture/status` (lib/capture/README.md "Capture from production"): per OTLP service
 * (resource `service.name`), the spans received and what became of them. Client-safe: the route
 * answers it and the capture page's hook reads it.
 */
export const CaptureRejectionSchema = z.object({
  /** A code (lib/capture/otlp/openinference.ts RejectionCode). */
  reason: z.string(),
  count: z.number(),
  /** The latest span's message for this reason, as the export's partial_success said it. */
  last_message: z.string(),
  last_at: z.string(),
});

export const CaptureServiceStatusSchema = z.object({
  service: z.string(),
  received: z.number(),
  retrievers: z.number(),
  logged: z.number(),
  duplicates: z.number(),
  rejected: z.number(),
  first_seen_at: z.string(),
  last_seen_at: z.string(),
  last_logged_at: z.string().nullable(),
  last_rejected_at: z.string().nullable(),
  rejections: z.array(CaptureRejectionSchema),
});

export const CaptureStatusSchema = z.object({ services: z.array(CaptureServiceStatusSchema) });

export type CaptureRejection = z.infer<typeof CaptureRejectionSchema>;
export type CaptureServiceStatus = z.infer<typeof CaptureServiceStatusSchema>;
export type CaptureStatus = z.infer<typeof CaptureStatusSchema>;

/** What each rejection code means, for the page (the codes of openinference.ts and receive.ts). */
export const REJECTION_REASONS: Readonly<Record<string, string>> = {
  no_trace_id: "No trace id (missing or not 16 bytes)",
  no_span_id: "No span id (missing or not 8 bytes)",
  no_query: "No query (input.value missing or empty)",
  invalid_recall: "Not a recall the log can keep (a stated block or a value the input rule refuses)",
};
