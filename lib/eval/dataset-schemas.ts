import { z } from "zod";
import { itemErrorsFromZod } from "@/lib/recall/errors";
import { StoreNameSchema, StoreQuerySchema } from "@/lib/stores/store-schemas";
import { withInputRules } from "@/lib/validation/input-rules";

/**
 * Labeled query sets on the wire (client-safe; the upload form and `POST /api/datasets` share
 * these). An item is `{query, relevant: [memory ids], id?, kind?, tags?}`; an empty `relevant`
 * says nothing relevant is stored for the query (lib/eval/README.md "Evaluation").
 */

export const MAX_DATASET_ITEMS = 10_000;
/** JSON Lines or JSON bodies of up to 10 MB (10,000 items of a long query and many ids). */
export const MAX_DATASET_BYTES = 10_000_000;

// The shared input rule (no NUL, unpaired surrogates, deep nesting) runs per item, so a bad line
// is reported with its number like any other.
export const DatasetItemSchema = withInputRules(
  z.strictObject({
    query: z
      .string()
      .max(8000, "query is longer than 8000 characters")
      .refine((q) => q.trim().length > 0, "query is empty"),
    relevant: z.array(z.string().min(1, "a memory id is empty").max(200)).max(1000),
    id: z.string().min(1).max(200).optional(),
    kind: z
      .string()
      .regex(/^[A-Za-z0-9_.-]{1,50}$/, "kind is a short word (letters, digits, _ . -), e.g. paraphrase, near_miss, off_topic")
      .optional(),
    tags: z.array(z.string().min(1).max(64)).max(50).optional(),
  }),
);
export type DatasetItemInput = z.output<typeof DatasetItemSchema>;

export const DatasetNameSchema = z
  .string()
  .max(200, "name is longer than 200 characters")
  .refine((n) => n.trim().length > 0, "name is empty");

export const DatasetBodySchema = z.strictObject({
  name: withInputRules(DatasetNameSchema),
  /** The store whose memories the relevant ids name (default: the default store). */
  store: StoreNameSchema.optional(),
  items: z
    .array(z.unknown())
    .min(1, "a set needs at least one item")
    .max(MAX_DATASET_ITEMS, `a set holds at most ${MAX_DATASET_ITEMS} items`),
  /** "history": made from the labels of recalls selected in History (the demo set is the server's own). */
  origin: z.enum(["upload", "history"]).optional(),
});

/** One refused item: its 1-based line (JSON Lines) or 0-based index (JSON), and what is wrong. */
export interface DatasetItemError {
  line?: number;
  index?: number;
  errors: { path: string[]; message: string }[];
}

export type ParsedItems = { ok: true; items: DatasetItemInput[] } | { ok: false; errors: DatasetItemError[] };

function checkItems(raw: readonly { value: unknown; at: { line: number } | { index: number } }[]): ParsedItems {
  const items: DatasetItemInput[] = [];
  const errors: DatasetItemError[] = [];
  const ids = new Map<string, number | string>();
  for (const { value, at } of raw) {
    const parsed = DatasetItemSchema.safeParse(value);
    if (!parsed.success) {
      errors.push({ ...at, errors: itemErrorsFromZod(parsed.error.issues) });
      continue;
    }
    const id = parsed.data.id;
    if (id !== undefined) {
      const where = "line" in at ? at.line : at.index;
      const first = ids.get(id);
      if (first !== undefined) {
        errors.push({
          ...at,
          errors: [{ path: ["id"], message: `id "${id}" is used twice (first at ${"line" in at ? "line" : "index"} ${first})` }],
        });
        continue;
      }
      ids.set(id, where);
    }
    items.push({ ...parsed.data, relevant: [...new Set(parsed.data.relevant)] });
  }
  return errors.length ? { ok: false, errors } : { ok: true, items };
}

/** The items of a JSON body (`items` of `{name, items}`), each checked; errors carry the index. */
export function parseItems(items: readonly unknown[]): ParsedItems {
  return checkItems(items.map((value, index) => ({ value, at: { index } })));
}

/**
 * JSON Lines: one item per non-blank line; a line that is not JSON or not an item is reported
 * with its 1-based number. All or nothing: any bad line refuses the whole upload.
 */
export function parseJsonLines(text: string): ParsedItems {
  const raw: { value: unknown; at: { line: number } }[] = [];
  const errors: DatasetItemError[] = [];
  text.split(/\r?\n/).forEach((line, i) => {
    if (line.trim() === "") return;
    try {
      raw.push({ value: JSON.parse(line), at: { line: i + 1 } });
    } catch (error) {
      errors.push({
        line: i + 1,
        errors: [{ path: [], message: `not JSON: ${error instanceof Error ? error.message : String(error)}` }],
      });
    }
  });
  if (raw.length + errors.length === 0)
    return { ok: false, errors: [{ line: 1, errors: [{ path: [], message: "the upload has no lines" }] }] };
  if (raw.length + errors.length > MAX_DATASET_ITEMS) {
    return {
      ok: false,
      errors: [
        { line: MAX_DATASET_ITEMS + 1, errors: [{ path: [], message: `a set holds at most ${MAX_DATASET_ITEMS} items` }] },
      ],
    };
  }
  const checked = checkItems(raw);
  if (errors.length === 0) return checked;
  const all = [...errors, ...(checked.ok ? [] : checked.errors)].sort((a, b) => (a.line ?? 0) - (b.line ?? 0));
  return { ok: false, errors: all };
}

/** "line 3: query: query is empty" — for one-line messages and the upload form. */
export function describeItemError(e: DatasetItemError): string {
  const where = e.line !== undefined ? `line ${e.line}` : `item ${e.index}`;
  return `${where}: ${e.errors.map((x) => (x.path.length ? `${x.path.join(".")}: ${x.message}` : x.message)).join("; ")}`;
}

// ---------------------------------------------------------------------------------------------
// Read side

export interface DatasetSummary {
  id: string;
  /** The store whose memories its relevant ids name: Evaluate offers a store its own sets. */
  store: string;
  name: string;
  created_at: string;
  origin: "upload" | "demo" | "history";
  count: number;
  /** Items per kind ("" for items without one). */
  kinds: Record<string, number>;
  /** Items whose relevant list is empty (nothing relevant stored). */
  absent: number;
}

export interface DatasetItemView {
  position: number;
  id: string | null;
  query: string;
  relevant: string[];
  kind: string | null;
  tags: string[];
}

export interface DatasetDetail extends DatasetSummary {
  items: DatasetItemView[];
}

/** The path of `/api/datasets/{id}`. */
export const DatasetParamsSchema = z.object({ id: z.uuid("a set id is a UUID") });
/** `POST /api/datasets?store=&name=`: a JSON Lines upload names its set in the query. */
export const DatasetUploadQuerySchema = withInputRules(StoreQuerySchema.extend({ name: DatasetNameSchema.optional() }));
export type DatasetUploadQuery = z.output<typeof DatasetUploadQuerySchema>;
