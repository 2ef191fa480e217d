/**
 * The zod wrappers of a tolerant wire decoder (lib/recall/README.md "Wire translation"): REST
 * drops null keys while MCP keeps them, so missing and null mean the same. One home for the
 * recall schemas, the selector block and the remote service's list and stats answers.
 * Client-safe (zod only).
 */
import { z } from "zod";

/** Optional, with null accepted and normalized to undefined. */
export function nullish<T extends z.ZodType>(schema: T) {
  return z.optional(schema.nullable().transform((v) => (v === null ? undefined : v)));
}

/** Optional with a default for missing or null. */
export function withDefault<T extends z.ZodType>(schema: T, value: z.output<T>) {
  return z.optional(schema.nullable()).transform((v): z.output<T> => (v === null || v === undefined ? value : v));
}
