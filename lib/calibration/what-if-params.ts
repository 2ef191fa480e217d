/**
 * The what-if page's state as a URL, so an edited what-if can be shared: the profile, the
 * constants edited over it (only those), the pool size over its own, the History filters (one
 * query string), and whether to run on open. Also the request body it makes. Pure and
 * client-safe.
 *
 *   /what-if?profile=use-lite&pool_size=10&abs_low_cosine=0.45&filters=store%3Dembedded&run=1
 *
 * `pool_size=k` is the page (the reference's pool); absent, the profile's own.
 */
import { THRESHOLD_KEYS, type ThresholdKey, type Thresholds } from "@/lib/recall/thresholds";
import { MAX_POOL_SIZE, type ProfileEdits } from "./profile";

export const DEFAULT_WHAT_IF_PROFILE = "use-lite";

export interface WhatIfParams {
  profile: string;
  /** Constants edited over the profile's. */
  edits: Partial<Record<ThresholdKey, number>>;
  /** undefined: the profile's pool; null: the page (k); N: the first N merged candidates. */
  pool_size?: number | null;
  /** History filters as a query string (`store=embedded&level=low`). */
  filters: string;
  /** Run as soon as the page opens (set once a what-if has run, so a shared link shows its result). */
  run: boolean;
}

export interface ParamProblem {
  key: string;
  message: string;
}

/** A constant typed into a field: a finite number, or null ("", "abc", "1/2"). */
export function parseConstant(text: string): number | null {
  const t = text.trim();
  if (t === "" || !/^[-+]?(\d+\.?\d*|\.\d+)(e[-+]?\d+)?$/i.test(t)) return null;
  const n = Number(t);
  return Number.isFinite(n) ? n : null;
}

/** A pool size typed into a field: "" the profile's, "k" the page, else a whole number 1–200. */
export function parsePoolSize(text: string): { ok: true; value: number | null | undefined } | { ok: false; message: string } {
  const t = text.trim().toLowerCase();
  if (t === "") return { ok: true, value: undefined };
  if (t === "k" || t === "page") return { ok: true, value: null };
  const n = /^\d+$/.test(t) ? Number(t) : NaN;
  if (!Number.isInteger(n) || n < 1 || n > MAX_POOL_SIZE) {
    return { ok: false, message: `a whole number of candidates from 1 to ${MAX_POOL_SIZE}, or k for the page` };
  }
  return { ok: true, value: n };
}

/** The pool size as typed back into its field. */
export function poolSizeText(value: number | null | undefined): string {
  return value === undefined ? "" : value === null ? "k" : String(value);
}

/** The page's state from its URL; values that do not parse are left out and reported. */
export function parseWhatIfParams(search: URLSearchParams): { params: WhatIfParams; problems: ParamProblem[] } {
  const problems: ParamProblem[] = [];
  const edits: WhatIfParams["edits"] = {};
  for (const key of THRESHOLD_KEYS) {
    const raw = search.get(key);
    if (raw === null) continue;
    const value = parseConstant(raw);
    if (value === null) problems.push({ key, message: `${key} in the link is not a number (${JSON.stringify(raw)}); ignored` });
    else edits[key] = value;
  }
  const params: WhatIfParams = {
    profile: search.get("profile")?.trim() || DEFAULT_WHAT_IF_PROFILE,
    edits,
    filters: search.get("filters") ?? "",
    run: search.get("run") === "1",
  };
  const pool = search.get("pool_size");
  if (pool !== null) {
    const parsed = parsePoolSize(pool);
    if (parsed.ok) params.pool_size = parsed.value;
    else problems.push({ key: "pool_size", message: `pool_size in the link must be ${parsed.message}; ignored` });
  }
  return { params, problems };
}

/** The URL query (without "?") of a state, in a fixed order so equal states give equal links. */
export function whatIfSearch(params: WhatIfParams): string {
  const out = new URLSearchParams();
  out.set("profile", params.profile);
  if (params.pool_size !== undefined) out.set("pool_size", poolSizeText(params.pool_size));
  for (const key of THRESHOLD_KEYS) {
    const value = params.edits[key];
    if (value !== undefined) out.set(key, String(value));
  }
  if (params.filters.trim()) out.set("filters", params.filters.trim());
  if (params.run) out.set("run", "1");
  return out.toString();
}

/** The History filters of the state, as the object the API takes. */
export function filtersObject(filters: string): Record<string, string> {
  return Object.fromEntries(new URLSearchParams(filters.trim().replace(/^\?/, "")));
}

/** The edits as `editProfile` and the API take them. */
export function profileEdits(params: WhatIfParams): ProfileEdits {
  return {
    ...(Object.keys(params.edits).length > 0 ? { thresholds: { ...params.edits } } : {}),
    ...(params.pool_size !== undefined ? { pool_size: params.pool_size } : {}),
  };
}

/** `POST /api/what-if`'s body for a state: the profile, its edits (unsaved), the filters. */
export function whatIfBody(params: WhatIfParams): {
  profile: string;
  thresholds?: Partial<Record<ThresholdKey, number>>;
  pool_size?: number | null;
  filters: Record<string, string>;
} {
  return { profile: params.profile, ...profileEdits(params), filters: filtersObject(params.filters) };
}

/** The edits that differ from the profile, in words: "abs_low_cosine 0.41 → 0.45, pool the page (k)". */
export function describeEdits(params: WhatIfParams, base: { thresholds: Thresholds; pool_size: number | null } | null): string {
  const parts: string[] = [];
  for (const key of THRESHOLD_KEYS) {
    const value = params.edits[key];
    if (value === undefined || (base && base.thresholds[key] === value)) continue;
    parts.push(base ? `${key} ${base.thresholds[key]} → ${value}` : `${key} ${value}`);
  }
  if (params.pool_size !== undefined && (!base || base.pool_size !== params.pool_size)) {
    parts.push(`pool ${params.pool_size === null ? "the page (k)" : `first ${params.pool_size}`}`);
  }
  return parts.join(", ");
}
