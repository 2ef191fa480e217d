/**
 * Saved views (`/api/views`, README "HTTP API"): a named set of filters of the History or
 * Insights page, kept as that page's query string — the URL state — so a view opens as
 * `/<page>?<params>` and reads back through the page's own filter schema. Client-safe (zod and
 * types), shared by the routes and the pages' save form.
 */
import { z } from "zod";
import { HISTORY_FILTER_KEYS } from "@/lib/recall-log/history";
import { withInputRules } from "@/lib/validation/input-rules";

export const SAVED_VIEW_PAGES = ["history", "insights"] as const;
export type SavedViewPage = (typeof SAVED_VIEW_PAGES)[number];

/** Where each page lives. */
export const SAVED_VIEW_PATHS: Record<SavedViewPage, string> = { history: "/recalls", insights: "/insights" };

export const SAVED_VIEW_NAME_MAX = 80;
export const SAVED_VIEW_PARAMS_MAX = 2_000;

/**
 * The keys a page's URL may hold (what its filter bar writes). Anything else is refused on save,
 * so a view never carries a stray parameter (a cursor, a typo) into every later visit.
 */
export const SAVED_VIEW_KEYS: Record<SavedViewPage, readonly string[]> = {
  // Every History filter (the one list, lib/recall-log/history.ts) and the time-range preset.
  history: [...HISTORY_FILTER_KEYS, "range"],
  insights: [
    "range",
    "from",
    "to",
    "bucket",
    "store",
    "selector_model",
    "verdict",
    "level",
    "profile_level",
    "profile",
    "source",
    "judge",
    "bands",
    "tz",
  ],
};

/** A query string without "?" holding only the page's keys, each once. */
function paramsRule(page: SavedViewPage, params: string, ctx: z.RefinementCtx) {
  const allowed = SAVED_VIEW_KEYS[page];
  const seen = new Set<string>();
  for (const key of new URLSearchParams(params).keys()) {
    if (!allowed.includes(key)) {
      ctx.addIssue({ code: "custom", path: ["params"], message: `"${key}" is not a filter of the ${page} page` });
    } else if (seen.has(key)) {
      ctx.addIssue({ code: "custom", path: ["params"], message: `"${key}" is given more than once` });
    }
    seen.add(key);
  }
}

export const SavedViewInputSchema = withInputRules(
  z
    .strictObject({
      page: z.enum(SAVED_VIEW_PAGES, `page is one of ${SAVED_VIEW_PAGES.join(", ")}`),
      name: z
        .string()
        .trim()
        .min(1, "name is empty")
        .max(SAVED_VIEW_NAME_MAX, `name is longer than ${SAVED_VIEW_NAME_MAX} characters`),
      /** The page's query string, without the leading "?" ("" for the page unfiltered). */
      params: z
        .string()
        .max(SAVED_VIEW_PARAMS_MAX, `params is longer than ${SAVED_VIEW_PARAMS_MAX} characters`)
        .transform((text) => text.replace(/^\?/, "")),
    })
    .superRefine((value, ctx) => paramsRule(value.page, value.params, ctx)),
);
export type SavedViewInput = z.output<typeof SavedViewInputSchema>;

export const SavedViewListQuerySchema = withInputRules(
  z.object({ page: z.enum(SAVED_VIEW_PAGES, `page is one of ${SAVED_VIEW_PAGES.join(", ")}`).optional() }),
);

export interface SavedView {
  id: string;
  page: SavedViewPage;
  name: string;
  params: string;
  /** Where the view opens: the page with its filters. */
  href: string;
  created_at: string;
  updated_at: string;
}

/** The URL a view opens. */
export function savedViewHref(page: SavedViewPage, params: string): string {
  return params ? `${SAVED_VIEW_PATHS[page]}?${params}` : SAVED_VIEW_PATHS[page];
}

/** The path of `/api/views/{id}`. */
export const SavedViewParamsSchema = z.object({ id: z.uuid("a view id is a UUID") });
