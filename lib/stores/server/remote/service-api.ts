/**
 * The memory service's REST API as the remote client (client.ts) speaks it: the paths, what a
 * call takes, and the list and stats answers (docs/memory-service-api.md §8, "Memory endpoints
 * that accept an API key"). Recall answers are decoded in their own home, lib/recall/wire.ts.
 */
import { z } from "zod";
import type { SearchMode } from "@/lib/recall/merge";
import type { RecallFilters, RecallResponse } from "@/lib/recall/schemas";
import { nullish } from "@/lib/validation/tolerant";

export const RECALL_PATH = "/api/v1/memory/recall";
export const LIST_PATH = "/api/v1/memory/list";
export const STATS_PATH = "/api/v1/memory/stats";

/** One row of `GET /api/v1/memory/list` (`updated_at` falls back to `created_at` there). */
export const RemoteMemoryRowSchema = z.looseObject({
  id: z.string().min(1),
  summary: nullish(z.string()),
  type: nullish(z.string()),
  scope: nullish(z.string()),
  importance: nullish(z.number()),
  created_at: nullish(z.string()),
  updated_at: nullish(z.string()),
});

export const RemoteMemoryListSchema = z.looseObject({
  memories: z.array(RemoteMemoryRowSchema),
  total: nullish(z.number().int().min(0)),
  has_more: nullish(z.boolean()),
});

export const RemoteMemoryStatsSchema = z.looseObject({
  total_count: z.number().int().min(0),
  working_count: nullish(z.number().int().min(0)),
  persistent_count: nullish(z.number().int().min(0)),
  by_type: nullish(z.record(z.string(), z.number())),
  by_importance: nullish(z.looseObject({ high: nullish(z.number()), medium: nullish(z.number()), low: nullish(z.number()) })),
  recent_activity: z.unknown().optional(),
});

export type RemoteMemoryRow = z.output<typeof RemoteMemoryRowSchema>;
export type RemoteMemoryList = z.output<typeof RemoteMemoryListSchema>;
export type RemoteMemoryStats = z.output<typeof RemoteMemoryStatsSchema>;

/** A recall as the client sends it. The context comes from the store's configuration. */
export interface RemoteRecallParams {
  query: string;
  /** 1–100; the service's default is 5. */
  k?: number;
  /** Unset lets the service choose (hybrid, or its query router's lane). */
  search_mode?: SearchMode;
  use_rerank?: boolean;
  /** Recognised filter keys (spec §2.3) other than `context_id`, which the client sets. */
  filters?: Omit<Partial<RecallFilters>, "context_id"> & Record<string, unknown>;
}

export interface RemoteListParams {
  /** ILIKE on the summary, at most 200 characters. */
  q?: string;
  /** 1–500; the service's default is 50. */
  limit?: number;
  offset?: number;
  type?: string;
  scope?: "working" | "persistent";
  tags?: string[];
  tags_match?: "any" | "all";
  order_by?: "created_at" | "trigger_from";
}

export interface RemoteCallOptions {
  signal?: AbortSignal;
  /** Overrides the store's timeout for this call. */
  timeoutMs?: number;
}

/** A decoded recall answer. */
export interface RemoteRecallAnswer {
  response: RecallResponse;
  /** Wall time of the HTTP exchange, body included. */
  ms: number;
  /** Parts of the answer that were ignored, e.g. a malformed selector block. */
  warnings: string[];
}

export type RemoteHealth =
  | { ok: true; latency_ms: number; memories: number }
  | { ok: false; latency_ms: number; status: number; code: string; message: string };
