/**
 * The one test of "is this a UUID" for ids in URLs and cursors (recalls, views, runs): 8-4-4-4-12
 * hex digits, any case. Schemas use zod's `z.uuid()`; this is for code that holds a plain string.
 */
const UUID_PATTERN = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export function isUuid(text: string): boolean {
  return UUID_PATTERN.test(text);
}
