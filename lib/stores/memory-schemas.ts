import { z } from "zod";
import { isoDateTimeString, withInputRules } from "@/lib/validation/input-rules";
import { StoreNameSchema, StoreQuerySchema } from "./store-schemas";

/**
 * One memory to add to the embedded store, as the API and the import form take it. Strict:
 * an unknown field is an error for that item, not silently dropped.
 */
export const MEMORY_LIMITS = {
  summaryChars: 2_000,
  contentChars: 20_000,
  typeChars: 50,
  tags: 50,
  tagChars: 64,
  idChars: 200,
  batch: 10_000,
} as const;

const trimmed = (max: number, what: string) =>
  z
    .string()
    .max(max, `${what} is longer than ${max} characters`)
    .transform((s) => s.trim());

export const MemoryInputSchema = withInputRules(
  z.strictObject({
    id: z
      .string()
      .min(1)
      .max(MEMORY_LIMITS.idChars)
      .regex(/^[A-Za-z0-9][A-Za-z0-9._:-]*$/, "id may hold letters, digits and . _ : - and must start with a letter or digit")
      .optional(),
    summary: trimmed(MEMORY_LIMITS.summaryChars, "summary").pipe(z.string().min(1, "summary is empty")),
    content: trimmed(MEMORY_LIMITS.contentChars, "content").optional().nullable(),
    type: trimmed(MEMORY_LIMITS.typeChars, "type").pipe(z.string().min(1, "type is empty")).optional(),
    tags: z
      .array(trimmed(MEMORY_LIMITS.tagChars, "tag").pipe(z.string().min(1, "tags may not be empty")))
      .max(MEMORY_LIMITS.tags)
      .optional(),
    importance: z.number().min(0).max(1).optional(),
    created_at: isoDateTimeString().optional(),
  }),
);
export type MemoryInput = z.input<typeof MemoryInputSchema>;
export type ValidMemoryInput = z.output<typeof MemoryInputSchema>;

/** The JSON body of POST /api/memories (a JSON Lines body is the same list, one item a line). */
export const MemoryBatchSchema = z.strictObject({
  /** The embedded store to import into (or `?store=`); without either, the default store. */
  store: StoreNameSchema.optional(),
  memories: z.array(z.unknown()).min(1, "memories is empty").max(MEMORY_LIMITS.batch),
});

export const MemoryListQuerySchema = withInputRules(
  z.object({
    q: z.string().max(200).optional(),
    type: z.string().max(MEMORY_LIMITS.typeChars).optional(),
    tag: z.string().max(MEMORY_LIMITS.tagChars).optional(),
    limit: z.coerce.number().int().min(1).max(200).default(50),
    cursor: z.string().max(500).optional(),
    /** The store to list: an embedded store (without one, the default store) or a configured remote store's name. */
    store: StoreNameSchema.optional(),
  }),
);
export type MemoryListQuery = z.output<typeof MemoryListQuerySchema>;

/** At most this many ids in one `GET /api/memories/lookup` (more than any recall's candidates). */
export const MEMORY_LOOKUP_MAX_IDS = 500;

/** `?ids=a,b,c`: memory ids never hold a comma (see `MemoryInputSchema`). */
export const MemoryLookupQuerySchema = withInputRules(
  z.object({
    store: StoreNameSchema.optional(),
    ids: z
      .string()
      .max(MEMORY_LOOKUP_MAX_IDS * (MEMORY_LIMITS.idChars + 1))
      .transform((text) => [...new Set(text.split(",").filter((id) => id.length > 0))])
      .pipe(
        z
          .array(z.string().max(MEMORY_LIMITS.idChars, `an id is longer than ${MEMORY_LIMITS.idChars} characters`))
          .max(MEMORY_LOOKUP_MAX_IDS, `at most ${MEMORY_LOOKUP_MAX_IDS} ids at once`),
      ),
  }),
);

/** A memory as the API answers it. */
export interface MemoryView {
  id: string;
  summary: string;
  content: string | null;
  type: string;
  tags: string[];
  importance: number;
  created_at: string;
  updated_at: string | null;
  embedding_model: string | null;
  /** A remote service's memory scope ("working" | "persistent"); absent for the embedded store. */
  scope?: string;
}

/** Per-item outcome of an import. */
/** Per-item outcome of an import; `line` is the item's line in a JSON Lines body. */
export type ImportItemResult =
  | { index: number; line?: number; status: "created"; id: string }
  | { index: number; line?: number; status: "rejected"; id?: string; errors: { path: string[]; message: string }[] };

// The answers of GET /api/memories and GET /api/memories/stats, shared by the routes and the hooks.

export interface MemoryListPage {
  items: MemoryView[];
  next_cursor: string | null;
  /** How many memories match the filters (not just this page). */
  total: number;
}

export interface MemoryStats {
  total: number;
  by_type: Record<string, number>;
  /** The embedded store's model; null for a remote store (the service does not say). */
  embedding_model: string | null;
  stale_vectors: number;
  /** What only a remote store reports (absent for the embedded store). */
  remote?: {
    store: string;
    working_count: number | null;
    persistent_count: number | null;
    by_importance: { high: number | null; medium: number | null; low: number | null } | null;
  };
}

/** The answer of `GET /api/memories/{id}/neighbours`: the memories closest to it in the store. */
export interface MemoryNeighbours {
  memory_id: string;
  /** Why there are none (no vector for the current model); null when the list is the answer. */
  unavailable: string | null;
  items: { id: string; summary: string; type: string; cosine: number }[];
}

/** The answer of `GET /api/memories/lookup?ids=…`: which of these ids the embedded store holds. */
export interface MemoryLookup {
  found: string[];
  missing: string[];
}

/** The path of `/api/memories/{id}…`: any id a store may hold (a deleted one's recalls stay). */
export const MemoryParamsSchema = z.object({ id: z.string().min(1).max(MEMORY_LIMITS.idChars) });

/** `GET /api/memories/{id}/neighbours?store=&limit=`. */
export const MemoryNeighboursQuerySchema = withInputRules(
  StoreQuerySchema.extend({ limit: z.coerce.number().int().min(1).max(50).default(10) }),
);

/**
 * `POST /api/memories/lookup`: the query string's question in a body, since 500 ids of up to 200
 * characters do not fit in a URL under Node's 16 KB header cap (431), and an id may hold a comma.
 */
export const MemoryLookupBodySchema = withInputRules(
  z.strictObject({
    store: StoreNameSchema.optional(),
    ids: z
      .array(z.string().min(1).max(MEMORY_LIMITS.idChars, `an id is longer than ${MEMORY_LIMITS.idChars} characters`))
      .max(MEMORY_LOOKUP_MAX_IDS, `at most ${MEMORY_LOOKUP_MAX_IDS} ids at once`)
      .transform((ids) => [...new Set(ids)]),
  }),
);
