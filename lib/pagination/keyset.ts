/**
 * The one pagination module (docs/ARCHITECTURE.md "One home per thing"): an opaque cursor codec
 * and the keyset WHERE for lists ordered newest first, `(created_at DESC, id DESC)` — History's
 * recalls and the Memories page's memories alike.
 *
 * The cursor is base64url of JSON `[created_at ISO, id]`, decoded strictly (exactly the form we
 * write) so a damaged or foreign cursor is a 422, never a database error. The next page is every
 * row strictly after the cursor's pair in that order, so rows sharing a timestamp are neither
 * repeated nor skipped and a deep page costs what the first one does.
 *
 * Client-safe (no Buffer, no Prisma at run time).
 */
import { isDateInRange } from "@/lib/validation/input-rules";

export interface KeysetPosition {
  createdAt: Date;
  id: string;
}

const MAX_CURSOR_CHARS = 400;

export function toBase64Url(text: string): string {
  const bytes = new TextEncoder().encode(text);
  let binary = "";
  for (const byte of bytes) binary += String.fromCharCode(byte);
  return btoa(binary).replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "");
}

/** The text, or null when `text` is not strict unpadded base64url of UTF-8. */
export function fromBase64Url(text: string): string | null {
  if (!/^[A-Za-z0-9_-]*$/.test(text) || text.length % 4 === 1) return null;
  const padded = text.replace(/-/g, "+").replace(/_/g, "/") + "=".repeat((4 - (text.length % 4)) % 4);
  try {
    const binary = atob(padded);
    const bytes = Uint8Array.from(binary, (ch) => ch.charCodeAt(0));
    return new TextDecoder("utf-8", { fatal: true }).decode(bytes);
  } catch {
    return null;
  }
}

export function encodeKeysetCursor(position: KeysetPosition): string {
  return toBase64Url(JSON.stringify([position.createdAt.toISOString(), position.id]));
}

/**
 * The position a cursor names, or null when it is not one `encodeKeysetCursor` wrote.
 * @param isId what an id of this list looks like (a UUID for recalls, 1–200 chars for memories)
 */
export function decodeKeysetCursor(cursor: string, isId: (id: string) => boolean): KeysetPosition | null {
  if (cursor.length === 0 || cursor.length > MAX_CURSOR_CHARS) return null;
  const json = fromBase64Url(cursor);
  if (json === null) return null;
  let value: unknown;
  try {
    value = JSON.parse(json);
  } catch {
    return null;
  }
  if (!Array.isArray(value) || value.length !== 2) return null;
  const [iso, id] = value as unknown[];
  if (typeof iso !== "string" || typeof id !== "string" || !isId(id)) return null;
  const createdAt = new Date(iso);
  // Exactly the form we write (millisecond ISO in UTC), so the pair compares like the column.
  // Dates outside 1970–9999 are never written, and +275760 would overflow the column.
  if (!isDateInRange(createdAt) || createdAt.toISOString() !== iso) return null;
  return { createdAt, id };
}

/**
 * The condition "strictly after `position` in (created_at DESC, id DESC)", as Prisma WHERE parts
 * to AND with the filters. Written as `created_at <= c AND (created_at < c OR id < i)`, the row
 * comparison `(created_at, id) < (c, i)`: the first part is a range the (created_at, id) index can
 * start its scan from (an OR alone makes a deep page scan every newer row); the second only
 * rejects the ties at the cursor's own timestamp.
 */
export function keysetAfter(position: KeysetPosition): KeysetWhere[] {
  const { createdAt, id } = position;
  return [{ createdAt: { lte: createdAt } }, { OR: [{ createdAt: { lt: createdAt } }, { id: { lt: id } }] }];
}

/** Structurally a WHERE input of any model with `createdAt` and a string `id`. */
export type KeysetWhere = { createdAt: { lte: Date } } | { OR: ({ createdAt: { lt: Date } } | { id: { lt: string } })[] };

/** A page from `limit + 1` rows read in order: the rows to show and the cursor of the next page. */
export function keysetPage<T extends KeysetPosition>(
  rows: readonly T[],
  limit: number,
): { page: T[]; nextCursor: string | null } {
  const page = rows.slice(0, limit);
  const last = page[page.length - 1];
  return {
    page,
    nextCursor: rows.length > limit && last ? encodeKeysetCursor({ createdAt: last.createdAt, id: last.id }) : null,
  };
}
