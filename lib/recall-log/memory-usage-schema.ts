/**
 * The answer of `GET /api/memories/{id}/recalls` (a memory's page: the logged recalls it appeared
 * in), shared by the route and the hook. Client-safe: zod and types only.
 */
import { z } from "zod";
import { decodeKeysetCursor, type KeysetPosition } from "@/lib/pagination/keyset";
import { withInputRules } from "@/lib/validation/input-rules";
import { isUuid } from "@/lib/validation/uuid";

export const MEMORY_RECALLS_PAGE_SIZE = 25;

/**
 * Which of the memory's recalls to list: every one it was a candidate of, the ones it was on the
 * page of (`returned`), the ones the selector dropped it from, or the ones where it was labeled
 * relevant.
 */
export const MEMORY_RECALL_FILTERS = ["appeared", "returned", "dropped", "relevant"] as const;
export type MemoryRecallFilter = (typeof MEMORY_RECALL_FILTERS)[number];

/** The recall a cursor of this list names (lib/pagination/keyset.ts), or null for a foreign one. */
export function decodeMemoryRecallsCursor(cursor: string): KeysetPosition | null {
  return decodeKeysetCursor(cursor, (id) => isUuid(id) && id === id.toLowerCase());
}

export const MemoryRecallsQuerySchema = withInputRules(
  z.object({
    /** Only recalls from this store (a memory id is unique per store); absent: every store's. */
    store: z.string().trim().min(1).max(64).optional(),
    show: z.enum(MEMORY_RECALL_FILTERS, "show is one of appeared, returned, dropped, relevant").default("appeared"),
    limit: z.coerce.number().int().min(1).max(100).default(MEMORY_RECALLS_PAGE_SIZE),
    cursor: z
      .string()
      .max(500)
      .refine(
        (cursor) => decodeMemoryRecallsCursor(cursor) !== null,
        "The cursor is damaged or not one this API issued; start again without it.",
      )
      .optional(),
  }),
);
export type MemoryRecallsQuery = z.output<typeof MemoryRecallsQuerySchema>;

/** How often the memory took part in logged recalls (every recall counted once). */
export interface MemoryRecallCounts {
  /** Recalls whose logged candidate list holds the memory. */
  appeared: number;
  /** Of those, counted in the confidence pool. */
  in_pool: number;
  /** On the page the store returned (kept or then dropped by the selector). */
  returned: number;
  /** Removed from the page by the selector. */
  dropped: number;
  /** Labeled relevant / not relevant by a person on that recall. */
  labeled_relevant: number;
  labeled_irrelevant: number;
}

/** One recall the memory appeared in, with what happened to it there. */
export interface MemoryRecallRow {
  recall_id: string;
  created_at: string;
  source: string;
  store: string;
  query: string;
  level: string | null;
  /** Its rank in the recall's merged candidate list (1 = first). */
  rank: number;
  in_pool: boolean;
  returned: boolean;
  dropped: boolean;
  raw_cosine: number | null;
  hybrid_score: number | null;
  /** The person's label of this memory on that recall; null when unlabeled. */
  relevant: boolean | null;
}

export interface MemoryRecallsPage {
  memory_id: string;
  counts: MemoryRecallCounts;
  items: MemoryRecallRow[];
  next_cursor: string | null;
}
