/**
 * The Memories page's list and stats for a remote store: the service's `GET /api/v1/memory/list`
 * and `/stats` in the shapes the embedded store answers (`{items, next_cursor, total}`,
 * `{total, by_type, embedding_model, stale_vectors}`), so one page and one API serve both.
 *
 * - Paging: the service pages by offset; the offset travels in an opaque cursor bound to the
 *   store, so a cursor from another store (or the embedded store) is refused with 422.
 * - A list row has no content, tags or embedding model: they come back as null, [] and null.
 *   `scope` (working / persistent) is kept.
 * - Filtering by tag is refused (422): the list does not return tags, so the page could neither
 *   show nor explain the match.
 * - Service failures stay the client's StoreErrors (actionable messages, statuses 422/502/503/504).
 */
import { fromBase64Url, toBase64Url } from "@/lib/pagination/keyset";
import type { RemoteListParams, RemoteMemoryList, RemoteMemoryRow, RemoteMemoryStats } from "./service-api";
import type { MemoryListPage, MemoryListQuery, MemoryView } from "../../memory-schemas";
import { StoreError } from "../../types";

/** What the list and stats need of a remote store (a RemoteStore; structural, so another bundle's instance fits). */
export interface RemoteMemorySource {
  readonly name: string;
  readonly kind: "remote";
  listMemories(params: RemoteListParams, options: { signal?: AbortSignal }): Promise<RemoteMemoryList>;
  stats(options: { signal?: AbortSignal }): Promise<RemoteMemoryStats>;
}

/** The embedded store's stats shape, with what only a remote service reports under `remote`. */
export interface RemoteMemoryStatsView {
  total: number;
  by_type: Record<string, number>;
  embedding_model: null;
  stale_vectors: 0;
  remote: {
    store: string;
    working_count: number | null;
    persistent_count: number | null;
    by_importance: { high: number | null; medium: number | null; low: number | null } | null;
  };
}

const CURSOR_VERSION = 1;

export function encodeRemoteCursor(store: string, offset: number): string {
  return toBase64Url(JSON.stringify({ v: CURSOR_VERSION, s: store, o: offset }));
}

/** The offset a cursor carries. @throws StoreError 422 invalid_cursor for anything this API did not issue for `store`. */
export function decodeRemoteCursor(store: string, cursor: string): number {
  let decoded: unknown;
  try {
    decoded = JSON.parse(fromBase64Url(cursor) ?? "");
  } catch {
    decoded = null;
  }
  const c = decoded as { v?: unknown; s?: unknown; o?: unknown } | null;
  if (
    typeof c !== "object" ||
    c === null ||
    c.v !== CURSOR_VERSION ||
    c.s !== store ||
    typeof c.o !== "number" ||
    !Number.isInteger(c.o) ||
    c.o < 0
  ) {
    throw new StoreError(
      422,
      "invalid_cursor",
      `The cursor is not one this API issued for the store "${store}"; start again without it.`,
      {
        store,
      },
    );
  }
  return c.o;
}

/** One list row as a MemoryView (what the list endpoint does not return is null or empty). */
export function toMemoryView(row: RemoteMemoryRow): MemoryView {
  return {
    id: row.id,
    summary: row.summary ?? "",
    content: null,
    type: row.type ?? "",
    tags: [],
    // The service's default importance (and what a mirrored memory without one gets).
    importance: row.importance ?? 0.5,
    created_at: row.created_at ?? "",
    updated_at: row.updated_at ?? null,
    embedding_model: null,
    ...(row.scope ? { scope: row.scope } : {}),
  };
}

/** The service's list parameters for a page of the Memories API. */
export function toRemoteListParams(store: string, query: Omit<MemoryListQuery, "store">): RemoteListParams {
  if (query.tag) {
    throw new StoreError(
      422,
      "unsupported_filter",
      `The remote store "${store}" lists its memories without their tags, so they cannot be filtered by tag here; remove the tag filter (search and type work).`,
      { store, filter: "tag" },
    );
  }
  const q = query.q?.trim();
  return {
    limit: query.limit,
    offset: query.cursor ? decodeRemoteCursor(store, query.cursor) : 0,
    ...(q ? { q } : {}),
    ...(query.type ? { type: query.type } : {}),
  };
}

/** A page of the service's list in the Memories API's shape. */
export function toMemoryListPage(store: string, params: RemoteListParams, list: RemoteMemoryList): MemoryListPage {
  const offset = params.offset ?? 0;
  const got = list.memories.length;
  const next = offset + got;
  // has_more when the service says; else the total; else "a full page may have a successor".
  const more = got > 0 && (list.has_more ?? (list.total !== undefined ? next < list.total : got === params.limit));
  return {
    items: list.memories.map(toMemoryView),
    next_cursor: more ? encodeRemoteCursor(store, next) : null,
    total: list.total ?? (more ? next + 1 : next),
  };
}

export async function listRemoteMemories(
  store: RemoteMemorySource,
  query: Omit<MemoryListQuery, "store">,
  signal?: AbortSignal,
): Promise<MemoryListPage> {
  const params = toRemoteListParams(store.name, query);
  const list = await store.listMemories(params, { signal });
  return toMemoryListPage(store.name, params, list);
}

/** The service's stats in the embedded stats shape (types by count, largest first). */
export function toMemoryStatsView(store: string, stats: RemoteMemoryStats): RemoteMemoryStatsView {
  const byType = Object.fromEntries(Object.entries(stats.by_type ?? {}).sort((a, b) => b[1] - a[1]));
  const importance = stats.by_importance;
  return {
    total: stats.total_count,
    by_type: byType,
    embedding_model: null,
    stale_vectors: 0,
    remote: {
      store,
      working_count: stats.working_count ?? null,
      persistent_count: stats.persistent_count ?? null,
      by_importance: importance
        ? { high: importance.high ?? null, medium: importance.medium ?? null, low: importance.low ?? null }
        : null,
    },
  };
}

export async function remoteMemoryStats(store: RemoteMemorySource, signal?: AbortSignal): Promise<RemoteMemoryStatsView> {
  return toMemoryStatsView(store.name, await store.stats({ signal }));
}

/** Whether a resolved store is a remote one this module can list (by shape: a cached instance may come from another bundle). */
export function isRemoteMemorySource<S extends { kind: string }>(store: S): store is S & RemoteMemorySource {
  const s = store as unknown as Partial<RemoteMemorySource>;
  return s.kind === "remote" && typeof s.listMemories === "function" && typeof s.stats === "function";
}
