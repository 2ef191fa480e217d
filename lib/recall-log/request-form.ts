/**
 * The console form's state and its two translations: from a logged request ("Open in console"
 * shows exactly what a recall asked, whatever its source) and to the body of `POST /api/recall`.
 * Pure, so both directions are unit-tested.
 */
import type { RecallBodyInput } from "@/lib/recall-log/schemas";
import type { LoggedRequest } from "@/lib/recall-log/types";

export interface FormState {
  store: string;
  query: string;
  k: number;
  /** "auto": none sent, the store picks (the embedded store hybrid, a memory service its router). */
  search_mode: LoggedRequest["search_mode"] | "auto";
  selector: LoggedRequest["selector"];
  use_rerank: boolean;
  /** Memory types, comma-separated as typed ("" for all). */
  types: string;
  /** Tags, comma-separated as typed ("" for none). */
  tags: string;
  tags_match: "any" | "all";
}

export const DEFAULT_FORM: FormState = {
  // "": the default store (the API's default when the body names none).
  store: "",
  query: "",
  k: 5,
  search_mode: "auto",
  selector: "off",
  use_rerank: false,
  types: "",
  tags: "",
  tags_match: "any",
};

/** What a logged request asked that the form cannot set (filters the console has no field for). */
export interface FormFromRequest {
  form: FormState;
  /** Filter keys of the logged request left out of the form, e.g. `scope`, `created_after`. */
  unsupportedFilters: string[];
}

function strings(value: unknown): string[] {
  if (typeof value === "string") return value.trim() === "" ? [] : [value];
  if (Array.isArray(value)) return value.filter((v): v is string => typeof v === "string" && v.trim() !== "");
  return [];
}

const join = (items: readonly string[]) => items.join(", ");

/**
 * The form showing what `request` asked. An ingested request carries the reference's filters
 * (`type`, singular) and the console's carry `types`; both fill Types. A filter key the console
 * has no field for is reported, not dropped silently. Null and empty values are not filters.
 */
export function formFromRequest(request: LoggedRequest): FormFromRequest {
  const filters = (request.filters ?? {}) as Record<string, unknown>;
  const unsupported: string[] = [];
  const types: string[] = [];
  let tags: string[] = [];
  let tagsMatch: FormState["tags_match"] = "any";
  for (const [key, value] of Object.entries(filters)) {
    if (value === null || value === undefined) continue;
    if (key === "types" || key === "type") types.push(...strings(value));
    else if (key === "tags") tags = strings(value);
    else if (key === "tags_match" || key === "tagsMatch") tagsMatch = value === "all" ? "all" : "any";
    else unsupported.push(key);
  }
  return {
    form: {
      store: request.store,
      query: request.query,
      k: request.k,
      search_mode: request.search_mode_auto ? "auto" : request.search_mode,
      selector: request.selector,
      use_rerank: request.use_rerank === true,
      types: join([...new Set(types)]),
      tags: join(tags),
      tags_match: tagsMatch,
    },
    unsupportedFilters: unsupported.sort(),
  };
}

/** "a, b ,, c" → ["a", "b", "c"] (duplicates kept once, in order). */
export function splitList(text: string): string[] {
  return [
    ...new Set(
      text
        .split(",")
        .map((s) => s.trim())
        .filter((s) => s !== ""),
    ),
  ];
}

/** The body of `POST /api/recall` for the form; `filters` only when one is set. */
export function bodyFromForm(form: FormState): RecallBodyInput {
  const types = splitList(form.types);
  const tags = splitList(form.tags);
  const filters: NonNullable<RecallBodyInput["filters"]> = {};
  if (types.length > 0) filters.types = types;
  if (tags.length > 0) {
    filters.tags = tags;
    filters.tags_match = form.tags_match;
  }
  return {
    ...(form.store ? { store: form.store } : {}),
    query: form.query,
    k: form.k,
    ...(form.search_mode === "auto" ? {} : { search_mode: form.search_mode }),
    selector: form.selector,
    // Unticked sends none: the store's setting decides (a memory service's context may rerank).
    ...(form.use_rerank ? { use_rerank: true } : {}),
    ...(Object.keys(filters).length > 0 ? { filters } : {}),
  };
}

/** The body that runs a logged request again with some settings changed ("run again with k=20"). */
export function rerunBody(
  request: LoggedRequest,
  change: Partial<Pick<FormState, "k" | "search_mode" | "store">>,
): RecallBodyInput {
  const { form } = formFromRequest(request);
  return bodyFromForm({ ...form, ...change });
}

/** The filters in a few words, for a recall's header ("types: fact · tags (all): a, b"). */
export function filtersText(request: LoggedRequest): string | null {
  const { form, unsupportedFilters } = formFromRequest(request);
  const parts: string[] = [];
  if (form.types) parts.push(`types: ${form.types}`);
  if (form.tags) parts.push(`tags (${form.tags_match}): ${form.tags}`);
  if (unsupportedFilters.length > 0) parts.push(`also ${unsupportedFilters.join(", ")}`);
  return parts.length > 0 ? parts.join(" · ") : null;
}
